package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hermes/backend/cluster"
	"hermes/backend/config"
	"hermes/backend/i18n"
)

// botClusterStatus prints the replicas of the home's [cluster], the tasks
// each runs, and the queue's depth: read from NATS, without joining.
func botClusterStatus(ctx context.Context, env *Env, cfgPath string, asJSON bool) int {
	cfg, err := config.Load(cfgPath)
	if err != nil {
		return failUsage(env, err)
	}
	cfg = cfg.ResolveEnv(env.Getenv)
	if !cfg.Cluster.Enabled() {
		fmt.Fprintln(env.Stderr, i18n.T("cli.bot.status.off", cfgPath))
		return ExitUsage
	}
	if err := cfg.Validate(); err != nil {
		return failUsage(env, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	st, err := cluster.ReadStatus(ctx, cluster.Options{Config: cfg.Cluster, Name: "hermes bot --cluster-status"})
	if err != nil {
		return fail(env, err)
	}
	if asJSON {
		return writeJSON(env, st)
	}
	printClusterStatus(env, st, time.Now())
	return ExitOK
}

func printClusterStatus(env *Env, st cluster.Status, now time.Time) {
	if len(st.Replicas) == 0 {
		fmt.Fprintln(env.Stdout, i18n.T("cli.bot.status.no_replicas"))
	} else {
		header := []string{
			i18n.T("cli.bot.status.col.replica"), i18n.T("cli.bot.status.col.host"), i18n.T("cli.bot.status.col.pid"),
			i18n.T("cli.bot.status.col.up_since"), i18n.T("cli.bot.status.col.last_seen"), i18n.T("cli.bot.status.col.tasks"),
		}
		rows := [][]string{header}
		for _, r := range st.Replicas {
			var tasks []string
			for _, t := range r.Tasks {
				tasks = append(tasks, i18n.T("cli.bot.status.task", t.User, now.Sub(t.Started).Round(time.Second)))
			}
			running := fmt.Sprint(len(r.Tasks))
			if len(tasks) > 0 {
				running += ": " + strings.Join(tasks, ", ")
			}
			rows = append(rows, []string{
				r.ID, r.Host, fmt.Sprint(r.PID), r.Started.Local().Format("2006-01-02 15:04:05"),
				i18n.T("cli.bot.status.ago", now.Sub(r.LastSeen).Round(time.Second)), running,
			})
		}
		widths := make([]int, len(header)-1)
		for _, row := range rows {
			for c := range widths {
				widths[c] = max(widths[c], width(row[c]))
			}
		}
		for _, row := range rows {
			var b strings.Builder
			for c, w := range widths {
				b.WriteString(padRight(row[c], w) + "  ")
			}
			b.WriteString(row[len(row)-1])
			fmt.Fprintln(env.Stdout, b.String())
		}
	}
	q := st.Queue
	fmt.Fprintln(env.Stdout, i18n.T("cli.bot.status.queue", q.Waiting, q.Running, q.Redelivered))
}
