package vault

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"hermes/backend/toolbox"
)

type setPropertyArgs struct {
	Path   string `json:"path" description:"The note: its path from the vault root, its name, or a wikilink such as [[Plan]]."`
	Name   string `json:"name" minLength:"1" description:"The property's name, such as status, due or tags."`
	Value  any    `json:"value,omitempty" description:"The new value: text, a number, true or false (a checkbox), a date as YYYY-MM-DD, a date and time as YYYY-MM-DDTHH:MM:SS, or a list of texts; null for an empty property. A link is text such as \"[[Plan]]\"."`
	Remove bool   `json:"remove,omitempty" description:"Remove the property instead of setting it."`
}

//go:embed set_property.md
var setPropertyMD string

func init() { register(setPropertyTool) }

func setPropertyTool(get opener) toolbox.Tool {
	return toolbox.Func("set_property", setPropertyMD, toolbox.RiskWrite, func(_ context.Context, env toolbox.Env, a setPropertyArgs) (string, error) {
		v, err := get()
		if err != nil {
			return "", err
		}
		pl, err := v.planSetProperty(a)
		if err != nil {
			return "", err
		}
		c, err := v.applyPlan(env, pl)
		if err != nil {
			return "", err
		}
		if len(c.Notes[0].Properties) == 0 {
			return fmt.Sprintf("%s: property %s already had that value; nothing changed", pl.files[0].path, a.Name), nil
		}
		return "edited " + pl.files[0].path + ":" + c.summary() + "\n" + describeProperties(c.Notes[0].Properties), nil
	})
}

func (v *Vault) planSetProperty(a setPropertyArgs) (*plan, error) {
	p, _, err := v.findNote(a.Path)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(a.Name)
	if name == "" || strings.ContainsAny(name, "\n\r") {
		return nil, toolbox.Errorf("give the property a name on one line, such as status")
	}
	types := v.propertyTypes()
	return v.editText("set_property", p, func(raw string, crlf bool) (string, error) {
		return setProperty(raw, name, a.Value, a.Remove, crlf, types)
	})
}

// propertyTypes are the types the vault declares for its properties
// (.obsidian/types.json, which Obsidian writes when a type is chosen), by
// lower-case name.
func (v *Vault) propertyTypes() map[string]string {
	var f struct {
		Types map[string]string `json:"types"`
	}
	if b, err := v.root.ReadFile(".obsidian/types.json"); err == nil {
		_ = json.Unmarshal(b, &f) // a damaged file types nothing
	}
	out := make(map[string]string, len(f.Types))
	for k, t := range f.Types {
		out[strings.ToLower(k)] = t
	}
	return out
}

// showValue writes a property's value for the model: a list as JSON, so
// that its items stay apart.
func showValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "(empty)"
	case string:
		return x
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func describeProperties(pcs []PropertyChange) string {
	var lines []string
	for _, pc := range pcs {
		switch {
		case pc.Added:
			lines = append(lines, fmt.Sprintf("%s: %s (new)", pc.Name, showValue(pc.After)))
		case pc.Removed:
			lines = append(lines, fmt.Sprintf("%s: %s (removed)", pc.Name, showValue(pc.Before)))
		default:
			lines = append(lines, fmt.Sprintf("%s: %s → %s", pc.Name, showValue(pc.Before), showValue(pc.After)))
		}
	}
	return strings.Join(lines, "\n")
}
