package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"
)

// paired times two commands as whole processes, n times each, by turns
// (A B, then B A, so neither always meets the other's after-effects), and
// prints for each its median wall time with the 25th and 75th percentiles
// and its median CPU time (user + system), then both ratios. The CPU
// time hardly moves with the machine's load; the wall time does.
func paired(n int, a, b []string) error {
	var wall, cpu [2][]time.Duration
	cmds := [2][]string{a, b}
	for i := range n {
		order := []int{0, 1}
		if i%2 == 1 {
			order = []int{1, 0}
		}
		for _, k := range order {
			w, c, err := timeOnce(cmds[k])
			if err != nil {
				return err
			}
			wall[k], cpu[k] = append(wall[k], w), append(cpu[k], c)
		}
	}
	for k, name := range []string{"A", "B"} {
		slices.Sort(wall[k])
		slices.Sort(cpu[k])
		fmt.Printf("%s wall %s [%s–%s]  cpu %s\n", name, ms(pct(wall[k], 50)), ms(pct(wall[k], 25)), ms(pct(wall[k], 75)), ms(pct(cpu[k], 50)))
	}
	fmt.Printf("B÷A wall %.2f×  cpu %.2f×\n",
		float64(pct(wall[1], 50))/float64(pct(wall[0], 50)), float64(pct(cpu[1], 50))/float64(pct(cpu[0], 50)))
	return nil
}

func timeOnce(argv []string) (wall, cpu time.Duration, err error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%v: %w", argv, err)
	}
	wall = time.Since(t0)
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// pct is the p-th percentile of sorted.
func pct(sorted []time.Duration, p int) time.Duration { return sorted[(len(sorted)-1)*p/100] }

// splitArgs splits args at "--" into the two commands of -paired.
func splitArgs(args []string) (a, b []string) {
	i := slices.Index(args, "--")
	if i <= 0 || i == len(args)-1 {
		fmt.Fprintln(os.Stderr, "usage: vaultbench -paired N COMMAND… -- COMMAND…")
		os.Exit(2)
	}
	return args[:i], args[i+1:]
}
