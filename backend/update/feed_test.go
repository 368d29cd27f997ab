package update

import (
	"errors"
	"testing"
	"time"
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
		rel, newer, err := feed.newest(tt.current, tt.channel, platform)
		if err != nil || newer != (tt.want != "") || (newer && rel.Version != tt.want) {
			t.Errorf("newest(%s, %q) = %s %v %v, want %q", tt.current, tt.channel, rel.Version, newer, err, tt.want)
		}
	}
	if _, _, err := feed.newest("1.0.0", "", "plan9/mips"); !errors.Is(err, ErrNoPlatform) {
		t.Errorf("no build for the platform: %v, want ErrNoPlatform", err)
	}
	if _, _, err := feed.newest("dev", "", platform); !errors.Is(err, ErrVersion) {
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
