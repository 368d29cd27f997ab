package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"hermes/backend/eval"
	"hermes/backend/i18n"
	"hermes/backend/runlog"
	"hermes/backend/store"
)

// cmdRunsLabel marks a run good or bad, with a note; "none" takes the
// label away. Labels are kept in hermes.db.
func cmdRunsLabel(env *Env, args []string) int {
	fs := newFlagSet(env, "hermes runs label")
	home := fs.String("home", "", "cli.flag.home")
	note := fs.String("note", "", "cli.runs.flag.note")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) != 2 || !slices.Contains([]string{store.LabelGood, store.LabelBad, "none"}, rest[1]) {
		fmt.Fprintln(env.Stderr, i18n.T("cli.runs.label_usage"))
		return ExitUsage
	}
	h, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	id, err := matchRunID(h, rest[0])
	if err != nil {
		return fail(env, err)
	}
	st, err := openHomeStore(h)
	if err != nil {
		return fail(env, err)
	}
	defer st.Close()
	l := store.Label{Label: rest[1], Note: strings.TrimSpace(*note), Updated: time.Now().UTC()}
	if l.Label == "none" {
		l = store.Label{}
	}
	if err := st.SetLabel(id, l); err != nil {
		return fail(env, err)
	}
	if l.Label == "" {
		fmt.Fprintln(env.Stdout, i18n.T("cli.runs.unlabelled", id))
	} else {
		fmt.Fprintln(env.Stdout, i18n.T("cli.runs.labelled", id, l.Label))
	}
	return ExitOK
}

// filterFlags says which filters a list was asked for, as they were given.
func filterFlags(status, label, evalID string) string {
	var out []string
	for _, f := range [][2]string{{"--status", status}, {"--label", label}, {"--eval", evalID}} {
		if f[1] != "" {
			out = append(out, f[0]+" "+f[1])
		}
	}
	return strings.Join(out, " ")
}

// keepEval keeps the runs started by eval evalID (a prefix matches), from
// the tags in hermes.db; limit (0: all) applies after.
func keepEval(home string, runs []runlog.Summary, evalID string, limit int) ([]runlog.Summary, bool, error) {
	st, err := openHomeStore(home)
	if err != nil {
		return nil, false, err
	}
	defer st.Close()
	tags, err := eval.Tags(st)
	if err != nil {
		return nil, false, err
	}
	var out []runlog.Summary
	for _, s := range runs {
		if strings.HasPrefix(tags[s.RunID].Eval, evalID) {
			out = append(out, s)
		}
	}
	more := limit > 0 && len(out) > limit
	if more {
		out = out[:limit]
	}
	return out, more, nil
}
