package update

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"aead.dev/minisign"
)

func TestFeed_Newest(t *testing.T) {
	art := map[string]Artefact{platform: {URL: "a"}}
	feed := Feed{Releases: []Release{
		{Version: "1.1.0", Platforms: art},
		{Version: "1.3.0-beta.1", Channel: "beta", Platforms: art},
		{Version: "1.2.0", Channel: "stable", Platforms: art},
		{Version: "1.0.5", Platforms: art},
		{Version: "2.0.0", Channel: "nightly", Platforms: art},
	}}
	tests := []struct {
		current, channel string
		want             string // "" = up to date
	}{
		{"1.0.0", "", "1.2.0"},
		{"1.0.0", ChannelStable, "1.2.0"},
		{"1.0.0", ChannelBeta, "1.3.0-beta.1"},
		{"1.2.0", "", ""},
		{"1.3.0", ChannelBeta, ""},
	}
	for _, tt := range tests {
		rel, newer, err := feed.newest(tt.current, tt.channel, platform, FormBinary)
		if err != nil || newer != (tt.want != "") || (newer && rel.Version != tt.want) {
			t.Errorf("newest(%s, %q) = %s %v %v, want %q", tt.current, tt.channel, rel.Version, newer, err, tt.want)
		}
	}
	if _, _, err := feed.newest("1.0.0", "", "plan9/mips", FormBinary); !errors.Is(err, ErrNoPlatform) {
		t.Errorf("no build for the platform: %v, want ErrNoPlatform", err)
	}
	if _, _, err := feed.newest("dev", "", platform, FormBinary); !errors.Is(err, ErrVersion) {
		t.Errorf("a development build: %v, want ErrVersion", err)
	}
}

func TestFeed_SignOpenResolve(t *testing.T) {
	var feed Feed
	feed.Add(Release{Version: "1.0.0", Platforms: map[string]Artefact{"linux/amd64": {URL: "hermes-1.0.0-linux-amd64", Size: 1}}})
	feed.Add(Release{Version: "1.1.0", Notes: "new", Platforms: map[string]Artefact{"linux/amd64": {URL: "https://cdn.example/h", Size: 2}}})
	feed.Add(Release{Version: "1.1.0", Platforms: map[string]Artefact{"windows/amd64": {URL: "win/hermes.exe", Size: 3}}})
	feed.Published = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	doc, err := SignFeed(feed, testPriv)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFeed(doc, otherPub); !errors.Is(err, ErrFeedSignature) {
		t.Fatalf("opened with another key: %v", err)
	}
	got, err := OpenFeed(doc, testPub)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Releases) != 2 || got.Releases[0].Version != "1.1.0" || len(got.Releases[0].Platforms) != 2 || got.Releases[0].Notes != "new" {
		t.Fatalf("releases not merged newest first: %+v", got.Releases)
	}
	got, err = got.resolve("https://updates.example/hermes/feed.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ version, platform, want string }{
		{"1.0.0", "linux/amd64", "https://updates.example/hermes/hermes-1.0.0-linux-amd64"},
		{"1.1.0", "linux/amd64", "https://cdn.example/h"},
		{"1.1.0", "windows/amd64", "https://updates.example/hermes/win/hermes.exe"},
	} {
		for _, r := range got.Releases {
			if r.Version == tt.version {
				if u := r.Platforms[tt.platform].URL; u != tt.want {
					t.Errorf("%s %s: url %s, want %s", tt.version, tt.platform, u, tt.want)
				}
			}
		}
	}
	tampered := []byte(string(doc[:len(doc)/2]) + "X" + string(doc[len(doc)/2+1:]))
	if _, err := OpenFeed(tampered, testPub); err == nil {
		t.Fatal("a tampered feed opened")
	}
}

