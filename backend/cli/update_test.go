package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

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
	if o := inProcess(t, "1.0.0", nil, "update", "--rollback", "--home", home); o.code != cli.ExitFailed || !strings.Contains(o.stderr, "no previous version") || strings.Count(o.stderr, "previous version") != 1 {
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

// inProcessIn runs `hermes args...` in this process in lang.
func inProcessIn(t *testing.T, lang i18n.Lang, version string, args ...string) outcome {
	t.Helper()
	i18n.SetLang(lang)
	t.Cleanup(func() { i18n.SetLang(i18n.EN) })
	var out, errOut bytes.Buffer
	code := cli.Main(context.Background(), &cli.Env{
		Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }, Version: version,
	}, args)
	return outcome{code, out.String(), errOut.String()}
}

// releaseFeed serves a signed feed of version with the given artefacts
// (form → file name → bytes) for this platform, and returns its URL and
// the public key that signed it.
func releaseFeed(t *testing.T, version string, files map[selfupdate.Form]map[string][]byte) (feedURL, pub string) {
	t.Helper()
	pubText, privText, err := selfupdate.GenerateKey("")
	if err != nil {
		t.Fatal(err)
	}
	priv, err := selfupdate.ParsePrivateKey(privText, "")
	if err != nil {
		t.Fatal(err)
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	rel := selfupdate.Release{Version: version, Notes: "Faster start"}
	mux := http.NewServeMux()
	dir := t.TempDir()
	for form, named := range files {
		for name, data := range named {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			art, err := selfupdate.SignArtefact(path, version, platform, form, "dl/"+name, priv)
			if err != nil {
				t.Fatal(err)
			}
			rel.Put(platform, art)
		}
	}
	feed := selfupdate.Feed{Published: time.Now().UTC()}
	feed.Add(rel)
	doc, err := selfupdate.SignFeed(feed, priv)
	if err != nil {
		t.Fatal(err)
	}
	mux.HandleFunc("GET /feed.json", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(doc) })
	mux.Handle("GET /dl/", http.StripPrefix("/dl/", http.FileServer(http.Dir(dir))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	lines := strings.Fields(string(pubText))
	return srv.URL + "/feed.json", lines[len(lines)-1]
}

// A .deb install: /usr/bin/hermes belongs to dpkg (a fake database in a
// temp root), so hermes update downloads and verifies the new .deb and
// says how to install it, in English and in Chinese, and never touches
// the binary; a rollback is refused with what to do instead.
func TestUpdate_DebInstall(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("dpkg installs are Linux's")
	}
	deb := []byte("!<arch>\nthe package of hermes 1.2.0")
	feedURL, pub := releaseFeed(t, "1.2.0", map[selfupdate.Form]map[string][]byte{
		selfupdate.FormBinary:  {"hermes-1.2.0-linux-amd64": []byte("the bare binary")},
		selfupdate.FormPackage: {"hermes_1.2.0_amd64.deb": deb},
	})
	root := t.TempDir()
	exe := filepath.Join(root, "usr", "bin", "hermes")
	info := filepath.Join(root, "var", "lib", "dpkg", "info")
	for _, d := range []string{filepath.Dir(exe), info} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(exe, []byte("hermes 1.0.0 from its package"), 0o755); err != nil {
		t.Fatal(err)
	}
	list := "/.\n/usr\n/usr/bin\n/usr/bin/hermes\n/usr/share/applications/hermes.desktop\n"
	if err := os.WriteFile(filepath.Join(info, "hermes.list"), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	cli.SetUpdateInstall(t, exe, root)
	home := t.TempDir()
	config := "[update]\nfeed_url = \"" + feedURL + "\"\npublic_key = \"" + pub + "\"\n"
	if err := os.WriteFile(filepath.Join(home, "hermes.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cached := filepath.Join(home, "updates", "1.2.0", "hermes_1.2.0_amd64.deb")

	o := inProcessIn(t, i18n.EN, "1.0.0", "update", "--home", home)
	for _, want := range []string{
		"Hermes 1.2.0 is available (you have 1.0.0)",
		"installed by dpkg: install the new .deb. " + exe + " belongs to the package manager",
		"verified at " + cached,
		"\n  sudo apt install " + cached + "\nor\n  sudo dpkg -i " + cached + "\n",
	} {
		if o.code != cli.ExitOK || !strings.Contains(o.stdout, want) {
			t.Fatalf("update: %+v\nwant %q", o, want)
		}
	}
	if got, err := os.ReadFile(cached); err != nil || !bytes.Equal(got, deb) {
		t.Fatalf("the cache holds %q (%v), want the .deb", got, err)
	}

	o = inProcessIn(t, i18n.ZH, "1.0.0", "update", "--home", home)
	if o.code != cli.ExitOK || !strings.Contains(o.stdout, "由 dpkg 安装：请安装新的 .deb。") || !strings.Contains(o.stdout, "sudo apt install "+cached) {
		t.Fatalf("update in Chinese: %+v", o)
	}

	o = inProcessIn(t, i18n.EN, "1.0.0", "update", "--rollback", "--home", home)
	if o.code != cli.ExitFailed || !strings.Contains(o.stderr, "installed by dpkg") || !strings.Contains(o.stderr, "sudo apt install ./hermes_VERSION_amd64.deb") {
		t.Fatalf("rollback: %+v", o)
	}
	if got, _ := os.ReadFile(exe); string(got) != "hermes 1.0.0 from its package" {
		t.Fatalf("dpkg's binary was changed: %q", got)
	}
}

// hermes release sign --form puts each form's artefact where the updater
// of that form looks, the binary where every version looks.
func TestRelease_SignForms(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "release")
	if o := inProcess(t, "1.0.0", nil, "release", "keygen", "--out", keys); o.code != 0 {
		t.Fatalf("keygen: %+v", o)
	}
	file := filepath.Join(dir, "artefact")
	if err := os.WriteFile(file, []byte("an artefact"), 0o644); err != nil {
		t.Fatal(err)
	}
	feedFile := filepath.Join(dir, "feed.json")
	for _, form := range []string{"binary", "package", "installer", "bundle"} {
		platform := "linux/amd64"
		if form == "bundle" {
			platform = "darwin/arm64"
		}
		o := inProcess(t, "1.0.0", nil, "release", "sign", "--key", keys+".key", "--version", "1.2.0",
			"--platform", platform, "--form", form, "--url", form+".file", "--feed", feedFile, file)
		if o.code != 0 || !strings.Contains(o.stderr, "1.2.0 for "+platform+" ("+form+")") {
			t.Fatalf("sign %s: %+v", form, o)
		}
	}
	pubText, err := os.ReadFile(keys + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	pub, err := selfupdate.ParsePublicKey(string(pubText))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(feedFile)
	if err != nil {
		t.Fatal(err)
	}
	feed, err := selfupdate.OpenFeed(doc, pub)
	if err != nil {
		t.Fatal(err)
	}
	rel := feed.Releases[0]
	for _, tt := range []struct {
		platform string
		form     selfupdate.Form
	}{
		{"linux/amd64", selfupdate.FormBinary}, {"linux/amd64", selfupdate.FormPackage},
		{"linux/amd64", selfupdate.FormInstaller}, {"darwin/arm64", selfupdate.FormBundle},
	} {
		if a, ok := rel.Artefact(tt.platform, tt.form); !ok || a.URL != string(tt.form)+".file" || a.Form != tt.form {
			t.Errorf("%s %s: %+v %v", tt.platform, tt.form, a, ok)
		}
	}
	if len(rel.Platforms) != 1 || rel.Platforms["linux/amd64"].URL != "binary.file" {
		t.Errorf("platforms %+v, want the binary alone", rel.Platforms)
	}
	o := inProcess(t, "1.0.0", nil, "release", "sign", "--key", keys+".key", "--version", "1.2.0", "--form", "msi", "--url", "x", file)
	if o.code != cli.ExitUsage || !strings.Contains(o.stderr, `--form "msi" is not a form`) {
		t.Fatalf("an unknown form: %+v", o)
	}
}
