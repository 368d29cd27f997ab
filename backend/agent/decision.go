package agent

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"hermes/backend/event"
	"hermes/backend/llm"
)

// metaKey is the argument the plan strategy adds to every tool: what the
// decision is for. It is taken out before the call is validated and run.
const metaKey = "_meta"

// metaSchema is _meta in every tool's schema. It stays small, because
// every request repeats it once per tool: what its fields mean is said
// once, in the plan the task message holds (metaProtocol).
var metaSchema = json.RawMessage(`{"type":"object"}`)

// Step statuses a decision declares.
const (
	stepContinue = "continue"
	stepFinished = "finished"
)

// callMeta is what the model says about one call.
type callMeta struct {
	Step       json.RawMessage   `json:"step"`
	StepStatus string            `json:"step_status"`
	ServesGoal string            `json:"serves_goal"`
	Provenance map[string]string `json:"provenance"`
	// Check is the model's verdict on the step its previous decision
	// finished, given once it sees that step's results.
	Check *stepCheck `json:"check,omitempty"`
}

// stepCheck is a step's verdict, given in a decision or by the evaluator.
type stepCheck struct {
	Passed          *bool  `json:"passed"`
	Reason          string `json:"reason"`
	ContradictsPlan bool   `json:"contradicts_plan"`
}

// step reads the step number however the model wrote it (2, "2", "step 2").
func (m callMeta) step() int {
	s := strings.Trim(string(m.Step), `" `)
	s = strings.TrimSpace(strings.TrimPrefix(strings.ToLower(s), "step"))
	n, _ := strconv.Atoi(s)
	return n
}

// decision is a turn's decision as the plan strategy reads it: the step it
// serves, whether the step is finished with it, and how it serves the goal.
type decision struct {
	declared   bool // the model said which step (otherwise the current step is assumed)
	step       int
	status     string
	servesGoal string
}

// metaDef is a tool's schema with _meta added, and the schema it came from.
type metaDef struct {
	src json.RawMessage
	def llm.ToolDef
}

// withMeta adds _meta to the tools' schemas, caching each until its schema
// changes.
func (r *Run) withMeta(defs []llm.ToolDef) []llm.ToolDef {
	if r.metaDefs == nil {
		r.metaDefs = map[string]metaDef{}
	}
	out := make([]llm.ToolDef, len(defs))
	for i, d := range defs {
		m, ok := r.metaDefs[d.Name]
		if !ok || !bytes.Equal(m.src, d.Parameters) {
			m = metaDef{src: d.Parameters, def: d}
			m.def.Parameters = addMetaParam(d.Parameters)
			r.metaDefs[d.Name] = m
		}
		out[i] = m.def
	}
	return out
}

func addMetaParam(params json.RawMessage) json.RawMessage {
	schema := map[string]json.RawMessage{}
	if len(params) > 0 && json.Unmarshal(params, &schema) != nil {
		return params
	}
	props := map[string]json.RawMessage{}
	if raw, ok := schema["properties"]; ok && json.Unmarshal(raw, &props) != nil {
		return params
	}
	if _, taken := props[metaKey]; taken {
		return params
	}
	props[metaKey] = metaSchema
	var required []string
	if raw, ok := schema["required"]; ok {
		_ = json.Unmarshal(raw, &required)
	}
	schema["type"] = json.RawMessage(`"object"`)
	schema["properties"], _ = json.Marshal(props)
	schema["required"], _ = json.Marshal(append(required, metaKey))
	out, err := json.Marshal(schema)
	if err != nil {
		return params
	}
	return out
}

// splitMeta takes _meta out of a call's arguments. It returns the
// arguments to validate, the meta (nil when there is none) and whether the
// arguments had to be repaired to read it.
func splitMeta(args string) (rest string, meta *callMeta, repaired bool) {
	if !strings.Contains(args, metaKey) {
		return args, nil, false
	}
	fixed, repaired, err := llm.RepairJSON(args)
	if err != nil {
		return args, nil, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(fixed), &obj) != nil {
		return args, nil, false
	}
	raw, ok := obj[metaKey]
	if !ok {
		return args, nil, false
	}
	delete(obj, metaKey)
	var m callMeta
	if json.Unmarshal(raw, &m) != nil {
		m = callMeta{}
	}
	m.Provenance = normalProvenance(m.Provenance)
	b, err := json.Marshal(obj)
	if err != nil {
		return args, nil, false
	}
	return string(b), &m, repaired
}

// normalProvenance maps the ways models write a value's origin onto the
// three the events use.
func normalProvenance(p map[string]string) map[string]string {
	if len(p) == 0 {
		return nil
	}
	out := make(map[string]string, len(p))
	for arg, from := range p {
		f := strings.ToLower(strings.TrimSpace(from))
		switch {
		case strings.Contains(f, "infer") || strings.Contains(f, "guess") || strings.Contains(f, "assum") || strings.Contains(f, "own"):
			out[arg] = event.FromInferred
		case strings.Contains(f, "tool") || strings.Contains(f, "result"):
			out[arg] = event.FromTool
		case strings.Contains(f, "user") || strings.Contains(f, "task"):
			out[arg] = event.FromUser
		}
	}
	return out
}

