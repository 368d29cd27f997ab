package config

import (
	"errors"
	"net"
	"net/url"
	"strings"

	"aead.dev/minisign"

	"hermes/backend/i18n"
)

// Update configures the self-updater. The zero value is the default: check
// the feed at start on the stable channel, trusting the key built into
// Hermes.
type Update struct {
	// FeedURL is the signed update feed; "" turns updates off.
	FeedURL string `toml:"feed_url"`
	// PublicKey is the minisign key that signs the feed and the binaries,
	// for a self-hosted feed; "" is the key built into Hermes.
	PublicKey string `toml:"public_key"`
	// Channel is "stable" ("" too) or "beta", which also gets pre-releases.
	Channel string `toml:"channel"`
	// Check is "start" ("" too): the desktop app checks when it opens; or
	// "manual": only `hermes update` checks.
	Check string `toml:"check"`
}

// ChecksOnStart reports whether the desktop app checks the feed at start.
func (u Update) ChecksOnStart() bool { return u.FeedURL != "" && u.Check != "manual" }

func (u Update) validate() error {
	var errs []error
	if u.FeedURL != "" {
		if p, err := url.Parse(u.FeedURL); err != nil || p.Host == "" ||
			(p.Scheme != "https" && !(p.Scheme == "http" && isLoopback(p.Hostname()))) {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.update.feed_url", u.FeedURL))
		}
	}
	if u.PublicKey != "" {
		var key minisign.PublicKey
		if err := key.UnmarshalText([]byte(strings.TrimSpace(u.PublicKey))); err != nil {
			errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.update.public_key"))
		}
	}
	switch strings.ToLower(u.Channel) {
	case "", "stable", "beta":
	default:
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.update.channel", u.Channel))
	}
	switch u.Check {
	case "", "start", "manual":
	default:
		errs = append(errs, i18n.Wrap(ErrInvalid, "config.invalid.update.check", u.Check))
	}
	return errors.Join(errs...)
}

// isLoopback allows plain http for a feed served from this machine only;
// anything else could be altered on the way, signatures or not, into a
// denial of updates.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// The [update] keys are documented here, beside their section, and join the
// one table doc.go keeps for `hermes config init` and docs/config.md.
// updateDocs adds the documentation of [update]'s keys to docs, for allDocs.
func updateDocs(docs map[string]keyDoc) {
	for key, d := range map[string]keyDoc{
		"update.feed_url": doc(`The signed update feed, such as "https://example.org/hermes/feed.json"; "" turns updates off.`,
			`已签名的更新源，例如 "https://example.org/hermes/feed.json"；"" 表示关闭更新。`),
		"update.public_key": doc(`The minisign public key ("RW…") that signs a self-hosted feed; "" trusts the key built into Hermes.`,
			`自建更新源所用的 minisign 公钥（"RW…"）；"" 表示信任 Hermes 内置的公钥。`),
		"update.channel": docShown(`"stable", or "beta" to get pre-releases too.`, `"stable"（稳定版），或 "beta"（也接收预发布版）。`, "stable"),
		"update.check": docShown(`"start": the desktop app checks when it opens; "manual": only hermes update checks.`,
			`"start"：桌面应用打开时检查；"manual"：只在运行 hermes update 时检查。`, "start"),
	} {
		docs[key] = d
	}
}
