package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/store/storetest"
	selfupdate "hermes/backend/update"
)

const doctorRuns = 30

// storeWithRuns writes a real store in home: doctorRuns checkpoints of
// ten turns each. It returns the file's bytes.
func storeWithRuns(t *testing.T, home string) []byte {
	return storetest.Written(t, filepath.Join(home, "hermes.db"), doctorRuns, 10)
}

func TestDoctor_SalvagesADamagedStore(t *testing.T) {
	tests := []struct {
		name   string
		damage func([]byte) []byte
		found  string // in doctor's account of the damage
		saved  string // in the salvage's account
		lost   string
	}{
		{
			name: "freelist page overwritten",
			damage: func(d []byte) []byte {
				_, freelist, _ := storetest.Meta(d)
				return storetest.Overwrite(d, freelist)
			},
			found: fmt.Sprintf("is damaged; %d keys can still be read", doctorRuns*11),
			saved: fmt.Sprintf("saved %d keys in ", doctorRuns*11),
			lost:  "every key was saved",
		},
		{
			name:   "cut in half",
			damage: storetest.CutInHalf,
			found:  "is damaged; 0 keys can still be read",
			saved:  "saved 0 keys in 0 buckets",
			lost:   "what is listed above as unreadable is lost",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, "hermes.db")
			data := storeWithRuns(t, home)
			if o := runHermes(t, "doctor", "--home", home); o.code != cli.ExitOK || !strings.Contains(o.stdout, "is healthy") {
				t.Fatalf("doctor on a healthy store: %+v", o)
			}
			damaged := tt.damage(data)
			if err := os.WriteFile(path, damaged, 0o600); err != nil {
				t.Fatal(err)
			}

			o := runHermes(t, "memory", "list", "--home", home)
			if o.code != cli.ExitFailed || !strings.Contains(o.stderr, "is damaged") || !strings.Contains(o.stderr, "run hermes doctor --salvage") ||
				strings.Contains(o.stderr, "goroutine") {
				t.Fatalf("a command on the damaged store: %+v", o)
			}
			o = runHermes(t, "doctor", "--home", home)
			if o.code != cli.ExitFailed || !strings.Contains(o.stdout, tt.found) || !strings.Contains(o.stdout, "the file: ") ||
				!strings.Contains(o.stdout, "run hermes doctor --salvage") {
				t.Fatalf("doctor on the damaged store: %+v", o)
			}
			if b, _ := os.ReadFile(path); !bytes.Equal(b, damaged) {
				t.Fatal("a check changed the damaged file")
			}

			o = runHermes(t, "doctor", "--salvage", "--home", home)
			if o.code != cli.ExitOK || !strings.Contains(o.stdout, tt.saved) || !strings.Contains(o.stdout, tt.lost) || !strings.Contains(o.stdout, "the damaged file is kept as") {
				t.Fatalf("salvage: %+v", o)
			}
			kept, _ := filepath.Glob(path + ".damaged-*")
			if len(kept) != 1 {
				t.Fatalf("kept %q, want one damaged file", kept)
			}
			if b, _ := os.ReadFile(kept[0]); !bytes.Equal(b, damaged) {
				t.Fatal("the damaged file was not kept as it was")
			}
			if o := runHermes(t, "memory", "list", "--home", home); o.code != cli.ExitOK {
				t.Fatalf("the salvaged store does not open: %+v", o)
			}
			if o := runHermes(t, "doctor", "--salvage", "--home", home); o.code != cli.ExitOK || !strings.Contains(o.stdout, "is healthy") ||
				!strings.Contains(o.stdout, "nothing to salvage") {
				t.Fatalf("doctor after the salvage: %+v", o)
			}
		})
	}
}

// The health check a new version answers opens the store, so a version
// that cannot read it is never installed.
func TestUpdate_HealthOpensTheStore(t *testing.T) {
	home := t.TempDir()
	data := storeWithRuns(t, home)
	if err := os.WriteFile(filepath.Join(home, "hermes.db"), storetest.CutInHalf(data), 0o600); err != nil {
		t.Fatal(err)
	}
	o := runHermes(t, "update", "--health", "--home", home)
	var report selfupdate.HealthReport
	if err := json.Unmarshal([]byte(o.stdout), &report); err != nil || o.code != cli.ExitFailed || report.OK || !strings.Contains(report.Error, "is damaged") {
		t.Fatalf("health with a damaged store: %+v (%v)", o, err)
	}
}
