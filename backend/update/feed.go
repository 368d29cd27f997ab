package update

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"aead.dev/minisign"
)

// SignedFeed is the document served at the feed URL: the feed as the exact
// text that was signed, and its minisign signature. One file, so a publisher
// can never serve a feed and a signature that belong to different uploads.
type SignedFeed struct {
	Feed      string `json:"feed"`
	Signature string `json:"signature"`
}

// Feed lists the published releases.
type Feed struct {
	Published time.Time `json:"published"`
	Releases  []Release `json:"releases"`
}

// Release is one version and its builds.
type Release struct {
	Version   string    `json:"version"`
	Channel   string    `json:"channel,omitempty"` // "" is stable
	Published time.Time `json:"published"`
	Notes     string    `json:"notes,omitempty"`
	NotesZH   string    `json:"notes_zh,omitempty"`
	// Platforms maps "GOOS/GOARCH" to its bare binary: what a binary
	// install (and a Windows installer's) updates from, and the only
	// artefact versions before install forms read, so they keep updating.
	Platforms map[string]Artefact `json:"platforms"`
	// Forms maps "GOOS/GOARCH" to its artefacts of the other forms (a
	// package, a bundle, a setup program), one per form. Older versions
	// ignore the field.
	Forms map[string][]Artefact `json:"forms,omitempty"`
}

// Artefact is one downloadable file. Its signature's trusted comment names
// the version, platform, form and hash, so a signed file cannot be passed
// off as another version, platform or form.
type Artefact struct {
	URL       string `json:"url"`
	Size      int64  `json:"size"`
	SHA256    string `json:"sha256"`
	Signature string `json:"signature"`
	// Form is what the file is: "binary" ("" in older feeds), "package" (a
	// .deb), "bundle" (a zip of the macOS .app) or "installer" (a setup
	// program).
	Form Form `json:"form,omitempty"`
}

// form is the artefact's form; an older feed's artefacts are binaries.
func (a Artefact) form() Form {
	if a.Form == "" {
		return FormBinary
	}
	return a.Form
}

// Artefact is the release's artefact of form for platform; for
// FormHeadless, its binary when it has no headless build.
func (r Release) Artefact(platform string, form Form) (Artefact, bool) {
	if form == FormBinary {
		a, ok := r.Platforms[platform]
		return a, ok
	}
	for _, a := range r.Forms[platform] {
		if a.form() == form {
			return a, true
		}
	}
	if form == FormHeadless {
		return r.Artefact(platform, FormBinary)
	}
	return Artefact{}, false
}

// Put sets a as the release's artefact of its form for platform, in place
// of one of the same form.
func (r *Release) Put(platform string, a Artefact) {
	if a.form() == FormBinary {
		if r.Platforms == nil {
			r.Platforms = map[string]Artefact{}
		}
		r.Platforms[platform] = a
		return
	}
	if r.Forms == nil {
		r.Forms = map[string][]Artefact{}
	}
	arts := r.Forms[platform]
	if i := slices.IndexFunc(arts, func(x Artefact) bool { return x.form() == a.form() }); i >= 0 {
		arts[i] = a
	} else {
		arts = append(arts, a)
	}
	r.Forms[platform] = arts
}

// Channels a release can be published on; "beta" users also get stable
// releases.
const (
	ChannelStable = "stable"
	ChannelBeta   = "beta"
)

// maxFeedSize bounds the feed document; a feed is a few kilobytes.
const maxFeedSize = 4 << 20

