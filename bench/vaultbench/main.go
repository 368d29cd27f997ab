// Command vaultbench measures the vault index on a vault that vaultgen
// wrote: the time to build the index from nothing and to open it again,
// the latency of search_notes calls (the tool as the model calls it,
// snippets included), the delay from a note changing on disk to its
// being searchable while the index is watched, query_notes by a property
// and by a tag, and rename_note of the most linked note with its links.
// bench/vault.sh runs it.
//
//	go run ./bench/vaultbench -vault /tmp/vault -home /tmp/home
//
// With -serve-model it is instead a model on loopback that answers every
// request at once, for timing a one-iteration `hermes run`; with -paired N
// it times two commands by turns (COMMAND… -- COMMAND…).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hermes/backend/search"
	"hermes/backend/toolbox"
	"hermes/backend/vault"
)

func main() {
	dir := flag.String("vault", "", "the vault")
	home := flag.String("home", "", "a Hermes home for the index (its index/ is rebuilt)")
	queries := flag.Int("queries", 500, "search_notes calls to time")
	model := flag.Bool("serve-model", false, "serve a model on loopback that answers at once (for timing `hermes run`), print its URL, and serve until killed")
	pairs := flag.Int("paired", 0, "time the two commands given after the flags (A… -- B…) this many times each, by turns")
	flag.Parse()
	if *pairs > 0 {
		a, b := splitArgs(flag.Args())
		if err := paired(*pairs, a, b); err != nil {
			fmt.Fprintln(os.Stderr, "vaultbench:", err)
			os.Exit(1)
		}
		return
	}
	if *model {
		if err := serveModel(); err != nil {
			fmt.Fprintln(os.Stderr, "vaultbench:", err)
			os.Exit(1)
		}
		return
	}
	if *dir == "" || *home == "" {
		fmt.Fprintln(os.Stderr, "usage: vaultbench -vault DIR -home DIR [-queries N]")
		os.Exit(2)
	}
	if err := run(*dir, *home, *queries); err != nil {
		fmt.Fprintln(os.Stderr, "vaultbench:", err)
		os.Exit(1)
	}
}

func run(dir, home string, queries int) error {
	if err := os.RemoveAll(filepath.Join(home, "index")); err != nil {
		return err
	}
	start := time.Now()
	v, err := vault.Open(dir, vault.Options{Home: home})
	if err != nil {
		return err
	}
	build := time.Since(start)
	notes := v.Len()
	if err := v.Close(); err != nil {
		return err
	}
	size := dirSize(filepath.Join(home, "index"))

	start = time.Now()
	v, err = vault.Open(dir, vault.Options{Home: home, Watch: true})
	if err != nil {
		return err
	}
	defer v.Close()
	reopen := time.Since(start)
	fmt.Printf("notes indexed                 %d\n", notes)
	fmt.Printf("index build, from nothing     %s\n", ms(build))
	fmt.Printf("index open, already built     %s (%.1f MB on disk)\n", ms(reopen), float64(size)/1e6)

	tool := toolNamed(vault.Tools(v), "search_notes")
	words := vocabulary(v, dir)
	r := rand.New(rand.NewPCG(7, 7))
	var took []time.Duration
	for range queries {
		q := make([]string, 1+r.IntN(3))
		for i := range q {
			q[i] = words[r.IntN(len(words))]
		}
		args, _ := json.Marshal(map[string]string{"query": strings.Join(q, " ")})
		t0 := time.Now()
		if _, err := tool.Run(context.Background(), toolbox.Env{}, args); err != nil {
			return err
		}
		took = append(took, time.Since(t0))
	}
	slices.Sort(took)
	fmt.Printf("search_notes p50 (%d calls)   %s   (target 10 ms)\n", queries, ms(took[len(took)/2]))
	fmt.Printf("search_notes p95              %s   (target 30 ms)\n", ms(took[len(took)*95/100]))

	var delays []time.Duration
	updates, stop := v.Subscribe()
	defer stop()
	for i := range 5 {
		word := fmt.Sprintf("zyxwordmarker%d", i)
		p := filepath.Join(dir, fmt.Sprintf("bench-change-%d.md", i))
		t0 := time.Now()
		if err := os.WriteFile(p, []byte("A note about "+word+".\n"), 0o644); err != nil {
			return err
		}
		for {
			select {
			case <-updates:
			case <-time.After(10 * time.Second):
				return fmt.Errorf("the change to %s was never indexed", p)
			}
			out, err := tool.Run(context.Background(), toolbox.Env{}, []byte(`{"query":"`+word+`"}`))
			if err == nil && strings.Contains(out, filepath.Base(p)) {
				break
			}
		}
		delays = append(delays, time.Since(t0))
		if err := os.Remove(p); err != nil {
			return err
		}
	}
	slices.Sort(delays)
	fmt.Printf("file change to searchable     %s median, %s worst of 5 (fsnotify + 100 ms settle)\n", ms(delays[2]), ms(delays[4]))
	return edits(v, queries)
}

// vocabulary is query words taken from the notes themselves: names,
// Chinese pairs and English words, common and rare alike.
func vocabulary(v *vault.Vault, dir string) []string {
	var words []string
	// Words are samples: a note that cannot be read gives none.
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || len(words) > 5000 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		terms := search.Tokenize(string(b))
		for i := 0; i < len(terms); i += 97 {
			words = append(words, terms[i])
		}
		return nil
	})
	return words
}

func toolNamed(tools []toolbox.Tool, name string) toolbox.Tool {
	for _, t := range tools {
		if t.Name == name {
			return t
		}
	}
	panic("no tool " + name)
}

func dirSize(dir string) int64 {
	var n int64
	// What cannot be read counts nothing.
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
