package search

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

var notes = []Document{
	{ID: "ml.md", Fields: map[string]string{"title": "机器学习笔记", "body": "监督学习和无监督学习。梯度下降是一种优化方法。"},
		Keywords: map[string][]string{"tag": {"ai", "ai/ml"}, "folder": {""}}},
	{ID: "go.md", Fields: map[string]string{"title": "Go concurrency", "body": "Goroutines and channels. A channel carries values between goroutines."},
		Keywords: map[string][]string{"tag": {"code"}, "folder": {""}}},
	{ID: "proj/alpha.md", Fields: map[string]string{"title": "Project Alpha", "body": "Alpha uses Go channels for its pipeline. 项目使用机器学习。"},
		Keywords: map[string][]string{"tag": {"project"}, "folder": {"proj"}}},
	{ID: "proj/beta.md", Fields: map[string]string{"title": "Beta", "body": "Nothing about the others. channel channel channel channel channel."},
		Keywords: map[string][]string{"tag": {"project"}, "folder": {"proj"}}},
	{ID: "cat.md", Fields: map[string]string{"title": "猫", "body": "小猫咪在睡觉"}},
}

func newNotes(t *testing.T) *Index {
	t.Helper()
	ix := New(Options{FieldWeights: map[string]int{"title": 3}})
	for _, d := range notes {
		ix.Put(d)
	}
	return ix
}

func ids(r Result) []string {
	var out []string
	for _, h := range r.Hits {
		out = append(out, h.ID)
	}
	return out
}

func TestIndex_Search(t *testing.T) {
	ix := newNotes(t)
	tests := []struct {
		name  string
		q     Query
		want  []string
		total int
	}{
		{"title outweighs body", Query{Text: "alpha"}, []string{"proj/alpha.md"}, 1},
		{"every term beats one term many times", Query{Text: "channel values"}, []string{"go.md", "proj/beta.md", "proj/alpha.md"}, 3},
		{"plural and singular match", Query{Text: "goroutine"}, []string{"go.md"}, 1},
		{"chinese bigrams", Query{Text: "机器学习"}, []string{"ml.md", "proj/alpha.md"}, 2},
		{"a lone chinese character matches the pairs holding it", Query{Text: "猫"}, []string{"cat.md"}, 1},
		{"case-insensitive", Query{Text: "GOROUTINES"}, []string{"go.md"}, 1},
		{"filter by keyword", Query{Text: "channel", Filters: []Filter{{Key: "folder", Values: []string{"proj"}}}}, []string{"proj/beta.md", "proj/alpha.md"}, 2},
		{"filters combine", Query{Text: "学习", Filters: []Filter{{Key: "tag", Values: []string{"AI/ML"}}, {Key: "folder", Values: []string{""}}}}, []string{"ml.md"}, 1},
		{"no text lists what passes the filters, by id", Query{Filters: []Filter{{Key: "tag", Values: []string{"project"}}}}, []string{"proj/alpha.md", "proj/beta.md"}, 2},
		{"limit keeps the total", Query{Text: "pipeline channel", Limit: 1}, []string{"proj/alpha.md"}, 3},
		{"nothing", Query{Text: "kubernetes"}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ix.Search(tt.q)
			if got := ids(r); !slices.Equal(got, tt.want) || r.Total != tt.total {
				t.Errorf("got %q (total %d), want %q (total %d)", got, r.Total, tt.want, tt.total)
			}
		})
	}
}

func TestIndex_HitCarriesKeywordsAndMatchedTerms(t *testing.T) {
	r := newNotes(t).Search(Query{Text: "alpha pipeline kubernetes"})
	if len(r.Hits) != 1 {
		t.Fatalf("hits = %+v", r.Hits)
	}
	h := r.Hits[0]
	if !slices.Equal(h.Matched, []string{"alpha", "pipeline"}) || !slices.Equal(h.Keywords["tag"], []string{"project"}) || h.Score <= 0 {
		t.Errorf("hit = %+v", h)
	}
}

func TestIndex_PutReplacesAndDeleteRemoves(t *testing.T) {
	ix := newNotes(t)
	ix.Put(Document{ID: "go.md", Fields: map[string]string{"body": "now about rust"}})
	if got := ids(ix.Search(Query{Text: "goroutines"})); len(got) != 0 {
		t.Errorf("the replaced text is still found: %q", got)
	}
	if got := ids(ix.Search(Query{Text: "rust"})); !slices.Equal(got, []string{"go.md"}) {
		t.Errorf("the new text is not found: %q", got)
	}
	if kw, _ := ix.Keywords("go.md"); kw != nil {
		t.Errorf("the replaced keywords remain: %v", kw)
	}
	if !ix.Delete("go.md") || ix.Delete("go.md") || ix.Has("go.md") || ix.Len() != len(notes)-1 {
		t.Errorf("delete: has %v, len %d", ix.Has("go.md"), ix.Len())
	}
	if got := ids(ix.Search(Query{Text: "rust"})); len(got) != 0 {
		t.Errorf("a deleted document is found: %q", got)
	}
}

