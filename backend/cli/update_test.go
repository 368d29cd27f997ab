package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hermes/backend/cli"
	"hermes/backend/i18n"
	selfupdate "hermes/backend/update"
)

// inProcess runs `hermes args...` in this process as version.
func inProcess(t *testing.T, version string, env map[string]string, args ...string) outcome {
	t.Helper()
	i18n.SetLang(i18n.EN)
	var out, errOut bytes.Buffer
	code := cli.Main(context.Background(), &cli.Env{
		Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }, Version: version,
	}, args)
	return outcome{code, out.String(), errOut.String()}
}

func TestRelease_KeygenSignAndCheck(t *testing.T) {
	dir := t.TempDir()
	// An unencrypted key: the scrypt of an encrypted one takes seconds.
	var env map[string]string
	keys := filepath.Join(dir, "release")
	if o := inProcess(t, "1.0.0", env, "release", "keygen", "--out", keys); o.code != 0 || !strings.Contains(o.stderr, "not encrypted") {
		t.Fatalf("keygen: %+v", o)
	}
	if o := inProcess(t, "1.0.0", env, "release", "keygen", "--out", keys); o.code != cli.ExitFailed || !strings.Contains(o.stderr, "already exists") {
		t.Fatalf("keygen over an existing key: %+v", o)
	}
	pubText, err := os.ReadFile(keys + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := selfupdate.ParsePublicKey(string(pubText))
	if err != nil {
		t.Fatal(err)
	}
	binary := filepath.Join(dir, "hermes")
	if err := os.WriteFile(binary, []byte("a build of hermes"), 0o755); err != nil {
		t.Fatal(err)
	}
	feedFile := filepath.Join(dir, "feed.json")
	for _, platform := range []string{"linux/amd64", "windows/amd64"} {
		o := inProcess(t, "1.0.0", env, "release", "sign", "--key", keys+".key", "--version", "1.2.0",
			"--url", "hermes-"+strings.ReplaceAll(platform, "/", "-"), "--platform", platform,
			"--notes", "Faster start", "--feed", feedFile, binary)
		if o.code != 0 {
			t.Fatalf("sign %s: %+v", platform, o)
		}
		var entry selfupdate.Release
		if err := json.Unmarshal([]byte(o.stdout), &entry); err != nil || entry.Platforms[platform].Size != 17 {
			t.Fatalf("sign printed %q (%v), want the feed entry", o.stdout, err)
		}
	}
	doc, err := os.ReadFile(feedFile)
	if err != nil {
		t.Fatal(err)
	}
	feed, err := selfupdate.OpenFeed(doc, pub)
	if err != nil {
		t.Fatal(err)
	}
	if len(feed.Releases) != 1 || len(feed.Releases[0].Platforms) != 2 {
		t.Fatalf("feed %+v, want one release with two platforms", feed.Releases)
	}
	if o := inProcess(t, "1.0.0", env, "release", "sign", "--key", keys+".pub",
		"--version", "1.2.1", "--url", "x", binary); o.code != cli.ExitFailed || !strings.Contains(o.stderr, "not a usable minisign private key") {
		t.Fatalf("signing with the public key: %+v", o)
	}

	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	home := t.TempDir()
	config := "[update]\nfeed_url = \"" + srv.URL + "/feed.json\"\npublic_key = \"" + strings.Fields(string(pubText))[len(strings.Fields(string(pubText)))-1] + "\"\n"
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	o := inProcess(t, "1.0.0", nil, "update", "--check", "--home", home)
	if o.code != 0 || !strings.Contains(o.stdout, "Hermes 1.2.0 is available (you have 1.0.0)") || !strings.Contains(o.stdout, "Faster start") {
		t.Fatalf("check: %+v", o)
	}
	if o := inProcess(t, "1.2.0", nil, "update", "--check", "--home", home); o.code != 0 || !strings.Contains(o.stdout, "1.2.0 is the newest") {
		t.Fatalf("check when up to date: %+v", o)
	}
	if o := inProcess(t, "dev", nil, "update", "--check", "--home", home); o.code != cli.ExitFailed || !strings.Contains(o.stderr, "install a release build") {
		t.Fatalf("check from a development build: %+v", o)
	}
}

func TestUpdate_Messages(t *testing.T) {
	home := t.TempDir()
	if o := inProcess(t, "1.0.0", nil, "update", "--home", home); o.code != cli.ExitFailed || !strings.Contains(o.stderr, "set [update] feed_url") {
		t.Fatalf("no feed: %+v", o)
	}
	if o := inProcess(t, "1.0.0", nil, "update", "--rollback", "--home", home); o.code != cli.ExitFailed || !strings.Contains(o.stderr, "no previous version") {
		t.Fatalf("rollback with nothing kept: %+v", o)
	}
	o := inProcess(t, "1.0.0", nil, "update", "--health", "--home", home)
	var report selfupdate.HealthReport
	if err := json.Unmarshal([]byte(o.stdout), &report); err != nil || o.code != 0 || !report.OK || report.Version != "1.0.0" {
		t.Fatalf("health: %+v (%v)", o, err)
	}
	if o := inProcess(t, "1.0.0", nil, "update", "--check", "--clean"); o.code != cli.ExitUsage {
		t.Fatalf("two actions at once: %+v", o)
	}
}

// Without a feed, `update --check` says what to set, and nothing else.
func TestUpdate_CheckWithoutFeed(t *testing.T) {
	o := inProcess(t, "1.0.0", nil, "update", "--check", "--home", t.TempDir())
	want := "error: no update feed is configured; set [update] feed_url in hermes.toml (see docs/updates.md)\n"
	if o.code != cli.ExitFailed || o.stderr != want || o.stdout != "" {
		t.Fatalf("got %d %q %q, want stderr %q", o.code, o.stdout, o.stderr, want)
	}
}