// fetchFeed downloads the feed and believes it only if key signed it.
func fetchFeed(ctx context.Context, client *http.Client, feedURL string, key minisign.PublicKey) (Feed, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, feedURL, nil)
	if err != nil {
		return Feed{}, fmt.Errorf("feed %s: %w: %w", feedURL, ErrFeed, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return Feed{}, fmt.Errorf("feed %s: %w: %w", feedURL, ErrFeed, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Feed{}, fmt.Errorf("feed %s: %w: HTTP %s", feedURL, ErrFeed, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxFeedSize))
	if err != nil {
		return Feed{}, fmt.Errorf("feed %s: %w: %w", feedURL, ErrFeed, err)
	}
	feed, err := OpenFeed(body, key)
	if err != nil {
		return Feed{}, fmt.Errorf("feed %s: %w", feedURL, err)
	}
	return feed.resolve(feedURL)
}

// OpenFeed verifies a signed feed document with key and decodes it.
func OpenFeed(doc []byte, key minisign.PublicKey) (Feed, error) {
	var signed SignedFeed
	if err := json.Unmarshal(doc, &signed); err != nil {
		return Feed{}, fmt.Errorf("%w: %w", ErrFeed, err)
	}
	if !minisign.Verify(key, []byte(signed.Feed), []byte(signed.Signature)) {
		return Feed{}, ErrFeedSignature
	}
	var feed Feed
	if err := json.Unmarshal([]byte(signed.Feed), &feed); err != nil {
		return Feed{}, fmt.Errorf("%w: %w", ErrFeed, err)
	}
	for _, r := range feed.Releases {
		if _, err := parseVersion(r.Version); err != nil {
			return Feed{}, fmt.Errorf("%w: %w", ErrFeed, err)
		}
	}
	return feed, nil
}

// SignFeed encodes feed and signs it with key, giving the document to serve.
func SignFeed(feed Feed, key minisign.PrivateKey) ([]byte, error) {
	slices.SortFunc(feed.Releases, func(a, b Release) int {
		c, _ := CompareVersions(b.Version, a.Version)
		return c
	})
	text, err := json.MarshalIndent(feed, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode feed: %w", err)
	}
	sig := minisign.SignWithComments(key, text, "hermes update feed "+feed.Published.UTC().Format(time.RFC3339), "")
	doc, err := json.MarshalIndent(SignedFeed{Feed: string(text), Signature: string(sig)}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode feed: %w", err)
	}
	return append(doc, '\n'), nil
}

// Add puts rel into the feed: a release of the same version gains rel's
// artefacts (and its notes, when rel has any) instead of appearing twice.
func (f *Feed) Add(rel Release) {
	for i := range f.Releases {
		r := &f.Releases[i]
		if r.Version != rel.Version {
			continue
		}
		if r.Platforms == nil {
			r.Platforms = map[string]Artefact{}
		}
		for p, a := range rel.Platforms {
			r.Put(p, a)
		}
		for p, arts := range rel.Forms {
			for _, a := range arts {
				r.Put(p, a)
			}
		}
		if rel.Notes != "" || rel.NotesZH != "" {
			r.Notes, r.NotesZH = rel.Notes, rel.NotesZH
		}
		if rel.Channel != "" {
			r.Channel = rel.Channel
		}
		return
	}
	f.Releases = append(f.Releases, rel)
}

// resolve makes every artefact URL absolute against the feed's own URL, so a
// self-hosted feed can list "hermes-linux-amd64" beside itself.
func (f Feed) resolve(feedURL string) (Feed, error) {
	base, err := url.Parse(feedURL)
	if err != nil {
		return Feed{}, fmt.Errorf("%w: %w", ErrFeed, err)
	}
	abs := func(r Release, p string, a Artefact) (Artefact, error) {
		u, err := base.Parse(a.URL)
		if err != nil {
			return a, fmt.Errorf("%w: release %s %s: %w", ErrFeed, r.Version, p, err)
		}
		a.URL = u.String()
		return a, nil
	}
	for i, r := range f.Releases {
		platforms := make(map[string]Artefact, len(r.Platforms))
		for p, a := range r.Platforms {
			if platforms[p], err = abs(r, p, a); err != nil {
				return Feed{}, err
			}
		}
		f.Releases[i].Platforms = platforms
		if r.Forms == nil {
			continue
		}
		others := make(map[string][]Artefact, len(r.Forms))
		for p, arts := range r.Forms {
			resolved := make([]Artefact, len(arts))
			for j, a := range arts {
				if resolved[j], err = abs(r, p, a); err != nil {
					return Feed{}, err
				}
			}
			others[p] = resolved
		}
		f.Releases[i].Forms = others
	}
	return f, nil
}

// newest is the highest release on channel that is newer than current, or
// false when current is the newest. A release without an artefact of form
// for platform is ErrNoPlatform, so the user hears of it instead of being
// told all is well.
func (f Feed) newest(current, channel, platform string, form Form) (Release, bool, error) {
	cur, err := parseVersion(current)
	if err != nil {
		return Release{}, false, err
	}
	var best *Release
	var bestV semver
	for i, r := range f.Releases {
		if !onChannel(r.Channel, channel) {
			continue
		}
		v, _ := parseVersion(r.Version) // checked by OpenFeed
		if v.compare(cur) > 0 && (best == nil || v.compare(bestV) > 0) {
			best, bestV = &f.Releases[i], v
		}
	}
	if best == nil {
		return Release{}, false, nil
	}
	if _, ok := best.Artefact(platform, form); !ok {
		return *best, false, noArtefact(*best, platform, form)
	}
	return *best, true, nil
}

// noArtefact is the error for a release without an artefact of form for
// platform.
func noArtefact(rel Release, platform string, form Form) error {
	if form == FormBinary {
		return fmt.Errorf("release %s for %s: %w", rel.Version, platform, ErrNoPlatform)
	}
	return fmt.Errorf("release %s for %s as a %s: %w", rel.Version, platform, form, ErrNoPlatform)
}

func onChannel(release, wanted string) bool {
	release = strings.ToLower(release)
	if release == "" || release == ChannelStable {
		return true
	}
	return strings.EqualFold(wanted, release)
}

// NotesIn is the release notes in Chinese when zh is set and there are some,
// else in English.
func (r Release) NotesIn(zh bool) string {
	if zh && r.NotesZH != "" {
		return r.NotesZH
	}
	return r.Notes
}
