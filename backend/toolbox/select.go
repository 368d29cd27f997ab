package toolbox

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"hermes/backend/contextmgr"
	"hermes/backend/llm"
)

// Selection is the tools one run is offered. With no more tools than
// Options.SelectAbove it is all of them, less the skills offered only when
// relevant (OfferRelevant) whose words the task does not use; with more,
// only the skills that rank highest for the task. load_skill, or a call of
// a tool left out, adds a skill's tools from the next request on.
type Selection struct {
	c     *Catalog
	runID string
	reg   *Registry
	// skillOf maps a tool to its skill; load_skill belongs to none and is
	// always offered.
	skillOf map[string]string

	mu     sync.Mutex
	active map[string]bool // nil means every skill
	// saved is the estimate of the left-out tools' schemas, counted when
	// the choice changes rather than for every request.
	saved int
}

// Select chooses the tools offered to run runID for task (with the run's
// standing instructions, and the names of tools its conversation called).
// The loop should send Selection.Defs() instead of Registry.Defs() and
// report SavedTokens() in its context budget; Close forgets the run.
func (c *Catalog) Select(runID, task string) *Selection {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &Selection{c: c, runID: runID, reg: c.reg, skillOf: c.toolSkill}
	if len(c.reg.Names()) > c.opts.SelectAbove {
		s.active = rankSkills(task, c.skills, c.reg, c.opts.SelectAbove-1)
	} else {
		s.active = withoutIrrelevant(task, c.skills)
	}
	if s.active != nil {
		s.saved = contextmgr.EstimateTools(s.pick(false))
	}
	c.selections[runID] = s
	return s
}

// withoutIrrelevant is every loaded skill but those offered only when
// relevant that task does not name; nil (every skill) when none is left
// out.
func withoutIrrelevant(task string, skills []Skill) map[string]bool {
	want := terms(task)
	active, left := map[string]bool{}, false
	for _, sk := range skills {
		if sk.Status != StatusLoaded {
			continue
		}
		if sk.Offer == OfferRelevant && !relevant(sk, task, want) {
			left = true
			continue
		}
		active[sk.Name] = true
	}
	if !left {
		return nil
	}
	return active
}

// relevant reports whether task (whose terms are want) names skill sk,
// one of its tools, or one of its keywords: a Latin keyword as whole words
// (a plural s aside, as terms match), any other (Chinese, "[[") anywhere
// in the task.
func relevant(sk Skill, task string, want map[string]bool) bool {
	lower := strings.ToLower(task)
	if slices.ContainsFunc(sk.Tools, func(t string) bool { return strings.Contains(lower, strings.ToLower(t)) }) {
		return true
	}
	for _, k := range append([]string{strings.ReplaceAll(sk.Name, "_", " ")}, sk.Keywords...) {
		kt := terms(k)
		latin := len(kt) > 0 && !strings.ContainsFunc(k, func(r rune) bool {
			return r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == ' ' || r == '-' || r == '_')
		})
		if !latin {
			if strings.Contains(lower, strings.ToLower(strings.TrimSpace(k))) {
				return true
			}
			continue
		}
		all := true
		for w := range kt {
			all = all && want[w]
		}
		if all {
			return true
		}
	}
	return false
}

// Close forgets the selection, once its run has ended.
func (s *Selection) Close() {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	if s.c.selections[s.runID] == s {
		delete(s.c.selections, s.runID)
	}
}

// Registry is the registry the selection draws from: the run's tools.
func (s *Selection) Registry() *Registry { return s.reg }

// Defs describes the offered tools to the model, in registration order.
func (s *Selection) Defs() []llm.ToolDef {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pick(true)
}

// pick is the tools offered, or those left out, in registration order. It
// runs under s.mu, or before the selection is shared.
func (s *Selection) pick(offered bool) []llm.ToolDef {
	all := s.reg.Defs()
	if s.active == nil {
		if offered {
			return all
		}
		return nil
	}
	out := make([]llm.ToolDef, 0, len(all))
	for _, d := range all {
		if skill, ok := s.skillOf[d.Name]; (!ok || s.active[skill]) == offered {
			out = append(out, d)
		}
	}
	return out
}

