// Command vaultgen writes a synthetic Obsidian vault for bench/vault.sh:
// notes in nested folders, mixed Chinese and English prose drawn from
// vocabularies with a Zipf-like spread (a few words everywhere, most words
// rare), front matter with tags and aliases, inline tags and wikilinks. The
// same seed writes the same vault.
//
//	go run ./bench/vaultgen -dir /tmp/vault -notes 10000
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// hanzi are common characters; Chinese words are pairs and triples of them.
const hanzi = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处理府研质信"

var english = strings.Fields(`the of and to in is that for it as with was on be by this are from at or an
have not which but all were they one had their there can been has more will would about if
system data model agent note vault project plan meeting review design search index query
pipeline release budget report team customer product market strategy research paper draft
summary deadline feature bug test deploy server client network memory cache latency token
context window prompt answer question reason decision tool call result error retry timeout
harbor lantern meadow quartz falcon glacier orchard canyon ember willow saffron cobalt
river mountain forest ocean desert island valley bridge tower garden library museum
monday tuesday friday morning evening weekly monthly quarterly annual budget invoice
kubernetes docker postgres redis kafka golang python rust typescript react webpack vite
gradient descent neural network embedding vector transformer attention training inference
alpha beta gamma delta epsilon zeta theta lambda sigma omega kappa iota`)

func main() {
	dir := flag.String("dir", "", "the folder to write the vault into (created)")
	notes := flag.Int("notes", 10000, "how many notes")
	size := flag.Int("size", 5000, "the average size of a note in bytes")
	seed := flag.Uint64("seed", 1, "the random seed")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "usage: vaultgen -dir DIR [-notes N] [-size BYTES] [-seed N]")
		os.Exit(2)
	}
	if err := generate(*dir, *notes, *size, rand.New(rand.NewPCG(*seed, *seed))); err != nil {
		fmt.Fprintln(os.Stderr, "vaultgen:", err)
		os.Exit(1)
	}
}

func generate(dir string, notes, size int, r *rand.Rand) error {
	han := []rune(hanzi)
	chinese := make([]string, 4000)
	for i := range chinese {
		n := 2 + r.IntN(2)
		var b strings.Builder
		for range n {
			b.WriteRune(han[r.IntN(len(han))])
		}
		chinese[i] = b.String()
	}
	// A long tail of made-up English words, so that rare words exist.
	for range 6000 {
		english = append(english, pseudoWord(r))
	}
	zipfEN := rand.NewZipf(r, 1.1, 2, uint64(len(english)-1))
	zipfZH := rand.NewZipf(r, 1.1, 2, uint64(len(chinese)-1))

	folders := []string{""}
	for i := range 20 {
		top := fmt.Sprintf("Area %02d", i)
		folders = append(folders, top)
		for j := range 4 {
			folders = append(folders, fmt.Sprintf("%s/%s %d", top, chinese[i*4+j], j))
		}
	}
	names := make([]string, notes)
	for i := range names {
		names[i] = fmt.Sprintf("%s %s %05d", english[zipfEN.Uint64()%200], chinese[r.IntN(len(chinese))], i)
	}
	for i, name := range names {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntags: [%s, area/%d]\naliases: [%s]\nstatus: %s\n---\n# %s\n\n",
			english[r.IntN(60)], i%20, chinese[r.IntN(len(chinese))], []string{"todo", "doing", "done"}[r.IntN(3)], name)
		target := size/2 + r.IntN(size)
		for b.Len() < target {
			if r.IntN(8) == 0 {
				fmt.Fprintf(&b, "## %s %s\n\n", english[zipfEN.Uint64()], chinese[zipfZH.Uint64()])
			}
			// A paragraph: Chinese or English sentences, a link or a tag now and then.
			for range 3 + r.IntN(4) {
				if r.IntN(2) == 0 {
					for range 6 + r.IntN(14) {
						b.WriteString(english[zipfEN.Uint64()])
						b.WriteByte(' ')
					}
					b.WriteString(". ")
				} else {
					for range 4 + r.IntN(10) {
						b.WriteString(chinese[zipfZH.Uint64()])
					}
					b.WriteString("。")
				}
				switch r.IntN(10) {
				case 0:
					fmt.Fprintf(&b, "[[%s]] ", names[r.IntN(len(names))])
				case 1:
					fmt.Fprintf(&b, "#%s ", english[r.IntN(60)])
				}
			}
			b.WriteString("\n\n")
		}
		p := filepath.Join(dir, filepath.FromSlash(folders[i%len(folders)]), name+".md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	// Obsidian's own folder, which is never indexed.
	if err := os.MkdirAll(filepath.Join(dir, ".obsidian"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ".obsidian", "workspace.json"), []byte(`{"main":{}}`), 0o644)
}

func pseudoWord(r *rand.Rand) string {
	const consonants, vowels = "bcdfghklmnprstvz", "aeiou"
	var b strings.Builder
	for range 2 + r.IntN(3) {
		b.WriteByte(consonants[r.IntN(len(consonants))])
		b.WriteByte(vowels[r.IntN(len(vowels))])
	}
	return b.String()
}
