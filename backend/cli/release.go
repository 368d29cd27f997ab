package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"time"

	"aead.dev/minisign"
	"golang.org/x/term"

	"hermes/backend/atomicfile"
	"hermes/backend/i18n"
	selfupdate "hermes/backend/update"
)

func init() { register(command{"release", "cli.cmd.release", cmdRelease}) }

// releasePasswordEnv holds the signing key's password in CI, where no one
// can type it.
const releasePasswordEnv = "HERMES_RELEASE_PASSWORD"

// cmdRelease is `hermes release keygen|sign`: the publisher's side of the
// update feed.
func cmdRelease(_ context.Context, env *Env, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.release.usage"))
		return ExitUsage
	}
	switch args[0] {
	case "keygen":
		return releaseKeygen(env, args[1:])
	case "sign":
		return releaseSign(env, args[1:])
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.release.usage"))
	return ExitUsage
}

func releaseKeygen(env *Env, args []string) int {
	fs := newFlagSet(env, "hermes release keygen")
	setUsage(fs, "cli.release.usage")
	out := fs.String("out", "hermes-release", "cli.release.flag.out")
	if rest, err := parseInterleaved(fs, args); err != nil || len(rest) > 0 {
		if err != nil {
			return usageExit(err)
		}
		return ExitUsage
	}
	keyPath, pubPath := *out+".key", *out+".pub"
	for _, p := range []string{keyPath, pubPath} {
		if _, err := os.Stat(p); err == nil {
			return fail(env, i18n.Errorf("cli.release.exists", p))
		}
	}
	password, err := releasePassword(env, true)
	if err != nil {
		return fail(env, err)
	}
	pub, priv, err := selfupdate.GenerateKey(password)
	if err != nil {
		return fail(env, err)
	}
	// The key cannot be made again: it is written whole and synced, and
	// never over a key that appeared since the check above.
	for _, f := range []struct {
		path string
		data []byte
		perm os.FileMode
	}{{keyPath, priv, 0o600}, {pubPath, pub, 0o644}} {
		err := atomicfile.WriteFile(f.path, f.data, f.perm, atomicfile.NoReplace())
		if errors.Is(err, os.ErrExist) {
			return fail(env, i18n.Errorf("cli.release.exists", f.path))
		}
		if err != nil {
			return fail(env, i18n.Wrap(err, "cli.release.write", f.path, err))
		}
	}
	if password == "" {
		fmt.Fprintln(env.Stderr, i18n.T("cli.release.unencrypted", keyPath, releasePasswordEnv))
	}
	lines := strings.Split(strings.TrimSpace(string(pub)), "\n")
	fmt.Fprintln(env.Stdout, i18n.T("cli.release.keys_written", keyPath, pubPath, lines[len(lines)-1]))
	return ExitOK
}

func releaseSign(env *Env, args []string) int {
	fs := newFlagSet(env, "hermes release sign")
	setUsage(fs, "cli.release.usage")
	keyFile := fs.String("key", "", "cli.release.flag.key")
	version := fs.String("version", "", "cli.release.flag.version")
	url := fs.String("url", "", "cli.release.flag.url")
	platform := fs.String("platform", runtime.GOOS+"/"+runtime.GOARCH, "cli.release.flag.platform")
	formName := fs.String("form", string(selfupdate.FormBinary), "cli.release.flag.form")
	channel := fs.String("channel", "", "cli.release.flag.channel")
	notes := fs.String("notes", "", "cli.release.flag.notes")
	notesZH := fs.String("notes-zh", "", "cli.release.flag.notes_zh")
	feedFile := fs.String("feed", "", "cli.release.flag.feed")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) != 1 || *keyFile == "" || *version == "" || *url == "" {
		fmt.Fprintln(env.Stderr, i18n.T("cli.release.usage"))
		return ExitUsage
	}
	form, ok := selfupdate.ParseForm(*formName)
	if !ok {
		fmt.Fprintln(env.Stderr, i18n.T("cli.release.bad_form", *formName))
		return ExitUsage
	}
	keyText, err := os.ReadFile(*keyFile)
	if err != nil {
		return fail(env, i18n.Wrap(err, "cli.release.read", *keyFile, err))
	}
	password := ""
	if minisign.IsEncrypted(keyText) {
		if password, err = releasePassword(env, false); err != nil {
			return fail(env, err)
		}
	}
	key, err := selfupdate.ParsePrivateKey(keyText, password)
	if err != nil {
		return fail(env, i18n.Wrap(err, "cli.release.bad_key", *keyFile, releasePasswordEnv))
	}
	art, err := selfupdate.SignArtefact(rest[0], *version, *platform, form, *url, key)
	if err != nil {
		return fail(env, i18n.Wrap(err, "cli.release.sign_failed", rest[0], err))
	}
	rel := selfupdate.Release{
		Version: *version, Channel: *channel, Published: time.Now().UTC(), Notes: *notes, NotesZH: *notesZH,
		Platforms: map[string]selfupdate.Artefact{},
	}
	rel.Put(*platform, art)
	entry, err := json.MarshalIndent(rel, "", "  ")
	if err != nil {
		return fail(env, fmt.Errorf("encode release: %w", err))
	}
	fmt.Fprintln(env.Stdout, string(entry))
	if *feedFile == "" {
		return ExitOK
	}
	if err := addToFeed(*feedFile, rel, key); err != nil {
		return fail(env, err)
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.release.feed_written", *feedFile, *version, *platform, form))
	return ExitOK
}

// addToFeed adds rel to the signed feed at path (created if missing) and
// writes it back signed, replacing the file in one rename so a web server
// never serves half of it.
func addToFeed(path string, rel selfupdate.Release, key minisign.PrivateKey) error {
	var feed selfupdate.Feed
	doc, err := os.ReadFile(path)
	switch {
	case err == nil:
		if feed, err = selfupdate.OpenFeed(doc, key.Public().(minisign.PublicKey)); err != nil {
			return i18n.Wrap(err, "cli.release.bad_feed", path, err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return i18n.Wrap(err, "cli.release.read", path, err)
	}
	feed.Add(rel)
	feed.Published = time.Now().UTC()
	out, err := selfupdate.SignFeed(feed, key)
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, out, 0o644); err != nil {
		return i18n.Wrap(err, "cli.release.write", path, err)
	}
	return nil
}

// releasePassword reads the key's password from HERMES_RELEASE_PASSWORD, or
// asks on the terminal (twice for a new key); without either it is empty.
func releasePassword(env *Env, confirm bool) (string, error) {
	if p := env.Getenv(releasePasswordEnv); p != "" {
		return p, nil
	}
	fd := int(os.Stdin.Fd())
	if !term.IsTerminal(fd) {
		return "", nil
	}
	fmt.Fprint(env.Stderr, i18n.T("cli.release.password"))
	p, err := term.ReadPassword(fd)
	fmt.Fprintln(env.Stderr)
	if err != nil {
		return "", fmt.Errorf("read password: %w", err)
	}
	if confirm {
		fmt.Fprint(env.Stderr, i18n.T("cli.release.password_again"))
		again, err := term.ReadPassword(fd)
		fmt.Fprintln(env.Stderr)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		if string(again) != string(p) {
			return "", i18n.Errorf("cli.release.password_mismatch")
		}
	}
	return string(p), nil
}
