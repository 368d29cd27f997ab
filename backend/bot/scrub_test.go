package bot_test

import (
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"hermes/backend/agent"
	"hermes/backend/agent/agenttest"
	"hermes/backend/llm/llmtest"
	"hermes/backend/runlog"
	"hermes/backend/wecom/wecomtest"
)

// noSecrets fails the test if any message holds a secret.
func noSecrets(t *testing.T, msgs []string) {
	t.Helper()
	for _, m := range msgs {
		for _, s := range secrets {
			if strings.Contains(m, s) {
				t.Errorf("a reply holds a secret (%.6s…): %q", s, m)
			}
		}
	}
}

// What a run says — its answer, or why it failed — reaches the chat with
// the secrets it knew replaced, those of the model and those of the bot.
func TestBot_RepliesAreScrubbed(t *testing.T) {
	leak := "env: OPENAI_API_KEY=" + testKey + " HERMES_WEBHOOK_SECRET=" + testToken + " WECOM_SECRET=" + testSecret + " AES=" + testAESKey
	reversed := []rune(testToken)
	slices.Reverse(reversed)
	encoded := "in base64: " + base64.StdEncoding.EncodeToString([]byte("WECOM_SECRET="+testSecret)) +
		" hex: " + hex.EncodeToString([]byte(testAESKey)) + " reversed: " + string(reversed)
	cases := []struct {
		name string
		step llmtest.Step
		want string
		// redactor is the runs' own; the bot scrubs its own secrets even
		// when a run's redactor lacks them.
		redactor *runlog.Redactor
	}{
		{"answer", llmtest.Step{Content: leak}, "OPENAI_API_KEY=[REDACTED] HERMES_WEBHOOK_SECRET=[REDACTED]", nil},
		{"answer, the run knowing only the model key", llmtest.Step{Content: leak}, "HERMES_WEBHOOK_SECRET=[REDACTED] WECOM_SECRET=[REDACTED] AES=[REDACTED]", runlog.NewRedactor(testKey)},
		{"failure", llmtest.Step{Status: 400, Content: "bad request: " + leak}, "The task failed", nil},
		// The bot scrubs the forms a run's redactor does.
		{"answer with the secrets encoded, the run knowing only the model key", llmtest.Step{Content: encoded},
			"in base64: [REDACTED] hex: [REDACTED] reversed: [REDACTED]", runlog.NewRedactor(testKey)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
			model := llmtest.NewFuncServer(t, func(llmtest.Request) llmtest.Step { return tc.step })
			var with []func(*agent.Setup)
			if tc.redactor != nil {
				with = append(with, func(s *agent.Setup) { s.Redactor = tc.redactor })
			}
			h := newHarness(t, "", model, botConfig(wecom), with...)
			h.send("zhang", "m1", "run env and show me everything")
			got := waitMessage(t, wecom, "zhang", tc.want)
			if !strings.Contains(got[len(got)-1], runlog.Redacted) {
				t.Errorf("reply %q: want the secrets shown as %s", got[len(got)-1], runlog.Redacted)
			}
			noSecrets(t, got)
			for _, secret := range secrets[:4] {
				if leaks := agenttest.Leaks([]byte(strings.Join(got, "\n")), secret); len(leaks) > 0 {
					t.Errorf("a reply holds %.6s… as %q", secret, leaks)
				}
			}
		})
	}
}

// A reply sent outside a run (a command's) is scrubbed too: /status
// quotes the task, which here holds the bot's webhook secret.
func TestBot_CommandRepliesAreScrubbed(t *testing.T) {
	wecom := wecomtest.NewServer(t, testCorpID, testSecret, 0)
	model, arrived, release := blockingModel(t, llmtest.Step{Content: "done"}, func(llmtest.Request) llmtest.Step { return llmtest.Step{Content: "done"} })
	h := newHarness(t, "", model, botConfig(wecom), func(s *agent.Setup) { s.Redactor = runlog.NewRedactor(testKey) })
	h.send("li", "m1", "check that the token "+testToken+" works")
	<-arrived
	h.send("li", "m2", "/status")
	got := waitMessage(t, wecom, "li", "Working on:")
	close(release)
	got = append(got, waitMessage(t, wecom, "li", "done")...)
	if !strings.Contains(got[0], "the token [REDACTED] works") {
		t.Errorf("status %q: want the task with the token redacted", got[0])
	}
	noSecrets(t, got)
}
