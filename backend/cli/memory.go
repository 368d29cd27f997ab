package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/longterm"
)

func init() { register(command{"memory", "cli.cmd.memory", cmdMemory}) }

const defaultMemoryLimit = 50

// cmdMemory lists and edits the long-term memory: list, show, forget, pin.
func cmdMemory(_ context.Context, env *Env, args []string) int {
	sub := "list"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	fs := newFlagSet(env, "hermes memory "+sub)
	setUsage(fs, "cli.memory.usage")
	home := fs.String("home", "", "cli.flag.home")
	asJSON := fs.Bool("json", false, "cli.memory.flag.json")
	limit := fs.Int("limit", defaultMemoryLimit, "cli.memory.flag.limit")
	off := fs.Bool("off", false, "cli.memory.flag.off")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if *limit < 0 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.bad_limit", *limit))
		return ExitUsage
	}
	var ids []uint64
	for _, a := range rest {
		id, err := strconv.ParseUint(a, 10, 64)
		if err != nil || id == 0 {
			fmt.Fprintln(env.Stderr, i18n.T("cli.memory.bad_id", a))
			return ExitUsage
		}
		ids = append(ids, id)
	}
	switch {
	case sub == "list" && len(ids) > 0, sub != "list" && sub != "show" && sub != "forget" && sub != "pin":
		fmt.Fprintln(env.Stderr, i18n.T("cli.memory.usage"))
		return ExitUsage
	case sub != "list" && len(ids) == 0:
		fmt.Fprintln(env.Stderr, i18n.T("cli.memory.need_id", sub))
		return ExitUsage
	}
	h, err := resolveHome(env, *home)
	if err != nil {
		return fail(env, err)
	}
	db, err := host.OpenStore(h, 0)
	if err != nil {
		return fail(env, err)
	}
	defer db.Close()
	mem := longterm.New(db)

	switch sub {
	case "list":
		entries, err := mem.Memories(*limit)
		if err != nil {
			return fail(env, err)
		}
		if *asJSON {
			return writeJSON(env, append([]longterm.Entry{}, entries...))
		}
		if len(entries) == 0 {
			fmt.Fprintln(env.Stdout, i18n.T("cli.memory.empty"))
			return ExitOK
		}
		printMemoryTable(env, entries)
		if total, err := mem.Count(); err == nil && total > len(entries) {
			fmt.Fprintln(env.Stderr, i18n.T("cli.memory.more", len(entries), total))
		}
		return ExitOK
	case "show":
		var entries []longterm.Entry
		for _, id := range ids {
			e, err := mem.Get(id)
			if err != nil {
				return fail(env, memoryError(err, id))
			}
			entries = append(entries, e)
		}
		if *asJSON {
			return writeJSON(env, entries)
		}
		for i, e := range entries {
			if i > 0 {
				fmt.Fprintln(env.Stdout)
			}
			printMemory(env, e)
		}
		return ExitOK
	case "forget":
		for _, id := range ids {
			if err := mem.Forget(id); err != nil {
				return fail(env, memoryError(err, id))
			}
			fmt.Fprintln(env.Stdout, i18n.T("cli.memory.forgotten", id))
		}
		return ExitOK
	default: // pin
		for _, id := range ids {
			if err := mem.Pin(id, !*off, time.Now()); err != nil {
				return fail(env, memoryError(err, id))
			}
			if *off {
				fmt.Fprintln(env.Stdout, i18n.T("cli.memory.unpinned", id))
			} else {
				fmt.Fprintln(env.Stdout, i18n.T("cli.memory.pinned", id))
			}
		}
		return ExitOK
	}
}

func memoryError(err error, id uint64) error {
	if errors.Is(err, longterm.ErrNoMemory) {
		return i18n.Wrap(err, "cli.memory.not_found", id)
	}
	return err
}

