package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/price"
	"hermes/backend/runapi"
	"hermes/backend/runlog"
	"hermes/backend/store"
)

// ErrAmbiguousRun is returned when a run id prefix matches more than one run.
var ErrAmbiguousRun = errors.New("run id prefix matches several runs")

// runStatuses are the values --status accepts.
var runStatuses = []string{
	event.StatusRunning, event.StatusFinished, event.StatusMaxIterations, event.StatusGuard,
	event.StatusBudget, event.StatusStopped, event.StatusFailed,
}

const defaultRunsLimit = 20

// cmdRuns lists the runs of a home directory; `runs show` prints one.
func cmdRuns(_ context.Context, env *Env, args []string) int {
	if len(args) > 0 && args[0] == "show" {
		return cmdRunsShow(env, args[1:])
	}
	if len(args) > 0 && args[0] == "label" {
		return cmdRunsLabel(env, args[1:])
	}
	fs := newFlagSet(env, "hermes runs")
	setUsage(fs, "cli.runs.usage")
	home := fs.String("home", "", "cli.flag.home")
	asJSON := fs.Bool("json", false, "cli.runs.flag.json")
	status := fs.String("status", "", i18n.T("cli.runs.flag.status", strings.Join(runStatuses, ", ")))
	limit := fs.Int("limit", defaultRunsLimit, "cli.runs.flag.limit")
	label := fs.String("label", "", "cli.runs.flag.label")
	evalID := fs.String("eval", "", "cli.runs.flag.eval")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	switch {
	case len(rest) > 0:
		fmt.Fprintln(env.Stderr, i18n.T("cli.runs.extra_args", strings.Join(rest, " ")))
		return ExitUsage
	case *status != "" && !slices.Contains(runStatuses, *status):
		fmt.Fprintln(env.Stderr, i18n.T("cli.runs.bad_status", *status, strings.Join(runStatuses, ", ")))
		return ExitUsage
	case *label != "" && *label != store.LabelGood && *label != store.LabelBad:
		fmt.Fprintln(env.Stderr, i18n.T("cli.runs.label_usage"))
		return ExitUsage
	case *limit < 0:
		fmt.Fprintln(env.Stderr, i18n.T("cli.bad_limit", *limit))
		return ExitUsage
	}
	h, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	q := runapi.ListQuery{Status: *status, Label: *label, Limit: *limit}
	if *evalID != "" {
		q.Limit = 0 // filtered below, from hermes.db
	}
	runs, more, anyRuns, err := listRuns(h, q)
	if err == nil && *evalID != "" {
		runs, more, err = keepEval(h, runs, *evalID, *limit)
	}
	if errors.Is(err, runlog.ErrUnreadableLog) {
		// The readable runs are still worth listing; say which logs were not.
		fmt.Fprintln(env.Stderr, i18n.T("cli.error", err.Error()))
	} else if err != nil {
		return fail(env, err)
	}
	if *asJSON {
		// A non-nil slice, so no runs print as [] rather than null.
		return writeJSON(env, append([]runlog.Summary{}, runs...))
	}
	switch {
	case !anyRuns:
		fmt.Fprintln(env.Stdout, i18n.T("cli.runs.empty", h))
		return ExitOK
	case len(runs) == 0 && *label == "" && *evalID == "":
		fmt.Fprintln(env.Stdout, i18n.T("cli.runs.none_match_any", *status))
		return ExitOK
	case len(runs) == 0:
		fmt.Fprintln(env.Stdout, i18n.T("cli.runs.none_match", filterFlags(*status, *label, *evalID)))
		return ExitOK
	}
	printRunsTable(env, runs)
	if more {
		fmt.Fprintln(env.Stderr, i18n.T("cli.runs.more_newest", len(runs)))
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.runs.show_hint"))
	return ExitOK
}

// cmdRunsShow prints one run's timeline from its log, through the same
// Printer a live run uses, or its events as JSONL.
func cmdRunsShow(env *Env, args []string) int {
	fs := newFlagSet(env, "hermes runs show")
	setUsage(fs, "cli.runs.usage")
	home := fs.String("home", "", "cli.flag.home")
	asJSON := fs.Bool("json", false, "cli.runs.flag.show_json")
	verbose := fs.Bool("verbose", false, "cli.runs.flag.verbose")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) != 1 || rest[0] == "" {
		fmt.Fprintln(env.Stderr, i18n.T("cli.runs.need_id"))
		return ExitUsage
	}
	h, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	path, err := findRun(h, rest[0])
	if err != nil {
		return fail(env, err)
	}
	events, err := runlog.ReadFile(path)
	if err != nil {
		return fail(env, err)
	}
	if *asJSON {
		jp := NewJSONPrinter(env.Stdout)
		for _, e := range events {
			if err := jp.Write(e); err != nil {
				return fail(env, err)
			}
		}
		return ExitOK
	}
	p := NewPrinter(env.Stdout, PrinterOptions{
		Color:   ColorFor(env.Stdout, env.Getenv),
		Width:   terminalWidth(env.Stdout),
		Verbose: *verbose,
	})
	for _, e := range events {
		p.Print(e)
	}
	p.Flush()
	if len(events) == 0 || events[len(events)-1].Type != event.RunFinished {
		fmt.Fprintln(env.Stderr, i18n.T("cli.runs.unfinished", runIDOf(events, rest[0])))
	}
	return ExitOK
}

