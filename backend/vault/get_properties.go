package vault

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"hermes/backend/toolbox"
)

type getPropertiesArgs struct {
	Path string `json:"path" description:"The note: its path from the vault root, its name, or a wikilink such as [[Plan]]."`
}

//go:embed get_properties.md
var getPropertiesMD string

func init() { register(getPropertiesTool) }

func getPropertiesTool(get opener) toolbox.Tool {
	return toolbox.Func("get_properties", getPropertiesMD, toolbox.RiskRead, func(_ context.Context, _ toolbox.Env, a getPropertiesArgs) (string, error) {
		v, err := get()
		if err != nil {
			return "", err
		}
		return v.getProperties(a)
	})
}

func (v *Vault) getProperties(a getPropertiesArgs) (string, error) {
	p, _, err := v.findNote(a.Path)
	if err != nil {
		return "", err
	}
	t, _, err := v.readText(p)
	if err != nil {
		return "", err
	}
	props := noteProperties(t.Text, v.propertyTypes())
	if len(props) == 0 {
		return fmt.Sprintf("%s has no properties (no YAML front matter); set_property adds them.", p), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s of %s:", plural(len(props), "property", "properties"), p)
	for _, pr := range props {
		typ := pr.Type
		if typ == "" {
			typ = "empty"
		}
		fmt.Fprintf(&b, "\n%s (%s): %s", pr.Name, typ, showValue(pr.Value))
	}
	return b.String(), nil
}
