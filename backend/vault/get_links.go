package vault

import (
	"context"
	_ "embed"
	"fmt"
	"path"
	"strings"

	"hermes/backend/toolbox"
)

type getLinksArgs struct {
	Path string `json:"path" description:"The note: its path from the vault root, its name, or a wikilink such as [[Plan]]."`
}

//go:embed get_links.md
var getLinksMD string

func init() { register(getLinksTool) }

func getLinksTool(get opener) toolbox.Tool {
	return toolbox.Func("get_links", getLinksMD, toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a getLinksArgs) (string, error) {
		v, err := get()
		if err != nil {
			return "", err
		}
		return v.getLinks(a)
	})
}

// OutLink is a link going out of a note, and where it leads.
type OutLink struct {
	Link
	To       string // the note it resolves to; "" when unresolved
	Resolved bool
}

// OutLinks lists the links of the note at p with what each resolves to.
func (v *Vault) OutLinks(p string) []OutLink {
	v.rlockAll()
	defer v.mu.RUnlock()
	n := v.notes[p]
	if n == nil {
		return nil
	}
	out := make([]OutLink, 0, len(n.Links))
	for _, l := range n.Links {
		to, ok := v.names.resolve(l.Target, p)
		out = append(out, OutLink{Link: l, To: to, Resolved: ok})
	}
	return out
}

func (v *Vault) getLinks(a getLinksArgs) (string, error) {
	p, _, err := v.findNote(a.Path)
	if err != nil {
		return "", err
	}
	links := v.OutLinks(p)
	var from []string
	for _, l := range v.Backlinks(p) {
		from = appendUnique(from, l.From)
	}
	back := len(from)
	if len(links) == 0 {
		return fmt.Sprintf("%s links to no note; %s.", p, plural(back, "note links to it", "notes link to it")), nil
	}
	var b strings.Builder
	unresolved := 0
	for _, l := range links {
		written := l.Target
		if l.Heading != "" {
			written += "#" + l.Heading
		}
		switch {
		case l.Resolved:
			fmt.Fprintf(&b, "\nline %d: [[%s]] → %s", l.Line, written, l.To)
		case attachment(l.Target):
			fmt.Fprintf(&b, "\nline %d: [[%s]] → an attachment (%s file)", l.Line, written, strings.TrimPrefix(path.Ext(l.Target), "."))
		default:
			unresolved++
			fmt.Fprintf(&b, "\nline %d: [[%s]] → unresolved (no note is called %s; create_note would make it)", l.Line, written, l.Target)
		}
	}
	return fmt.Sprintf("%s from %s, %d unresolved; %s:", plural(len(links), "link", "links"), p, unresolved, plural(back, "note links to it", "notes link to it")) + b.String(), nil
}
