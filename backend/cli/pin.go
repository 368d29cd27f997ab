package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"hermes/backend/agent"
	"hermes/backend/homelock"
	"hermes/backend/host"
	"hermes/backend/i18n"
)

func init() {
	register(command{"pin", "cli.cmd.pin", cmdPin})
	i18n.Register(pinMessages)
}

func pinMessages() map[string]i18n.Msg {
	return map[string]i18n.Msg{
		"cli.cmd.pin":       {EN: "pin a fact into a live run's context, where it is never folded away", ZH: "把一条事实固定到运行中的上下文里，压缩时不会被折叠"},
		"cli.pin.usage":     {EN: "usage: hermes pin [--home DIR] RUN_ID \"FACT\"", ZH: "用法：hermes pin [--home 目录] RUN_ID \"事实\""},
		"cli.pin.not_owned": {EN: "no Hermes process holds this home, so run %s is not live; pin facts into a run while the window, `hermes serve`, `hermes bot` or `hermes run` runs it, or pass them with --instructions when you resume", ZH: "没有 Hermes 进程持有这个主目录，所以运行 %s 不在进行中；请在窗口、`hermes serve`、`hermes bot` 或 `hermes run` 正在运行它时固定事实，或在恢复时用 --instructions 传入"},
		"cli.pin.sent":      {EN: "pinned; it joins run %s's context at its next safe point", ZH: "已固定；将在运行 %s 的下一个安全点进入上下文"},
	}
}

// cmdPin pins a fact into a run that the process owning the home is
// running: the window's, `hermes serve`'s, the bot's, or a `hermes run`'s.
func cmdPin(ctx context.Context, env *Env, args []string) int {
	fs := newFlagSet(env, "hermes pin")
	setUsage(fs, "cli.pin.usage")
	homeFlag := fs.String("home", "", "cli.flag.home")
	rest, err := parseInterleaved(fs, args)
	if err != nil {
		return usageExit(err)
	}
	if len(rest) < 2 || strings.TrimSpace(strings.Join(rest[1:], " ")) == "" {
		fmt.Fprintln(env.Stderr, i18n.T("cli.pin.usage"))
		return ExitUsage
	}
	home, err := resolveHome(env, *homeFlag)
	if err != nil {
		return fail(env, err)
	}
	id, err := matchRunID(home, rest[0])
	if err != nil {
		return fail(env, err)
	}
	h, err := host.Attach(ctx, home)
	if errors.Is(err, homelock.ErrNotOwner) {
		return fail(env, i18n.Errorf("cli.pin.not_owned", id))
	}
	if err != nil {
		return fail(env, err)
	}
	defer func() { _ = h.Close(context.Background()) }() // ends its streams at once
	if err := h.Runs().Control(id, agent.Control{Kind: agent.ControlPin, Text: strings.Join(rest[1:], " ")}); err != nil {
		return fail(env, err)
	}
	fmt.Fprintln(env.Stdout, i18n.T("cli.pin.sent", id))
	return ExitOK
}
