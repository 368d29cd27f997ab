package eval

import (
	"math"
	"testing"
	"time"
)

func TestCells_PassAtKAndPassHatK(t *testing.T) {
	for _, tc := range []struct {
		passes            []bool
		repeat            int
		passAt, passHat   float64
		passed, runs, err int
	}{
		{[]bool{true, true, false}, 3, 1, 0, 2, 3, 0},
		{[]bool{true, true, true}, 3, 1, 1, 3, 3, 0},
		{[]bool{false, false, false}, 3, 0, 0, 0, 3, 0},
		// n = 4 runs, c = 2 passed, k = 2: 1 - C(2,2)/C(4,2) = 5/6, C(2,2)/C(4,2) = 1/6.
		{[]bool{true, false, true, false}, 2, 5.0 / 6, 1.0 / 6, 2, 4, 0},
	} {
		ev := &Eval{Tasks: []string{"t"}, Variants: []Variant{{}}, Repeat: tc.repeat}
		for i, p := range tc.passes {
			ev.Results = append(ev.Results, Result{Task: "t", Variant: "default", Rep: i, Pass: p, DurationMS: int64(100 * (i + 1))})
		}
		ev.Results = append(ev.Results, Result{Task: "t", Variant: "default", Rep: 9, Error: "model down"})
		c := Cells(ev)[0]
		if math.Abs(c.PassAtK-tc.passAt) > 1e-9 || math.Abs(c.PassHatK-tc.passHat) > 1e-9 || c.Passed != tc.passed || c.Runs != tc.runs || c.Errors != 1 {
			t.Errorf("%v, k=%d: %+v, want pass@k %.3f pass^k %.3f", tc.passes, tc.repeat, c, tc.passAt, tc.passHat)
		}
	}
}

func TestCompare_Deltas(t *testing.T) {
	base := []Cell{{Task: "a", Variant: "m", Passed: 3, Runs: 3}, {Task: "b", Variant: "m", Passed: 1, Runs: 3}, {Task: "c", Variant: "m", Passed: 2, Runs: 4}}
	now := []Cell{{Task: "a", Variant: "m", Passed: 2, Runs: 3}, {Task: "b", Variant: "m", Passed: 2, Runs: 3}, {Task: "c", Variant: "m", Passed: 1, Runs: 2}, {Task: "d", Variant: "m", Passed: 0, Runs: 1}}
	if !Compare(now, base) {
		t.Error("a regression was not reported")
	}
	want := []string{DeltaRegressed, DeltaImproved, DeltaSame, DeltaNew}
	for i, c := range now {
		if c.Delta != want[i] {
			t.Errorf("%s: %s, want %s", c.Task, c.Delta, want[i])
		}
	}
	same := []Cell{{Task: "a", Variant: "other", Passed: 3, Runs: 3}}
	if Compare(same, base[:1]) || same[0].Delta != DeltaSame {
		t.Errorf("one variant each is compared by task: %+v", same[0])
	}
}

func TestQuantile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 20; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	if q := quantile(ds, 0.5); q != 10*time.Millisecond {
		t.Errorf("median %v", q)
	}
	if q := quantile(ds, 0.95); q != 19*time.Millisecond {
		t.Errorf("p95 %v", q)
	}
	if q := quantile(nil, 0.5); q != 0 {
		t.Errorf("no runs: %v", q)
	}
}
