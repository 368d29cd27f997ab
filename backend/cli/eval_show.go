package cli

import (
	"errors"
	"fmt"
	"slices"
	"text/tabwriter"
	"time"

	"hermes/backend/eval"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/store"
)

// storeWait is how long a command that reads hermes.db waits for the
// process that holds it.
const storeWait = 2 * time.Second

// openHomeStore opens the home's hermes.db, saying what to do when another
// process holds it.
func openHomeStore(home string) (*store.Store, error) {
	st, err := host.OpenStore(home, storeWait)
	if err != nil && errors.Is(err, store.ErrLocked) {
		return nil, i18n.Wrap(err, "cli.eval.store_held")
	}
	return st, err
}

func cmdEvalList(env *Env, args []string) int {
	fs := newFlagSet(env, "hermes eval list")
	home := fs.String("home", "", "cli.flag.home")
	asJSON := fs.Bool("json", false, "cli.eval.flag.json")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) > 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.usage"))
		return ExitUsage
	}
	h, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	st, err := openHomeStore(h)
	if err != nil {
		return fail(env, err)
	}
	defer st.Close()
	evs, err := eval.List(st)
	if err != nil {
		return fail(env, err)
	}
	if *asJSON {
		return writeJSON(env, evs)
	}
	if len(evs) == 0 {
		fmt.Fprintln(env.Stdout, i18n.T("cli.eval.none"))
		return ExitOK
	}
	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, i18n.T("cli.eval.list_header"))
	for _, ev := range evs {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\n", ev.ID, ev.Suite, ev.State,
			ev.Started.Local().Format("2006-01-02 15:04"), ev.Passed, ev.Failed, ev.Ungraded, ev.Errors, ev.Baseline)
	}
	_ = w.Flush() // to the terminal, like every line above
	return ExitOK
}

func cmdEvalShow(env *Env, args []string) int {
	fs := newFlagSet(env, "hermes eval show")
	home := fs.String("home", "", "cli.flag.home")
	asJSON := fs.Bool("json", false, "cli.eval.flag.json")
	baseline := fs.String("baseline", "", "cli.eval.flag.baseline")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) != 1 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.eval.need_id"))
		return ExitUsage
	}
	h, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	st, err := openHomeStore(h)
	if err != nil {
		return fail(env, err)
	}
	defer st.Close()
	ev, err := eval.LoadEval(st, rest[0])
	if err != nil {
		return fail(env, err)
	}
	cells := eval.Cells(ev)
	baseID := *baseline
	if baseID == "" {
		baseID = ev.Baseline
	}
	if baseID != "" {
		base, err := eval.LoadEval(st, baseID)
		if err != nil {
			return fail(env, err)
		}
		eval.Compare(cells, eval.Cells(base))
	}
	if *asJSON {
		return writeJSON(env, evalView{Eval: ev, Cells: cells})
	}
	printEvalTable(env, ev, cells)
	printResults(env, ev)
	return ExitOK
}

// printEvalTable prints the task × variant table of an eval.
func printEvalTable(env *Env, ev *eval.Eval, cells []eval.Cell) {
	fmt.Fprintln(env.Stdout, i18n.T("cli.eval.title", ev.ID, ev.Suite, ev.State))
	k := max(ev.Repeat, 1)
	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	header := i18n.T("cli.eval.table_header", k, k)
	if ev.Baseline != "" || hasDelta(cells) {
		header += "\t" + i18n.T("cli.eval.baseline_header")
	}
	fmt.Fprintln(w, header)
	for _, c := range cells {
		cost := "-"
		if c.Cost != nil {
			cost = fmt.Sprintf("%.4f", *c.Cost)
		}
		line := fmt.Sprintf("%s\t%s\t%d/%d\t%.2f\t%.2f\t%s\t%s\t%d\t%s\t%d\t%d", c.Task, c.Variant, c.Passed, c.Runs,
			c.PassAtK, c.PassHatK, durationText(c.MedianMS), durationText(c.P95MS), c.Tokens, cost, c.Ungraded, c.Errors)
		if c.Delta != "" {
			d := i18n.T("cli.eval.delta." + c.Delta)
			if c.BaselineRuns > 0 {
				d = fmt.Sprintf("%s (%d/%d)", d, c.BaselinePassed, c.BaselineRuns)
			}
			line += "\t" + d
		}
		fmt.Fprintln(w, line)
	}
	_ = w.Flush() // to the terminal, like every line above
}

func hasDelta(cells []eval.Cell) bool {
	for _, c := range cells {
		if c.Delta != "" {
			return true
		}
	}
	return false
}

// printResults lists, run by run, the checks that failed, the judge's
// verdicts (its score and reason, passed or not) and the runs that erred
// or that the judge could not grade, each with its run, to open or fork.
func printResults(env *Env, ev *eval.Eval) {
	for _, r := range ev.Results {
		judged := slices.ContainsFunc(r.Checks, func(c eval.CheckResult) bool { return c.Kind == eval.KindJudge })
		if r.Pass && !judged {
			continue
		}
		fmt.Fprintf(env.Stdout, "\n%s · %s #%d  run %s\n", r.Task, r.Variant, r.Rep+1, r.RunID)
		for _, c := range r.Checks {
			switch {
			case c.Kind == eval.KindJudge && c.Score != nil:
				mark := i18n.T("cli.eval.pass")
				if !c.Pass {
					mark = i18n.T("cli.eval.fail")
				}
				verdict := oneLine(c.Detail) // kept before the result had its parts
				if c.PassAt != nil {
					verdict = i18n.T("cli.eval.judged", *c.Score, *c.PassAt, oneLine(c.Reason))
				}
				fmt.Fprintf(env.Stdout, "  %s %s\n", mark, verdict)
			case !c.Pass && !c.Ungraded:
				fmt.Fprintf(env.Stdout, "  %s %s: %s\n", i18n.T("cli.eval.fail"), c.Kind, oneLine(c.Detail))
			}
		}
		switch {
		case r.Ungraded:
			fmt.Fprintf(env.Stdout, "  %s %s\n", i18n.T("cli.eval.ungraded"), r.ErrorText(i18n.Current()))
		case r.Error != "":
			fmt.Fprintf(env.Stdout, "  %s %s\n", i18n.T("cli.eval.error"), r.ErrorText(i18n.Current()))
		}
	}
}
