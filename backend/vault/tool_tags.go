package vault

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"hermes/backend/toolbox"
)

type listTagsArgs struct {
	Prefix string `json:"prefix,omitempty" description:"Only this tag and the tags nested under it, without \"#\" (project lists project, project/alpha, …)."`
	Limit  int    `json:"limit" default:"200" minimum:"1" maximum:"2000" description:"Most tags to return."`
}

func listTagsTool(get opener) toolbox.Tool {
	return toolbox.Func("list_tags",
		"List the tags used in the user's Obsidian vault, from front matter (tags:) and inline #tags in the text "+
			"(not in code). Use it to learn how the user organises notes before searching by tag. Returns one line per "+
			"tag, \"#tag (N notes)\", most used first; a nested tag such as #project/alpha also counts for #project.",
		toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a listTagsArgs) (string, error) {
			v, err := get()
			if err != nil {
				return "", err
			}
			return v.listTags(a), nil
		})
}

func (v *Vault) listTags(a listTagsArgs) string {
	prefix := strings.ToLower(strings.Trim(strings.TrimSpace(a.Prefix), "#/"))
	counts := map[string]int{}
	shown := map[string]string{} // lower case → as first written
	v.rlockAll()
	for _, n := range v.notes {
		seen := map[string]bool{}
		for _, t := range n.Tags {
			parts := strings.Split(t, "/")
			for i := range parts {
				tag := strings.Join(parts[:i+1], "/")
				key := strings.ToLower(tag)
				if seen[key] || prefix != "" && key != prefix && !strings.HasPrefix(key, prefix+"/") {
					continue
				}
				seen[key] = true
				counts[key]++
				if _, ok := shown[key]; !ok {
					shown[key] = tag
				}
			}
		}
	}
	v.mu.RUnlock()
	if len(counts) == 0 {
		if prefix != "" {
			return fmt.Sprintf("No tag #%s in the vault; call list_tags without a prefix to see every tag.", prefix)
		}
		return "The vault uses no tags."
	}
	keys := slices.SortedFunc(maps.Keys(counts), func(x, y string) int {
		return cmp.Or(cmp.Compare(counts[y], counts[x]), cmp.Compare(x, y))
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%s:", plural(len(keys), "tag", "tags"))
	for _, k := range keys[:min(a.Limit, len(keys))] {
		fmt.Fprintf(&b, "\n#%s (%s)", shown[k], plural(counts[k], "note", "notes"))
	}
	if len(keys) > a.Limit {
		fmt.Fprintf(&b, "\n… %s not shown; give a prefix or raise limit.", plural(len(keys)-a.Limit, "more tag", "more tags"))
	}
	return b.String()
}