// findRun resolves a run id, or a unique prefix of one, to its log.
func findRun(home, id string) (string, error) {
	path, err := runlog.Find(home, id)
	if err == nil || !errors.Is(err, runlog.ErrRunNotFound) {
		return path, err
	}
	matches, listErr := runsWithPrefix(home, id)
	if listErr != nil && !errors.Is(listErr, runlog.ErrUnreadableLog) {
		return "", err
	}
	switch len(matches) {
	case 0:
		return "", err
	case 1:
		return matches[0].Path, nil
	}
	lines := make([]string, len(matches))
	for i, s := range matches {
		lines[i] = fmt.Sprintf("  %s  %-14s %s", s.RunID, s.Status, truncate(oneLine(s.Task), 60))
	}
	return "", i18n.Wrap(ErrAmbiguousRun, "cli.runs.ambiguous", id, len(matches), strings.Join(lines, "\n"))
}

func runIDOf(events []event.Event, fallback string) string {
	if len(events) > 0 && events[0].RunID != "" {
		return events[0].RunID
	}
	return fallback
}

// printRunsTable draws runs as aligned columns; the task takes what width
// is left, measured in display columns so Chinese tasks line up too.
func printRunsTable(env *Env, runs []runlog.Summary) {
	color := ColorFor(env.Stdout, env.Getenv)
	header := []string{
		i18n.T("cli.runs.col.id"), i18n.T("cli.runs.col.started"), i18n.T("cli.runs.col.status"),
		i18n.T("cli.runs.col.iterations"), i18n.T("cli.runs.col.tokens"), i18n.T("cli.runs.col.task"),
	}
	rows := make([][]string, len(runs))
	for i, s := range runs {
		status := s.Status
		if s.Status == event.StatusFinished && !s.Verified {
			status += " (" + i18n.T("cli.runs.unverified") + ")"
		}
		task := oneLine(s.Task)
		if s.Origin != "" {
			task = "[" + s.Origin + "] " + task // a chat user's task in the bot
		}
		rows[i] = []string{
			s.RunID, s.Started.Local().Format("2006-01-02 15:04"), status,
			fmt.Sprint(s.Iterations), humanTokens(s.Tokens), task,
		}
	}
	// The cost column shows when a run of the list has a price; an unpriced
	// one shows "—" in it, never 0.
	priced := slices.ContainsFunc(runs, func(s runlog.Summary) bool { return s.Cost != nil })
	if priced {
		header = slices.Insert(header, 5, i18n.T("cli.runs.col.cost"))
		for i, s := range runs {
			rows[i] = slices.Insert(rows[i], 5, price.Format(s.Cost, s.Currency))
		}
	}
	widths := make([]int, len(header)-1)
	for c := range widths {
		widths[c] = width(header[c])
		for _, r := range rows {
			widths[c] = max(widths[c], width(r[c]))
		}
	}
	const gap = "  "
	used := 0
	for _, w := range widths {
		used += w + len(gap)
	}
	taskRoom := max(20, cmp.Or(terminalWidth(env.Stdout), defaultWidth)-used)
	line := func(cells []string, statusStyle style) string {
		var b strings.Builder
		for c, w := range widths {
			cell := cells[c]
			padded := padRight(cell, w)
			if c == 3 || c == 4 || priced && c == 5 { // numbers align right
				padded = strings.Repeat(" ", w-width(cell)) + cell
			}
			if c == 2 && statusStyle != "" {
				padded = paint(color, cell, statusStyle) + strings.Repeat(" ", w-width(cell))
			}
			b.WriteString(padded + gap)
		}
		b.WriteString(truncate(cells[len(cells)-1], taskRoom))
		return b.String()
	}
	fmt.Fprintln(env.Stdout, paint(color, line(header, ""), bold))
	for i, r := range rows {
		_, _, st := statusLook(runs[i].Status)
		fmt.Fprintln(env.Stdout, line(r, st))
	}
}

func writeJSON(env *Env, v any) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fail(env, fmt.Errorf("encode runs: %w", err))
	}
	fmt.Fprintln(env.Stdout, string(b))
	return ExitOK
}

// parseInterleaved parses flags wherever they stand among the positional
// arguments, so `runs show ID --json` works as well as `runs show --json ID`.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// usageExit is the exit code for a flag parse error: -h is not a failure.
func usageExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	return ExitUsage
}