// A platform has one artefact per form: the binary stays in platforms,
// where versions before forms read it, the others go to forms; an old
// feed's artefacts are binaries.
func TestFeed_Forms(t *testing.T) {
	bin := Artefact{URL: "hermes-linux", Size: 1, Form: FormBinary}
	deb := Artefact{URL: "hermes_1.1.0_amd64.deb", Size: 2, Form: FormPackage}
	app := Artefact{URL: "https://cdn.example/Hermes.app.zip", Size: 3, Form: FormBundle}
	var feed Feed
	feed.Add(Release{Version: "1.1.0", Platforms: map[string]Artefact{"linux/amd64": bin}})
	var withDeb Release
	withDeb.Version = "1.1.0"
	withDeb.Put("linux/amd64", deb)
	withDeb.Put("darwin/arm64", app)
	feed.Add(withDeb)
	newer := deb
	newer.Size = 20
	var again Release
	again.Version = "1.1.0"
	again.Put("linux/amd64", newer) // signed again: replaces, never doubles
	feed.Add(again)
	doc, err := SignFeed(feed, testPriv)
	if err != nil {
		t.Fatal(err)
	}
	got, err := OpenFeed(doc, testPub)
	if err != nil {
		t.Fatal(err)
	}
	if got, err = got.resolve("https://updates.example/hermes/feed.json"); err != nil {
		t.Fatal(err)
	}
	rel := got.Releases[0]
	if a, ok := rel.Artefact("linux/amd64", FormBinary); !ok || a.URL != "https://updates.example/hermes/hermes-linux" {
		t.Fatalf("binary %+v %v", a, ok)
	}
	if a, ok := rel.Artefact("linux/amd64", FormPackage); !ok || a.Size != 20 || a.URL != "https://updates.example/hermes/hermes_1.1.0_amd64.deb" || len(rel.Forms["linux/amd64"]) != 1 {
		t.Fatalf("package %+v %v (%d)", a, ok, len(rel.Forms["linux/amd64"]))
	}
	if a, ok := rel.Artefact("darwin/arm64", FormBundle); !ok || a.URL != "https://cdn.example/Hermes.app.zip" {
		t.Fatalf("bundle %+v %v", a, ok)
	}
	if _, ok := rel.Artefact("darwin/arm64", FormBinary); ok {
		t.Fatal("a bundle passed for a binary")
	}
	if _, _, err := got.newest("1.0.0", "", "darwin/arm64", FormBinary); !errors.Is(err, ErrNoPlatform) {
		t.Fatalf("a binary install of darwin: %v, want ErrNoPlatform", err)
	}
	if _, newer, err := got.newest("1.0.0", "", "darwin/arm64", FormBundle); err != nil || !newer {
		t.Fatalf("a bundle install of darwin: %v %v", newer, err)
	}

	// An older Hermes decodes the feed into types without forms: it finds
	// the binary where it always did and skips the rest.
	var signed SignedFeed
	if err := json.Unmarshal(doc, &signed); err != nil {
		t.Fatal(err)
	}
	var old struct {
		Releases []struct {
			Version   string `json:"version"`
			Platforms map[string]struct {
				URL       string `json:"url"`
				SHA256    string `json:"sha256"`
				Signature string `json:"signature"`
			} `json:"platforms"`
		} `json:"releases"`
	}
	if err := json.Unmarshal([]byte(signed.Feed), &old); err != nil {
		t.Fatal(err)
	}
	if p := old.Releases[0].Platforms; len(p) != 1 || p["linux/amd64"].URL != "hermes-linux" {
		t.Fatalf("an older Hermes reads %+v", p)
	}

	// A feed from before forms: its artefacts have no form, and are binaries.
	oldFeed := `{"published":"2026-01-01T00:00:00Z","releases":[{"version":"1.1.0","published":"2026-01-01T00:00:00Z","platforms":{"linux/amd64":{"url":"h","size":1,"sha256":"ab","signature":"s"}}}]}`
	sig := minisign.Sign(testPriv, []byte(oldFeed))
	oldDoc, _ := json.Marshal(SignedFeed{Feed: oldFeed, Signature: string(sig)})
	read, err := OpenFeed(oldDoc, testPub)
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := read.Releases[0].Artefact("linux/amd64", FormBinary); !ok || a.URL != "h" || a.form() != FormBinary {
		t.Fatalf("an old feed's artefact: %+v %v", a, ok)
	}
}

// A binary's signature vouches for what versions before forms check; the
// other forms' name their form.
func TestSignArtefact_TrustedComment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for form, want := range map[Form]string{
		FormBinary:  "hermes 1.1.0 linux/amd64 sha256:",
		FormPackage: "hermes 1.1.0 linux/amd64 package sha256:",
		FormBundle:  "hermes 1.1.0 linux/amd64 bundle sha256:",
	} {
		art, err := SignArtefact(path, "1.1.0", "linux/amd64", form, "u", testPriv)
		if err != nil {
			t.Fatal(err)
		}
		var sig minisign.Signature
		if err := sig.UnmarshalText([]byte(art.Signature)); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(sig.TrustedComment, want) || art.Form != form {
			t.Errorf("%s: %q (form %q), want %q…", form, sig.TrustedComment, art.Form, want)
		}
	}
	if _, err := SignArtefact(path, "1.1.0", "linux/amd64", "snap", "u", testPriv); !errors.Is(err, ErrForm) {
		t.Errorf("an unknown form: %v", err)
	}
}