// decide reads the turn's decision from its calls' meta: the first call
// that names a step names it for the turn, and the step is finished when
// any call says so. Without any meta the current step is assumed finished,
// so that it is checked.
func (r *Run) decide(metas []*callMeta) decision {
	d := decision{status: stepFinished}
	if cur := r.st.Plan.current(); cur != nil {
		d.step = cur.ID
	}
	for _, m := range metas {
		if m == nil {
			continue
		}
		if !d.declared {
			d.declared, d.status, d.servesGoal = true, stepContinue, m.ServesGoal
			if n := m.step(); n > 0 {
				d.step = n
			}
		}
		if strings.EqualFold(strings.TrimSpace(m.StepStatus), stepFinished) {
			d.status = stepFinished
		}
	}
	return d
}

// drift says why a decision does not serve the goal, as an i18n key and
// its arguments, or "" when it does: it names a step the plan does not
// have, uses a tool no remaining step uses, or gives a reason that shares
// nothing with the task and the plan. Once every step has passed, checking
// the work again is never drift.
func (r *Run) drift(d decision, calls []*call) (key string, args []any) {
	p := r.st.Plan
	if p.current() == nil {
		return "", nil
	}
	s := p.step(d.step)
	if s == nil {
		return "agent.drift.no_step", []any{d.step}
	}
	for _, c := range calls {
		if !c.valid() || slices.Contains(s.Tools, c.Name) {
			continue
		}
		used := false
		for _, o := range p.Steps {
			used = used || o.Status != event.StepPassed && slices.Contains(o.Tools, c.Name)
		}
		if !used {
			return "agent.drift.tool", []any{c.Name, d.step}
		}
	}
	if d.servesGoal != "" && !r.servesGoal(d.servesGoal) {
		return "agent.drift.reason", []any{d.servesGoal}
	}
	return "", nil
}

// goalWords are the topic words of the task and the plan, kept until
// either changes.
type goalWords struct {
	task, instr string
	plan        *planState
	replans     int
	words       map[string]bool
}

// servesGoal reports whether a decision's reason shares a topic word with
// the task, its instructions or the plan's steps.
func (r *Run) servesGoal(reason string) bool {
	g, p := &r.goal, r.st.Plan
	if g.words == nil || g.task != r.st.Task || g.instr != r.st.Instr || g.plan != p || g.replans != p.Replans {
		*g = goalWords{task: r.st.Task, instr: r.st.Instr, plan: p, replans: p.Replans, words: map[string]bool{}}
		text := []string{r.st.Task, r.st.Instr}
		for _, s := range p.Steps {
			text = append(text, s.Description, s.Acceptance)
		}
		for _, w := range topicWords(strings.Join(text, " ")) {
			g.words[w] = true
		}
	}
	for _, w := range topicWords(reason) {
		if g.words[w] {
			return true
		}
	}
	return false
}

// stopWords carry no topic, so sharing one says nothing.
var stopWords = map[string]bool{
	"this": true, "that": true, "with": true, "from": true, "into": true, "then": true, "them": true, "they": true,
	"there": true, "their": true, "what": true, "which": true, "will": true, "would": true, "should": true,
	"have": true, "need": true, "needs": true, "make": true, "sure": true, "task": true, "step": true, "goal": true,
	"call": true, "tool": true, "file": true, "files": true, "some": true, "more": true, "other": true, "about": true,
}

// topicWords are the words of s that carry a topic: four letters or more
// and not a stop word, cut to their first five letters (so "notes" meets
// "note" and "summarise" meets "summary"), and the pairs of CJK characters.
func topicWords(s string) []string {
	var out []string
	var word []rune
	var prevHan rune
	flush := func() {
		if len(word) >= 4 && !stopWords[string(word)] {
			out = append(out, string(word[:min(len(word), 5)]))
		}
		word = word[:0]
	}
	for _, c := range strings.ToLower(s) {
		switch {
		case unicode.Is(unicode.Han, c):
			flush()
			if prevHan != 0 {
				out = append(out, string([]rune{prevHan, c}))
			}
			prevHan = c
			continue
		case unicode.IsLetter(c) || unicode.IsDigit(c):
			word = append(word, c)
		default:
			flush()
		}
		prevHan = 0
	}
	flush()
	return out
}

// provenanceOf returns a call's provenance for the decided event.
func provenanceOf(m *callMeta) map[string]string {
	if m == nil {
		return nil
	}
	return m.Provenance
}

// argValue is one argument of a call's validated arguments, as text.
func argValue(args json.RawMessage, name string) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil {
		return ""
	}
	raw, ok := obj[name]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
