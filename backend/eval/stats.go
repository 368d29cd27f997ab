package eval

import (
	"math"
	"slices"
	"time"
)

// Cell is one task under one variant, over its runs: how many passed, the
// chance that one of k runs passes (pass@k) and that all k pass (pass^k),
// k being the runs asked for (--repeat), and what the runs took.
type Cell struct {
	Task    string `json:"task"`
	Variant string `json:"variant"`
	// Runs counts the runs that ended and were checked; Errors those that
	// could not be (a model call failed) and Ungraded those the judge could
	// not grade, which are in neither count.
	Runs     int `json:"runs"`
	Passed   int `json:"passed"`
	Errors   int `json:"errors"`
	Ungraded int `json:"ungraded"`
	K        int `json:"k"`
	// PassAtK and PassHatK are estimated from the runs (unbiased, as for
	// code generation benchmarks: 1 - C(n-c,k)/C(n,k) and C(c,k)/C(n,k)).
	PassAtK  float64  `json:"pass_at_k"`
	PassHatK float64  `json:"pass_hat_k"`
	MedianMS int64    `json:"median_ms"`
	P95MS    int64    `json:"p95_ms"`
	Tokens   int      `json:"tokens"`
	Cost     *float64 `json:"cost,omitempty"`
	// Delta compares the cell with the baseline's: "improved",
	// "regressed", "same", or "new" when the baseline had no such cell.
	Delta string `json:"delta,omitempty"`
	// Baseline is the baseline cell's passed and runs, "" without one.
	BaselinePassed int `json:"baseline_passed,omitempty"`
	BaselineRuns   int `json:"baseline_runs,omitempty"`
}

// Deltas a cell may have against its baseline.
const (
	DeltaImproved  = "improved"
	DeltaRegressed = "regressed"
	DeltaSame      = "same"
	DeltaNew       = "new"
)

// Cells folds an eval's results into its table, task by task in the
// suite's order, each variant in the eval's order.
func Cells(ev *Eval) []Cell {
	var out []Cell
	for _, task := range ev.Tasks {
		for _, v := range ev.Variants {
			c := Cell{Task: task, Variant: v.Label(), K: max(ev.Repeat, 1)}
			var times []time.Duration
			var cost float64
			priced := false
			for _, r := range ev.Results {
				if r.Task != task || r.Variant != c.Variant {
					continue
				}
				if r.Ungraded {
					c.Ungraded++
					continue
				}
				if r.Error != "" {
					c.Errors++
					continue
				}
				c.Runs++
				if r.Pass {
					c.Passed++
				}
				times = append(times, time.Duration(r.DurationMS)*time.Millisecond)
				c.Tokens += r.Tokens
				if r.Cost != nil {
					cost += *r.Cost
					priced = true
				}
			}
			if priced {
				c.Cost = &cost
			}
			k := min(c.K, c.Runs)
			if k > 0 {
				c.PassAtK = 1 - choose(c.Runs-c.Passed, k)/choose(c.Runs, k)
				c.PassHatK = choose(c.Passed, k) / choose(c.Runs, k)
			}
			c.MedianMS = quantile(times, 0.5).Milliseconds()
			c.P95MS = quantile(times, 0.95).Milliseconds()
			out = append(out, c)
		}
	}
	return out
}

// Compare marks each cell improved, regressed, same or new against the
// baseline's cells (matched by task and variant; by task alone when both
// evals ran one variant each), and reports whether any regressed: a task
// that passes a smaller share of its runs than in the baseline.
func Compare(cells, base []Cell) (regressed bool) {
	one := len(variantsOf(cells)) == 1 && len(variantsOf(base)) == 1
	for i := range cells {
		c := &cells[i]
		j := slices.IndexFunc(base, func(b Cell) bool {
			return b.Task == c.Task && (b.Variant == c.Variant || one)
		})
		if j < 0 || base[j].Runs == 0 {
			c.Delta = DeltaNew
			continue
		}
		b := base[j]
		c.BaselinePassed, c.BaselineRuns = b.Passed, b.Runs
		// Shares compared without division: c.Passed/c.Runs against b's.
		now, then := c.Passed*b.Runs, b.Passed*c.Runs
		switch {
		case c.Runs == 0:
			c.Delta = DeltaSame
		case now < then:
			c.Delta = DeltaRegressed
			regressed = true
		case now > then:
			c.Delta = DeltaImproved
		default:
			c.Delta = DeltaSame
		}
	}
	return regressed
}

func variantsOf(cells []Cell) map[string]bool {
	m := map[string]bool{}
	for _, c := range cells {
		m[c.Variant] = true
	}
	return m
}

// choose is the binomial coefficient C(n, k) as a float (0 when k > n).
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return math.Round(r*1e9) / 1e9
}

// quantile is the q-quantile of ds, by the nearest rank; 0 for none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}