// Skills names the skills whose tools are offered; nil means all.
func (s *Selection) Skills() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil {
		return nil
	}
	var names []string
	for name := range s.active {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// SavedTokens is the estimate of the schema tokens that the tools left out
// would have cost in every request.
func (s *Selection) SavedTokens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saved
}

// activate offers skill's tools from the next request on. It reports
// whether they were left out until now.
func (s *Selection) activate(skill string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.active == nil || s.active[skill] {
		return false
	}
	s.active[skill] = true
	s.saved = contextmgr.EstimateTools(s.pick(false))
	return true
}

// rankSkills picks the skills whose words the task shares most, best first,
// while their tools fit in limit. A skill's name weighs more than its
// description and its tools' words.
func rankSkills(task string, skills []Skill, reg *Registry, limit int) map[string]bool {
	want := terms(task)
	type scored struct {
		name  string
		score int
		tools int
		order int
	}
	var ranked []scored
	for i, sk := range skills {
		if sk.Status != StatusLoaded || len(sk.Tools) == 0 {
			continue
		}
		named := sk.Offer == OfferRelevant && relevant(sk, task, want)
		if sk.Offer == OfferRelevant && !named {
			continue
		}
		name := terms(strings.ReplaceAll(sk.Name, "_", " "))
		var text strings.Builder
		text.WriteString(sk.Description)
		for _, tn := range sk.Tools {
			t, _ := reg.Get(tn)
			text.WriteString(" " + strings.ReplaceAll(tn, "_", " ") + " " + t.Description)
		}
		body := terms(text.String())
		score := 0
		if named {
			score = 3
		}
		for w := range want {
			switch {
			case name[w]:
				score += 3
			case body[w]:
				score++
			}
		}
		if score > 0 {
			ranked = append(ranked, scored{sk.Name, score, len(sk.Tools), i})
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	active, used := map[string]bool{}, 0
	for _, r := range ranked {
		if used+r.tools > limit {
			continue
		}
		active[r.name] = true
		used += r.tools
	}
	return active
}

var stopWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "this": true, "that": true, "from": true, "into": true,
	"use": true, "when": true, "what": true, "are": true, "its": true, "you": true, "your": true, "all": true,
	"tool": true, "tools": true, "returns": true, "return": true, "give": true, "such": true,
}

// terms are the words of text that can match across a task and a skill:
// lower-case Latin words of three letters or more, with a plural s dropped,
// and pairs of adjacent Han characters, since Chinese has no spaces.
func terms(text string) map[string]bool {
	out := map[string]bool{}
	var word []rune
	var han []rune
	flush := func() {
		if len(word) >= 3 {
			w := strings.TrimSuffix(string(word), "s")
			if !stopWords[w] && !stopWords[string(word)] {
				out[w] = true
			}
		}
		word = word[:0]
		switch {
		case len(han) == 1:
			out[string(han)] = true
		case len(han) > 1:
			for i := 0; i+1 < len(han); i++ {
				out[string(han[i:i+2])] = true
			}
		}
		han = han[:0]
	}
	for _, r := range strings.ToLower(text) {
		switch {
		case unicode.Is(unicode.Han, r):
			if len(word) > 0 {
				flush()
			}
			han = append(han, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if len(han) > 0 {
				flush()
			}
			word = append(word, r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// offeredOnCall makes a call of t, a tool of skill, offer skill's tools to
// the calling run from its next request on: a model may know the tool
// without load_skill (a resumed or forked conversation used it).
func (c *Catalog) offeredOnCall(t Tool, skill string) Tool {
	run := t.Run
	t.Run = func(ctx context.Context, env Env, args json.RawMessage) (string, error) {
		c.mu.RLock()
		sel := c.selections[env.RunID]
		c.mu.RUnlock()
		if sel != nil {
			sel.activate(skill)
		}
		return run(ctx, env, args)
	}
	return t
}
