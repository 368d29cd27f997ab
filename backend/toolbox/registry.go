package toolbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"hermes/backend/i18n"
	"hermes/backend/llm"
)

// Registry holds the tools a run may call. It is safe for concurrent use.
type Registry struct {
	mu     sync.RWMutex
	order  []string
	byName map[string]*entry
}

// entry is a registered tool with its compiled schema.
type entry struct {
	tool Tool
	// compact is the schema as one line of JSON, quoted in call errors.
	compact string

	once   sync.Once
	schema *schema
	err    error
}

// compiled is the tool's schema, parsed on first use for a tool whose
// schema Func built and checked (Register parsed every other).
func (e *entry) compiled() (*schema, error) {
	e.once.Do(func() {
		if e.schema == nil {
			e.schema, e.err = parseSchema(e.tool.Parameters)
		}
	})
	return e.schema, e.err
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*entry{}}
}

// Register adds t. It fails with ErrDuplicateTool when the name is taken and
// with ErrInvalidTool when the name, description, risk, run function or
// parameter schema is unusable.
func (r *Registry) Register(t Tool) error {
	// reason is an error or an i18n.Text, rendered in the reader's language.
	invalid := func(reason any) error {
		return i18n.Wrap(fmt.Errorf("%w: %s: %v", ErrInvalidTool, t.Name, reason), "skills.invalid_tool", t.Name, reason)
	}
	switch {
	case !validName(t.Name):
		return invalid(i18n.TextOf("toolbox.manifest.tool_name"))
	case strings.TrimSpace(t.Description) == "":
		return invalid(i18n.TextOf("toolbox.registry.no_description"))
	case !t.Risk.valid():
		return invalid(i18n.TextOf("toolbox.manifest.risk", t.Risk))
	case t.Run == nil:
		return invalid(i18n.TextOf("toolbox.registry.no_run"))
	case t.Timeout < 0:
		return invalid(i18n.TextOf("toolbox.registry.negative_timeout"))
	}
	e := &entry{}
	// A schema that Func built from a struct was checked there: parsing it
	// waits for the tool's first call, which most tools of a process never
	// get.
	if t.checked == nil || !bytes.Equal(t.Parameters, t.checked) {
		s, err := parseSchema(t.Parameters)
		if err != nil {
			return invalid(err)
		}
		e.schema = s
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, t.Parameters); err != nil {
		return invalid(err)
	}
	t.Parameters = bytes.Clone(compact.Bytes())

	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[t.Name]; dup {
		return i18n.Wrap(fmt.Errorf("%w: %s", ErrDuplicateTool, t.Name), "skills.duplicate_tool", t.Name)
	}
	e.tool, e.compact = t, compact.String()
	r.byName[t.Name] = e
	r.order = append(r.order, t.Name)
	return nil
}

// Get returns the tool registered under name.
func (r *Registry) Get(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.byName[name]
	if !ok {
		return Tool{}, false
	}
	return e.tool, true
}

// Tools returns the registered tools in registration order.
func (r *Registry) Tools() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, len(r.order))
	for i, name := range r.order {
		out[i] = r.byName[name].tool
	}
	return out
}

// Names returns the registered tool names in registration order.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.order...)
}

// Defs describes the tools to the model, in registration order.
func (r *Registry) Defs() []llm.ToolDef {
	tools := r.Tools()
	defs := make([]llm.ToolDef, len(tools))
	for i, t := range tools {
		defs[i] = llm.ToolDef{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
	}
	return defs
}

// Prepared is a call ready to run: its tool and its validated arguments.
type Prepared struct {
	Tool Tool
	// Args is canonical JSON (sorted keys, no spaces) after repair and
	// coercion, so equal calls have equal Args.
	Args json.RawMessage
	// Repaired says the JSON had to be repaired or values coerced.
	Repaired bool
}

// Prepare turns a call as the model wrote it into validated, canonical
// arguments. Malformed JSON is repaired where possible and values are
// coerced to the schema's types; what cannot be fixed is a *CallError whose
// message tells the model what was wrong and quotes the schema, and an
// unknown tool is a *CallError that lists the tools there are.
func (r *Registry) Prepare(name, rawArgs string) (Prepared, error) {
	r.mu.RLock()
	e, ok := r.byName[name]
	names := strings.Join(r.order, ", ")
	r.mu.RUnlock()
	if !ok {
		return Prepared{}, &CallError{Message: fmt.Sprintf(
			"there is no tool named %q; the available tools are: %s. Call one of them by its exact name.", name, names)}
	}
	retry := fmt.Sprintf("Call %s again with arguments that match its parameters schema: %s", name, e.compact)

	text, repaired := strings.TrimSpace(rawArgs), false
	if text == "" {
		text = "{}"
	} else {
		fixed, changed, err := llm.RepairJSON(text)
		if err != nil {
			return Prepared{}, &CallError{Message: fmt.Sprintf(
				"the arguments for %s are not valid JSON and could not be repaired (%v). %s", name, err, retry)}
		}
		text, repaired = fixed, changed
	}
	v, err := decodeJSON([]byte(text))
	if err != nil {
		return Prepared{}, &CallError{Message: fmt.Sprintf(
			"the arguments for %s are not valid JSON (%v). %s", name, err, retry)}
	}
	if v == nil {
		v, repaired = map[string]any{}, true
	}
	s, err := e.compiled()
	if err != nil {
		return Prepared{}, &CallError{Message: fmt.Sprintf("the tool %s cannot be called: its parameter schema is unusable (%v).", name, err)}
	}
	var c coercion
	v = s.coerce(v, "", &c)
	if len(c.problems) > 0 {
		return Prepared{}, &CallError{Message: fmt.Sprintf(
			"invalid arguments for %s: %s. %s", name, strings.Join(c.problems, "; "), retry)}
	}
	args, err := encodeJSON(v)
	if err != nil {
		return Prepared{}, &CallError{Message: fmt.Sprintf(
			"the arguments for %s cannot be encoded (%v). %s", name, err, retry)}
	}
	return Prepared{Tool: e.tool, Args: args, Repaired: repaired || c.repaired}, nil
}
