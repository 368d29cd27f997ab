package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"hermes/backend/event"
	"hermes/backend/host"
	"hermes/backend/i18n"
	"hermes/backend/store"
	"hermes/backend/toolbox"
)

func init() { register(command{"tools", "cli.cmd.tools", cmdTools}) }

// cmdTools is `hermes tools list|call|rules|revoke`.
func cmdTools(ctx context.Context, env *Env, args []string) int {
	sub := ""
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "list":
		return toolsList(ctx, env, args)
	case "call":
		return toolsCall(ctx, env, args)
	case "rules":
		return toolsRules(env, args)
	case "revoke":
		return toolsRevoke(env, args)
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.tools.usage"))
	return ExitUsage
}

// toolJSON is one tool in `tools list --json`.
type toolJSON struct {
	Name        string          `json:"name"`
	Skill       string          `json:"skill"`
	Risk        string          `json:"risk"`
	Policy      string          `json:"policy"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

func toolsList(ctx context.Context, env *Env, args []string) int {
	var asJSON bool
	kit, _, code := skillsCommand(ctx, env, "hermes tools list", args, &asJSON)
	if kit == nil {
		return code
	}
	defer kit.Close()
	skillOf := map[string]string{}
	ours := map[string]bool{toolbox.LoadSkillTool: true} // a built-in skill's tools
	for _, s := range kit.Catalog.Skills() {
		for _, t := range s.Tools {
			skillOf[t] = s.Name
			ours[t] = s.Source == toolbox.SourceBuiltin
		}
	}
	var out []toolJSON
	for _, t := range kit.Catalog.Registry().Tools() {
		v := kit.Policy.Check(t, json.RawMessage("{}"), toolbox.Env{})
		out = append(out, toolJSON{Name: t.Name, Skill: skillOf[t.Name], Risk: string(t.Risk), Policy: string(v.Action),
			Description: t.Description, Parameters: t.Parameters})
	}
	if asJSON {
		return writeJSON(env, out)
	}
	for _, t := range out {
		fmt.Fprintf(env.Stdout, "%s  %s  %s  %s\n", padRight(t.Name, 20), padRight(t.Risk, 7), padRight(t.Policy, 5), t.Skill)
		fmt.Fprintf(env.Stdout, "    %s\n", toolbox.Summary(t.Name, t.Description, ours[t.Name]))
	}
	return ExitOK
}

// toolsCall calls one tool as a run would: the same validation, the same
// confinement to the workspace, the same policy and approvals.
func toolsCall(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes tools call")
	setUsage(fs, "cli.tools.call_usage")
	home := fs.String("home", "", "cli.flag.home")
	cfgPath := fs.String("config", "", "cli.flag.config")
	workspace := fs.String("workspace", "", "cli.flag.workspace")
	yes := fs.Bool("yes", false, "cli.flag.yes")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) < 1 || len(rest) > 2 {
		fmt.Fprintln(env.Stderr, i18n.T("cli.tools.call_usage"))
		return ExitUsage
	}
	name, raw := rest[0], "{}"
	if len(rest) == 2 {
		raw = rest[1]
	}
	defer collectLate(env)()
	h, cfg, err := loadConfig(env, *home, *cfgPath)
	if err != nil {
		return fail(env, err)
	}
	ws, err := workspaceDir(*workspace, cfg.Agent.Workspace)
	if err != nil {
		return fail(env, err)
	}
	st, err := host.OpenStore(h, 0)
	if err != nil {
		return fail(env, err)
	}
	defer st.Close()
	kit, err := openToolkit(ctx, h, cfg, st)
	if err != nil {
		return fail(env, err)
	}
	defer kit.Close()

	prep, err := kit.Catalog.Registry().Prepare(name, raw)
	if err != nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.tools.invalid", err.Error()))
		return ExitUsage
	}
	callEnv := toolbox.Env{Workspace: ws, Home: h, CallID: "cli"}
	if err := approveCall(env, kit.Policy, prep, callEnv, *yes); err != nil {
		return fail(env, err)
	}
	timeout := prep.Tool.Timeout
	if timeout <= 0 {
		timeout = cfg.Agent.ToolTimeout.Duration
	}
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := prep.Tool.Run(callCtx, callEnv, prep.Args)
	if err != nil {
		if errors.Is(callCtx.Err(), context.DeadlineExceeded) {
			return fail(env, i18n.Errorf("cli.tools.timeout", name, timeout))
		}
		fmt.Fprintln(env.Stderr, i18n.T("cli.tools.failed", name, err.Error()))
		return ExitFailed
	}
	fmt.Fprintln(env.Stdout, out)
	return ExitOK
}

// oneCallMemory is how far a call's heap grows before the collector runs.
const oneCallMemory = 256 << 20

// collectLate holds garbage collection back until the heap reaches
// oneCallMemory, and returns the function that restores the settings: a
// call is a whole process, and collecting while its heap first grows (twice
// as a vault's index opens, each a stop of every thread) costs CPU time and
// frees nothing the call would use again. GOGC or GOMEMLIMIT set by the
// user win.
func collectLate(env *Env) (restore func()) {
	if env.Getenv("GOGC") != "" || env.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	limit := debug.SetMemoryLimit(oneCallMemory)
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// approveCall applies the policy to one call, asking at the terminal when
// it says to ask. A refusal is an error wrapping toolbox.ErrDenied.
func approveCall(env *Env, policy toolbox.Policy, prep toolbox.Prepared, callEnv toolbox.Env, yes bool) error {
	v := policy.Check(prep.Tool, prep.Args, callEnv)
	switch {
	case v.Action == toolbox.Allow:
		return nil
	case v.Action == toolbox.Deny:
		return i18n.Wrap(toolbox.ErrDenied, "cli.tools.denied_policy", prep.Tool.Name, v.Shown())
	case yes && v.Escaping:
		return i18n.Wrap(toolbox.ErrDenied, "cli.approve.yes_escaping", prep.Tool.Name)
	case yes:
		return nil
	case !stdinIsTerminal():
		return i18n.Wrap(toolbox.ErrDenied, "cli.tools.denied_no_terminal", prep.Tool.Name, v.Shown())
	}
	a := newPrompter(os.Stdin, env.Stderr).ask(event.ApprovalRequestedData{
		Name: prep.Tool.Name, Risk: string(prep.Tool.Risk), Arguments: string(prep.Args), Reason: v.Shown(),
		Escaping: v.Escaping, Commands: v.Commands, Risky: v.Risky, Patterns: v.Patterns,
	})
	switch a.decision {
	case event.ApproveDeny:
		return i18n.Wrap(toolbox.ErrDenied, "cli.tools.denied_user", prep.Tool.Name)
	case event.ApproveAlways:
		if err := policy.AllowAlways(prep.Tool, a.pattern); err != nil {
			fmt.Fprintln(env.Stderr, i18n.T("cli.tools.not_remembered", err.Error()))
		}
	}
	return nil
}

func toolsRules(env *Env, args []string) int {
	store, _, code := openRulesStore(env, "hermes tools rules", args, 0)
	if store == nil {
		return code
	}
	defer store.Close()
	rules, err := store.ApprovalRules()
	if err != nil {
		return fail(env, err)
	}
	if len(rules) == 0 {
		fmt.Fprintln(env.Stdout, i18n.T("cli.tools.no_rules"))
		return ExitOK
	}
	for _, r := range rules {
		pattern := r.Pattern
		if pattern == "" {
			pattern = i18n.T("cli.tools.any_arguments")
		}
		fmt.Fprintf(env.Stdout, "%4d  %s  %s  %s\n", r.ID, padRight(r.Tool, 20), r.Created.Local().Format(time.DateTime), pattern)
	}
	return ExitOK
}

func toolsRevoke(env *Env, args []string) int {
	store, rest, code := openRulesStore(env, "hermes tools revoke", args, 1)
	if store == nil {
		return code
	}
	defer store.Close()
	id, err := strconv.ParseUint(rest[0], 10, 64)
	if err != nil {
		fmt.Fprintln(env.Stderr, i18n.T("cli.tools.revoke_usage"))
		return ExitUsage
	}
	found, err := store.RevokeApprovalRule(id)
	if err != nil {
		return fail(env, err)
	}
	if !found {
		fmt.Fprintln(env.Stderr, i18n.T("cli.tools.no_rule", id))
		return ExitFailed
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.tools.revoked", id))
	return ExitOK
}

// openRulesStore parses --home and wants positional arguments, then opens
// hermes.db; the store is nil when the exit code says it failed.
func openRulesStore(env *Env, name string, args []string, wants int) (*store.Store, []string, int) {
	fs := newFlagSet(env, name)
	home := fs.String("home", "", "cli.flag.home")
	positional, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, nil, usageExit(err)
	}
	if len(positional) != wants {
		key := "cli.tools.rules_usage"
		if wants == 1 {
			key = "cli.tools.revoke_usage"
		}
		fmt.Fprintln(env.Stderr, i18n.T(key))
		return nil, nil, ExitUsage
	}
	h, err := resolveHome(env, *home)
	if err != nil {
		return nil, nil, fail(env, err)
	}
	st, err := host.OpenStore(h, 0)
	if err != nil {
		return nil, nil, fail(env, err)
	}
	return st, positional, ExitOK
}
