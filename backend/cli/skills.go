package cli

import (
	"context"
	"fmt"
	"strings"

	"hermes/backend/i18n"
	"hermes/backend/runner"
	"hermes/backend/toolbox"
)

func init() { register(command{"skills", "cli.cmd.skills", cmdSkills}) }

// cmdSkills is `hermes skills list` and `hermes skills check`.
func cmdSkills(ctx context.Context, env *Env, args []string) int {
	sub := ""
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "list":
		return skillsList(ctx, env, args)
	case "check":
		return skillsCheck(ctx, env, args)
	}
	fmt.Fprintln(env.Stderr, i18n.T("cli.skills.usage"))
	return ExitUsage
}

// skillsCommand parses the flags the skills and tools commands share and
// loads the skills; the toolkit is nil when the exit code says it failed.
func skillsCommand(ctx context.Context, env *Env, name string, args []string, asJSON *bool) (*runner.Toolkit, []string, int) {
	fs := newFlagSet(env, name)
	home := fs.String("home", "", "cli.flag.home")
	cfgPath := fs.String("config", "", "cli.flag.config")
	if asJSON != nil {
		fs.BoolVar(asJSON, "json", false, "cli.skills.flag.json")
	}
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, nil, usageExit(err)
	}
	h, cfg, err := loadConfig(env, *home, *cfgPath)
	if err != nil {
		return nil, nil, fail(env, err)
	}
	kit, err := openToolkit(ctx, h, cfg, nil)
	if err != nil {
		return nil, nil, fail(env, err)
	}
	return kit, rest, ExitOK
}

// skillJSON is one skill in `skills list --json`.
type skillJSON struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Source       string   `json:"source"`
	Runner       string   `json:"runner"`
	Status       string   `json:"status"`
	Problem      string   `json:"problem,omitempty"`
	Tools        []string `json:"tools"`
	Instructions bool     `json:"instructions"`
	// Sandbox is what its processes may do beyond the sandbox.
	Sandbox *toolbox.Asks `json:"sandbox,omitempty"`
}

func skillsList(ctx context.Context, env *Env, args []string) int {
	var asJSON bool
	kit, _, code := skillsCommand(ctx, env, "hermes skills list", args, &asJSON)
	if kit == nil {
		return code
	}
	defer kit.Close()
	list := kit.Catalog.Skills()
	if asJSON {
		out := make([]skillJSON, len(list))
		for i, s := range list {
			out[i] = skillJSON{Name: s.Name, Description: s.Description, Source: s.Source, Runner: s.Runner,
				Status: s.Status, Tools: s.Tools, Instructions: s.Instructions != ""}
			if out[i].Tools == nil {
				out[i].Tools = []string{}
			}
			if s.Problem != nil {
				out[i].Problem = s.Problem.Error()
			}
			if s.Asks.Network || len(s.Asks.Writable) > 0 {
				asks := s.Asks
				out[i].Sandbox = &asks
			}
		}
		return writeJSON(env, out)
	}
	for _, s := range list {
		status := i18n.T("cli.skills.status." + s.Status)
		fmt.Fprintf(env.Stdout, "%s  %s  %s  %s\n", padRight(s.Name, 12), padRight(status, 8), padRight(s.Runner, 8), s.Source)
		if s.Description != "" {
			fmt.Fprintf(env.Stdout, "    %s\n", toolbox.Summary(s.Name, s.Description, s.Source == toolbox.SourceBuiltin))
		}
		if len(s.Tools) > 0 {
			fmt.Fprintf(env.Stdout, "    %s\n", i18n.T("cli.skills.tools", strings.Join(s.Tools, ", ")))
		}
		if s.Instructions != "" {
			fmt.Fprintf(env.Stdout, "    %s\n", i18n.T("cli.skills.has_instructions"))
		}
		if s.Asks.Network {
			fmt.Fprintf(env.Stdout, "    %s\n", i18n.T("cli.skills.asks_network"))
		}
		if len(s.Asks.Writable) > 0 {
			fmt.Fprintf(env.Stdout, "    %s\n", i18n.T("cli.skills.asks_writable", strings.Join(s.Asks.Writable, ", ")))
		}
		if s.Problem != nil {
			fmt.Fprintf(env.Stdout, "    ! %s\n", s.Problem.Error())
		}
	}
	return ExitOK
}

// skillsCheck reports broken skills and descriptions that will mislead a
// model; it exits 1 when it found any, so a script can gate on it.
func skillsCheck(ctx context.Context, env *Env, args []string) int {
	kit, _, code := skillsCommand(ctx, env, "hermes skills check", args, nil)
	if kit == nil {
		return code
	}
	defer kit.Close()
	problems := kit.Catalog.Problems()
	for _, p := range problems {
		fmt.Fprintf(env.Stdout, "! %s\n", p.Error())
	}
	findings := toolbox.CheckTools(kit.Catalog.Registry().Tools())
	for _, f := range findings {
		fmt.Fprintf(env.Stdout, "- %s\n", f.Message())
	}
	if len(problems)+len(findings) > 0 {
		fmt.Fprintln(env.Stdout, i18n.T("cli.skills.check_found", len(problems), len(findings)))
		return ExitFailed
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.skills.check_clean", len(kit.Catalog.Registry().Names())))
	return ExitOK
}