func printMemoryTable(env *Env, entries []longterm.Entry) {
	color := ColorFor(env.Stdout, env.Getenv)
	header := []string{i18n.T("cli.memory.col.id"), i18n.T("cli.memory.col.kind"), i18n.T("cli.memory.col.created"),
		i18n.T("cli.memory.col.recalled"), i18n.T("cli.memory.col.text")}
	rows := make([][]string, len(entries))
	for i, e := range entries {
		kind := e.Kind
		if e.Pinned {
			kind += " *"
		}
		text := oneLine(e.Text)
		if e.Namespace != "" {
			text = "[" + e.Namespace + "] " + text
		}
		rows[i] = []string{fmt.Sprint(e.ID), kind, e.Created.Local().Format("2006-01-02"), fmt.Sprint(e.Recalls), text}
	}
	widths := make([]int, len(header)-1)
	for c := range widths {
		widths[c] = width(header[c])
		for _, r := range rows {
			widths[c] = max(widths[c], width(r[c]))
		}
	}
	used := 0
	for _, w := range widths {
		used += w + 2
	}
	room := max(20, cmp.Or(terminalWidth(env.Stdout), defaultWidth)-used)
	line := func(cells []string) string {
		var b strings.Builder
		for c, w := range widths {
			if c == 0 || c == 3 { // numbers align right
				b.WriteString(strings.Repeat(" ", w-width(cells[c])) + cells[c] + "  ")
			} else {
				b.WriteString(padRight(cells[c], w) + "  ")
			}
		}
		b.WriteString(truncate(cells[len(cells)-1], room))
		return b.String()
	}
	fmt.Fprintln(env.Stdout, paint(color, line(header), bold))
	for _, r := range rows {
		fmt.Fprintln(env.Stdout, line(r))
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.memory.hint"))
}

func printMemory(env *Env, e longterm.Entry) {
	field := func(key, value string) {
		fmt.Fprintf(env.Stdout, "%s %s\n", padRight(i18n.T(key)+":", 10), value)
	}
	field("cli.memory.col.id", fmt.Sprint(e.ID))
	field("cli.memory.col.kind", e.Kind)
	field("cli.memory.col.created", e.Created.Local().Format("2006-01-02 15:04"))
	recalled := i18n.T("cli.memory.never")
	if !e.Recalled.IsZero() {
		recalled = i18n.T("cli.memory.recalled_times", e.Recalled.Local().Format("2006-01-02 15:04"), e.Recalls)
	}
	field("cli.memory.col.recalled", recalled)
	if e.RunID != "" {
		field("cli.memory.col.run", e.RunID)
	}
	field("cli.memory.col.source", memorySource(e.Origin()))
	if w := e.LastRecall; w != nil {
		field("cli.memory.col.why", i18n.T("cli.memory.why", w.RunID, memoryReason(w.Why)))
	}
	if e.Pinned {
		field("cli.memory.col.pinned", i18n.T("cli.memory.pinned_note"))
	}
	if e.Namespace != "" {
		field("cli.memory.col.namespace", e.Namespace)
	}
	fmt.Fprintln(env.Stdout)
	fmt.Fprintln(env.Stdout, e.Text)
}

// memorySource says what in its run a memory was taken from.
func memorySource(source string) string {
	switch source {
	case longterm.SourceTask, longterm.SourceInstruction, longterm.SourceStanding, longterm.SourceResult:
		return i18n.T("cli.memory.source." + source)
	case "":
		return i18n.T("cli.memory.source.unknown")
	}
	return source
}

// memoryReason says why a memory was recalled: pinned, a preference, or
// the task's words it matched and how well.
func memoryReason(w longterm.Why) string {
	switch w.Reason {
	case longterm.ReasonPinned, longterm.ReasonPreference:
		return i18n.T("cli.memory.reason." + w.Reason)
	case longterm.ReasonMatch:
		terms := strings.Join(w.Terms, i18n.T("cli.memory.list_sep"))
		if w.Relevance > 0 {
			return i18n.T("cli.memory.reason.relevant", terms, int(math.Round(w.Relevance*100)))
		}
		return i18n.T("cli.memory.reason.match", terms, w.Score)
	}
	return w.Reason
}