func TestIndex_CompactsAfterManyReplacements(t *testing.T) {
	ix := New(Options{})
	for i := range 500 {
		ix.Put(Document{ID: fmt.Sprint(i % 100), Fields: map[string]string{"body": fmt.Sprintf("common word%d", i)}})
	}
	if len(ix.docs) > 2*ix.live {
		t.Errorf("%d document slots for %d documents: dead ones were never dropped", len(ix.docs), ix.live)
	}
	r := ix.Search(Query{Text: "word499", Limit: 200})
	if !slices.Equal(ids(r), []string{"99"}) {
		t.Errorf("after compaction: %q", ids(r))
	}
	if r := ix.Search(Query{Text: "common", Limit: 200}); r.Total != 100 {
		t.Errorf("common: %d documents, want 100", r.Total)
	}
}

func TestIndex_SaveAndOpen(t *testing.T) {
	ix := newNotes(t)
	ix.Delete("cat.md")
	dir := t.TempDir()
	if err := ix.Save(dir); err != nil {
		t.Fatal(err)
	}
	back, err := Open(dir, Options{FieldWeights: map[string]int{"title": 3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"go channels", "机器学习", "alpha", "猫", "channel"} {
		want, got := ix.Search(Query{Text: q}), back.Search(Query{Text: q})
		if !slices.Equal(ids(got), ids(want)) || got.Total != want.Total {
			t.Errorf("%q: reopened %q, want %q", q, ids(got), ids(want))
		}
		for i := range got.Hits {
			if got.Hits[i].Score != want.Hits[i].Score {
				t.Errorf("%q: score %v, want %v", q, got.Hits[i].Score, want.Hits[i].Score)
			}
		}
	}
	if kw, ok := back.Keywords("proj/alpha.md"); !ok || !slices.Equal(kw["folder"], []string{"proj"}) {
		t.Errorf("keywords after reopening: %v", kw)
	}
	if back.Len() != len(notes)-1 {
		t.Errorf("len %d", back.Len())
	}
	if back.FileSum() == 0 || back.FileSum() != ix.FileSum() {
		t.Errorf("file sum: opened %x, saved %x", back.FileSum(), ix.FileSum())
	}
}

func TestOpen_MissingOrCorrupt(t *testing.T) {
	if _, err := Open(t.TempDir(), Options{}); !errors.Is(err, ErrNoIndex) {
		t.Errorf("empty directory: %v, want ErrNoIndex", err)
	}
	dir := t.TempDir()
	if err := newNotes(t).Save(dir); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(dir, fileName))
	if err != nil {
		t.Fatal(err)
	}
	// An index of another version, its checksum whole: rebuilt too.
	older := slices.Clone(good[:len(good)-4])
	older[len(magic)]--
	older = binary.LittleEndian.AppendUint32(older, crc32.ChecksumIEEE(older))
	for name, data := range map[string][]byte{
		"flipped byte":  func() []byte { b := slices.Clone(good); b[len(b)/2] ^= 0x40; return b }(),
		"truncated":     good[:len(good)/3],
		"empty":         {},
		"short":         good[:3],
		"older version": older,
	} {
		if err := os.WriteFile(filepath.Join(dir, fileName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(dir, Options{}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}

// TestOpen_PostingsReadOnUse: opening a saved index decodes no term's
// postings; queries and changes read them from the file as needed, and the
// index then answers as one built in memory with the same changes, before
// and after saving it again (compaction included).
func TestOpen_PostingsReadOnUse(t *testing.T) {
	opts := Options{FieldWeights: map[string]int{"title": 3}}
	dir := t.TempDir()
	if err := newNotes(t).Save(dir); err != nil {
		t.Fatal(err)
	}
	back, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.terms) != 0 {
		t.Fatalf("opening decoded %d terms' postings", len(back.terms))
	}
	mem := newNotes(t)
	change := func(ix *Index) {
		ix.Put(Document{ID: "go.md", Fields: map[string]string{"title": "Go", "body": "channels and 机器 pipelines"}})
		ix.Delete("cat.md")
		ix.Put(Document{ID: "new.md", Fields: map[string]string{"body": "alpha 小猫 channel"}})
	}
	change(back)
	change(mem)
	queries := []string{"go channels", "机器学习", "alpha", "猫", "机", "channel", "pipeline", "小猫"}
	// Saving drops replaced documents' postings, which a live index counts
	// in document frequencies until it compacts: after a save only the
	// order is compared.
	same := func(label string, got *Index, scores bool) {
		t.Helper()
		for _, q := range queries {
			want, have := mem.Search(Query{Text: q}), got.Search(Query{Text: q})
			if !slices.Equal(ids(have), ids(want)) || have.Total != want.Total {
				t.Errorf("%s %q: %q, want %q", label, q, ids(have), ids(want))
				continue
			}
			for i := range have.Hits {
				if scores && math.Abs(have.Hits[i].Score-want.Hits[i].Score) > 1e-9 {
					t.Errorf("%s %q: score %v, want %v", label, q, have.Hits[i].Score, want.Hits[i].Score)
				}
			}
		}
	}
	same("changed after opening", back, true)
	if err := back.Save(dir); err != nil {
		t.Fatal(err)
	}
	again, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	same("saved and reopened", again, false)
	// Enough replacements to compact: every term leaves the file.
	for i := range 200 {
		d := Document{ID: fmt.Sprint("n", i%20), Fields: map[string]string{"body": fmt.Sprint("filler ", i)}}
		again.Put(d)
		mem.Put(d)
	}
	if again.base != nil {
		t.Error("compaction kept the file's dictionary, whose document numbers it changed")
	}
	// The file, mapped on Linux, is released once the dictionary is
	// dropped; what the index copied out of it stays.
	runtime.GC()
	runtime.GC()
	same("compacted", again, false)
}
