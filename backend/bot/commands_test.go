package bot

import (
	"testing"

	"hermes/backend/i18n"
)

func TestParseCommand(t *testing.T) {
	cases := []struct {
		text string
		want command
		ok   bool
	}{
		{"/stop", cmdStop, true},
		{"  /STOP please ", cmdStop, true},
		{"/停止", cmdStop, true},
		{"／暂停", cmdPause, true}, // a full-width slash
		{"/resume", cmdResume, true},
		{"/继续", cmdResume, true},
		{"/状态", cmdStatus, true},
		{"/新会话", cmdNew, true},
		{"/help", cmdHelp, true},
		{"/帮助", cmdHelp, true},
		{"/pin the budget is 500 EUR", cmdPin, true},
		{"/固定 预算是 500 欧元", cmdPin, true},
		{"stop", "", false},
		{"/stopping", "", false},
		{"/usr/bin is full", "", false},
		{"", "", false},
	}
	for _, tc := range cases {
		got, ok := parseCommand(tc.text)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseCommand(%q) = %q %v, want %q %v", tc.text, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCommandArg(t *testing.T) {
	for text, want := range map[string]string{
		"/pin the budget is 500 EUR": "the budget is 500 EUR",
		"  /固定   预算是 500 欧元 ":        "预算是 500 欧元",
		"/pin":                       "",
	} {
		if got := commandArg(text); got != want {
			t.Errorf("commandArg(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestLangOf(t *testing.T) {
	cases := []struct {
		text     string
		fallback i18n.Lang
		want     i18n.Lang
	}{
		{"summarise my notes", i18n.ZH, i18n.EN},
		{"总结我的笔记 in English", i18n.EN, i18n.ZH},
		{"/停止", i18n.EN, i18n.ZH},
		{"42 👍", i18n.ZH, i18n.ZH},
		{"42 👍", i18n.EN, i18n.EN},
	}
	for _, tc := range cases {
		if got := langOf(tc.text, tc.fallback); got != tc.want {
			t.Errorf("langOf(%q, %s) = %s, want %s", tc.text, tc.fallback, got, tc.want)
		}
	}
}
