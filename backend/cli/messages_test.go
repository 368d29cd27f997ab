package cli_test

import (
	"slices"
	"strings"
	"testing"

	"hermes/backend/i18n"
)

// Every package's messages are made only when one is looked up and not
// found, so a key registered twice would panic only in a process that came
// to make both: this looks up a key nobody registers, which makes them all,
// in the test binary that links every package a hermes command does.
func TestMessages_NoKeyRegisteredTwice(t *testing.T) {
	if got := i18n.T("test.no_such_message"); got != "test.no_such_message" {
		t.Fatalf("T = %q", got)
	}
}

// A message's singular takes the arguments of its plural: each renders
// whole with a count of one and of two, and they differ.
func TestMessages_Singulars(t *testing.T) {
	for key, args := range map[string][]any{
		"runner.tools.mcp_tools":    {"notes", 0},
		"cli.print.max_iterations":  {0},
		"cli.print.plan":            {0},
		"cli.print.folded":          {0, "12k", "3k"},
		"cli.print.checkpoint":      {0},
		"cli.skills.check_clean":    {0},
		"cli.eval.cluster_waiting":  {0},
		"cli.config.problems":       {0},
		"cli.run.others_live":       {0},
		"runlog.skipped":            {0, "a.jsonl"},
		"cli.serve.stopping_runs":   {0},
		"cli.memory.recalled_times": {"2026-12-05 10:00", 0},
		"cli.print.attempts":        {0},
		"cli.runs.more_newest":      {0},
		"telemetry.export":          {0, "refused"},
		"llm.rate_limited":          {"http://127.0.0.1:9/v1", "HTTP 429", 0},
		"llm.server":                {"http://127.0.0.1:9/v1", "HTTP 500", 0},
	} {
		count := slices.Index(args, any(0))
		one, two := slices.Clone(args), slices.Clone(args)
		one[count], two[count] = 1, 2
		singular, plural := i18n.In(i18n.EN, key, one...), i18n.In(i18n.EN, key, two...)
		if singular == key || strings.Contains(singular+plural, "%!") || strings.Replace(singular, "1", "2", 1) == plural {
			t.Errorf("%s: %q / %q", key, singular, plural)
		}
	}
}
