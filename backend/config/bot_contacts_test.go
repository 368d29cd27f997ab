package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBot_AllowDepartmentsByIDOrName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes.toml")
	src := "[bot]\nplatform = \"wecom\"\nallow_departments = [2, \"研发部\", \"7\"]\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := []string(cfg.Bot.AllowDepartments); !slices.Equal(got, []string{"2", "研发部", "7"}) {
		t.Fatalf("allow_departments = %q", got)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
}

func TestBot_AllowDepartmentsRefused(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"not on WeCom's application", "[bot]\nplatform = \"wecom_bot\"\nallow_departments = [2]\n", `platform "wecom"`},
		{"an empty name", "[bot]\nallow_departments = [\"\"]\n", "by id or name"},
		{"id zero", "[bot]\nallow_departments = [0]\n", "by id or name"},
		{"a boolean", "[bot]\nallow_departments = [true]\n", "by id or name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hermes.toml")
			if err := os.WriteFile(path, []byte(tc.src), 0o600); err != nil {
				t.Fatal(err)
			}
			cfg, err := Load(path)
			if err == nil {
				err = cfg.Validate()
			}
			// A value of the wrong type is reported by the decoder, at its line.
			if err == nil || !strings.Contains(err.Error(), tc.want) || (!errors.Is(err, ErrInvalid) && !strings.Contains(err.Error(), "line 2")) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
