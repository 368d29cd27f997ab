package vault

import (
	"path"
	"strings"
)

// Obsidian writes a link as Settings → Files and links say, kept in
// .obsidian/app.json: "New link format" (newLinkFormat: "shortest", the
// default, names a note by its name while no other note has it and else by
// its path from the vault root; "relative" by its path from the linking
// note's folder; "absolute" by its path from the vault root) and "Use
// [[Wikilinks]]" (off when useMarkdownLinks is true: [Plan](Plan.md)
// instead of [[Plan]]). Hermes reads them and never writes them.

// Link formats, as newLinkFormat names them.
const (
	formatShortest = "shortest"
	formatRelative = "relative"
	formatAbsolute = "absolute"
)

// linkSettings is what .obsidian/app.json says of links, with Obsidian's
// defaults.
type linkSettings struct {
	NewLinkFormat    string `json:"newLinkFormat"`
	UseMarkdownLinks bool   `json:"useMarkdownLinks"`
}

func (v *Vault) linkSettings() linkSettings {
	s := linkSettings{}
	v.settings("app.json", &s)
	if s.NewLinkFormat != formatRelative && s.NewLinkFormat != formatAbsolute {
		s.NewLinkFormat = formatShortest
	}
	return s
}

// newLink is the link Obsidian would write to the note at p in the note at
// from ("" for one at the vault root), as the vault's settings ask:
// [[Plan]], [[Projects/Plan]], [Plan](../Projects/Plan.md).
func (v *Vault) newLink(p, from string) string {
	s := v.linkSettings()
	target := p
	switch s.NewLinkFormat {
	case formatRelative:
		target = relativePath(path.Dir(from), p)
	case formatShortest:
		v.rlockAll()
		if len(v.names.byName[strings.ToLower(noteName(p))]) <= 1 {
			target = path.Base(p)
		}
		v.mu.RUnlock()
	}
	if s.UseMarkdownLinks {
		return "[" + noteName(p) + "](" + encodeLink(target, "") + ")"
	}
	return "[[" + strings.TrimSuffix(target, path.Ext(target)) + "]]"
}

// linkAdvice tells the model how to link to the note at p that a tool
// made, in the vault's own form.
func (v *Vault) linkAdvice(p string) string {
	advice := "link to it as " + v.newLink(p, "")
	if v.linkSettings().NewLinkFormat == formatRelative {
		advice += " from a note at the vault root (this vault writes a link's path from the linking note's folder)"
	}
	return advice
}
