package vault

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"hermes/backend/toolbox"
)

var update = flag.Bool("update", false, "rewrite testdata/search.golden")

// TestLazy_OpensOnFirstCall: the tools of a prepared vault exist before it
// is opened; no index is read or written until one is called.
func TestLazy_OpensOnFirstCall(t *testing.T) {
	tv := makeVault(t)
	l, err := Prepare(tv.dir, Options{Home: tv.home})
	if err != nil {
		t.Fatal(err)
	}
	reg := toolbox.NewRegistry()
	for _, tool := range l.Tools() {
		if err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	if l.Opened() {
		t.Fatal("preparing the vault opened it")
	}
	if _, err := os.Stat(filepath.Join(tv.home, "index")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("preparing the vault touched the index: %v", err)
	}
	p, err := reg.Prepare("search_notes", `{"query":"wombats"}`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := p.Tool.Run(t.Context(), envNone, p.Args)
	if err != nil || !strings.Contains(out, "bom.md") {
		t.Fatalf("search_notes = %q, %v", out, err)
	}
	if !l.Opened() {
		t.Fatal("the call did not open the vault")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Tool.Run(t.Context(), envNone, p.Args); !errors.Is(err, ErrClosed) {
		t.Fatalf("a call after Close: %v", err)
	}
}

// TestPrepare_ChecksAtOnce: a missing folder or a malformed pattern is
// reported by Prepare, as Open reports it.
func TestPrepare_ChecksAtOnce(t *testing.T) {
	if _, err := Prepare(filepath.Join(t.TempDir(), "nowhere"), Options{Home: t.TempDir()}); !errors.Is(err, ErrNoVault) {
		t.Errorf("missing vault: %v", err)
	}
	if _, err := Prepare(t.TempDir(), Options{Home: t.TempDir(), Exclude: []string{"["}}); err == nil {
		t.Error("a malformed pattern was accepted")
	}
}

// TestIndex_ChangesWhileClosed: notes added, removed, renamed or edited in
// place while no Hermes runs are found by the next open, even when the
// edit left its folder's time as it was.
func TestIndex_ChangesWhileClosed(t *testing.T) {
	tv := makeVault(t)
	tv.open(t, false).Close()
	at := func(p string) string { return filepath.Join(tv.dir, filepath.FromSlash(p)) }
	// The edit keeps the note's size and its folder's time: only the
	// note's own time tells.
	old, err := os.ReadFile(at("Projects/Alpha.md"))
	if err != nil {
		t.Fatal(err)
	}
	folder, err := os.Stat(at("Projects"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(old), "pipeline", "platypus", 1)
	if err := os.WriteFile(at("Projects/Alpha.md"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	later := folder.ModTime().Add(time.Minute)
	if err := os.Chtimes(at("Projects/Alpha.md"), later, later); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(at("Projects"), folder.ModTime(), folder.ModTime()); err != nil {
		t.Fatal(err)
	}
	write(t, at("Inbox/Added.md"), []byte("An added note about narwhals.\n"))
	if err := os.Remove(at("utf16be.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(at("bom.md"), at("中文/Moved.md")); err != nil {
		t.Fatal(err)
	}

	v := tv.open(t, false)
	for _, c := range []struct{ query, want, not string }{
		{"platypus", "Projects/Alpha.md", ""},
		{"narwhals", "Inbox/Added.md", ""},
		{"kangaroos", "No note matches", "utf16be.md"},
		{"wombats", "中文/Moved.md", "bom.md"},
	} {
		out := mustCall(t, v, "search_notes", `{"query":"`+c.query+`"}`)
		if !strings.Contains(out, c.want) || c.not != "" && strings.Contains(out, c.not) {
			t.Errorf("%s: want %q and not %q:\n%s", c.query, c.want, c.not, out)
		}
	}
}

// TestSearch_Golden: search_notes answers a fixed tree of English and
// Chinese notes as it did when the results were recorded, whether the
// index was just built or read back from disk.
func TestSearch_Golden(t *testing.T) {
	tv := makeVault(t)
	queries := []string{
		`{"query":"alpha"}`,
		`{"query":"alpha goals","limit":2}`,
		`{"query":"梯度下降"}`,
		`{"query":"学"}`,
		`{"query":"向量数据库 文章"}`,
		`{"query":"notes"}`,
		`{"tag":"project"}`,
		`{"folder":"Projects","query":"alpha"}`,
		`{"properties":{"status":"done"}}`,
	}
	answer := func(v *Vault) string {
		var b strings.Builder
		for _, q := range queries {
			b.WriteString("## " + q + "\n" + mustCall(t, v, "search_notes", q) + "\n\n")
		}
		return b.String()
	}
	v := tv.open(t, false)
	built := answer(v)
	v.Close()
	reopened := answer(tv.open(t, false))
	golden := filepath.Join("testdata", "search.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(built), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if built != string(want) {
		t.Errorf("built index answers differently from %s:\n%s", golden, built)
	}
	if reopened != built {
		t.Errorf("reopened index answers differently:\n%s", reopened)
	}
}

// TestNotesFile_RoundTrip: what notes.bin keeps of each note is what was
// parsed, and a damaged file is refused (the index is then rebuilt).
func TestNotesFile_RoundTrip(t *testing.T) {
	v := makeVault(t).open(t, false)
	v.rlockAll()
	notes := v.notes
	v.mu.RUnlock()
	var buf bytes.Buffer
	if err := writeNotes(&buf, v.dir, 42, notes); err != nil {
		t.Fatal(err)
	}
	saved, err := readNotes(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if saved.len() != len(notes) || saved.indexSum != 42 {
		t.Fatalf("%d notes back (index sum %d), want %d", saved.len(), saved.indexSum, len(notes))
	}
	for p, note := range notes {
		n, ok := saved.lookup(p)
		if !ok {
			t.Errorf("%s: not found", p)
			continue
		}
		want := *note
		for _, list := range []*[]string{&want.Aliases, &want.Tags} {
			if len(*list) == 0 {
				*list = nil
			}
		}
		if len(want.Front) == 0 {
			want.Front = nil
		}
		if len(want.Links) == 0 {
			want.Links = nil
		}
		if len(want.Headings) == 0 {
			want.Headings = nil
		}
		if !reflect.DeepEqual(*n, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", n.Path, *n, want)
		}
	}
	if _, ok := saved.lookup("Nowhere.md"); ok {
		t.Error("a note that was never saved was found")
	}
	damaged := bytes.Clone(buf.Bytes())
	damaged[len(damaged)/2] ^= 1
	if _, err := readNotes(damaged); err == nil {
		t.Error("a damaged notes file was read")
	}
}

// TestLazy_WatchesOnlyWhenAsked: a vault prepared for a long-lived process
// is watched once a tool opens it, and a note saved meanwhile is found
// without opening it again; one prepared for a one-shot process is not
// watched.
func TestLazy_WatchesOnlyWhenAsked(t *testing.T) {
	tv := makeVault(t)
	oneShot, err := Prepare(tv.dir, Options{Home: tv.home})
	if err != nil {
		t.Fatal(err)
	}
	v, err := oneShot.Vault()
	if err != nil {
		t.Fatal(err)
	}
	if v.watch != nil {
		t.Error("a one-shot process watches the vault")
	}
	oneShot.Close()

	long, err := Prepare(tv.dir, Options{Home: tv.home, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer long.Close()
	v, err = long.Vault()
	if err != nil {
		t.Fatal(err)
	}
	updates, stop := v.Subscribe()
	defer stop()
	write(t, filepath.Join(tv.dir, "Projects", "Gamma.md"), []byte("Gamma tracks the okapi census.\n"))
	for {
		select {
		case <-updates:
		case <-t.Context().Done():
			t.Fatal("the new note was never indexed")
		}
		if out := mustCall(t, v, "search_notes", `{"query":"okapi"}`); strings.Contains(out, "Projects/Gamma.md") {
			return
		}
	}
}

// TestOpen_DecodesNotesOnUse: reopening an unchanged vault decodes no
// note; search_notes decodes only the notes it shows; a tool that looks at
// every note decodes them all, and every tool answers as it did with the
// index just built.
func TestOpen_DecodesNotesOnUse(t *testing.T) {
	tv := makeVault(t)
	calls := [][2]string{
		{"search_notes", `{"query":"alpha goals"}`},
		{"search_notes", `{"tag":"project"}`},
		{"read_note", `{"note":"[[Alpha#Goals]]"}`},
		{"list_notes", `{"depth":3}`},
		{"get_backlinks", `{"note":"Welcome.md"}`},
		{"list_tags", `{}`},
	}
	answers := func(v *Vault) []string {
		var out []string
		for _, c := range calls {
			out = append(out, mustCall(t, v, c[0], c[1]))
		}
		return out
	}
	built := tv.open(t, false)
	want := answers(built)
	built.Close()

	v := tv.open(t, false)
	if v.saved == nil || len(v.notes) != 0 || v.Len() != built.Len() {
		t.Fatalf("reopening decoded the notes: saved %v, %d decoded, len %d", v.saved != nil, len(v.notes), v.Len())
	}
	mustCall(t, v, "search_notes", `{"query":"alpha"}`)
	if v.saved == nil {
		t.Fatal("search_notes decoded every note")
	}
	if got := answers(v); !reflect.DeepEqual(got, want) {
		t.Errorf("reopened:\n%q\nwant\n%q", got, want)
	}
	if v.saved != nil || len(v.notes) != built.Len() {
		t.Errorf("after list_notes and get_backlinks: saved %v, %d decoded", v.saved != nil, len(v.notes))
	}
}

// TestOpen_NotesSavedApartAreRebuilt: a notes.bin that was not saved with
// the index beside it (another vault's, an older one, or an older
// version's) is not trusted: the index is rebuilt.
func TestOpen_NotesSavedApartAreRebuilt(t *testing.T) {
	tv := makeVault(t)
	v := tv.open(t, false)
	notesPath := filepath.Join(v.IndexDir(), notesFile)
	v.Close()
	older, err := os.ReadFile(notesPath)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(tv.dir, "Later.md"), []byte("Written later: lemurs.\n"))
	tv.open(t, false).Close() // the index and notes.bin now hold Later.md
	oldVersion := func() []byte {
		var b bytes.Buffer
		if err := writeNotes(&b, tv.dir, 0, nil); err != nil {
			t.Fatal(err)
		}
		// Version 2, zigzag-encoded, under a checksum that matches.
		data := bytes.Replace(b.Bytes(), []byte(notesMagic+"\x06"), []byte(notesMagic+"\x04"), 1)
		body := data[:len(data)-4]
		return binary.LittleEndian.AppendUint32(body, crc32.ChecksumIEEE(body))
	}()
	for name, data := range map[string][]byte{"saved apart": older, "older version": oldVersion} {
		if err := os.WriteFile(notesPath, data, 0o600); err != nil {
			t.Fatal(err)
		}
		v := tv.open(t, false)
		if v.saved != nil {
			t.Errorf("%s: notes.bin was trusted", name)
		}
		if out := mustCall(t, v, "search_notes", `{"query":"lemurs"}`); !strings.Contains(out, "Later.md") {
			t.Errorf("%s: not rebuilt:\n%s", name, out)
		}
		v.Close()
	}
}
