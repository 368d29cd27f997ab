package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
)

// names lists dir's entries, so a test sees any temporary file left behind.
func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recordSyncs makes syncDir note the directories it syncs, and still sync
// them.
func recordSyncs(t *testing.T) *[]string {
	t.Helper()
	var synced []string
	orig := syncDir
	syncDir = func(d dir, name string) error {
		synced = append(synced, name)
		return orig(d, name)
	}
	t.Cleanup(func() { syncDir = orig })
	return &synced
}

func TestWriteFile_CreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	synced := recordSyncs(t)
	for _, content := range []string{"first\n", "second, longer\n", ""} {
		if err := WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, path); got != content {
			t.Fatalf("content %q, want %q", got, content)
		}
	}
	if got := names(t, dir); !slices.Equal(got, []string{"config.toml"}) {
		t.Fatalf("directory holds %v, want only the file", got)
	}
	if runtime.GOOS != "windows" && !slices.Equal(*synced, []string{dir, dir, dir}) {
		t.Fatalf("synced directories %v, want %s after each write", *synced, dir)
	}
}

func TestWrite_FailedFillKeepsOldContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "index.bin")
	if err := WriteFile(path, []byte("old whole content"), 0o600); err != nil {
		t.Fatal(err)
	}
	synced := recordSyncs(t)
	cut := errors.New("disk full")
	err := Write(path, 0o600, func(w io.Writer) error {
		if _, err := w.Write([]byte("half of the new")); err != nil {
			return err
		}
		return cut
	})
	if !errors.Is(err, cut) {
		t.Fatalf("error %v, want the fill's error", err)
	}
	if got := readFile(t, path); got != "old whole content" {
		t.Fatalf("content %q after a failed write, want the old one", got)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"index.bin"}) {
		t.Fatalf("directory holds %v after a failed write, want only the file", got)
	}
	if len(*synced) != 0 {
		t.Fatalf("a failed write synced %v", *synced)
	}
}

func TestWrite_FailedFillOfNewFileLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	err := Write(filepath.Join(dir, "new"), 0o600, func(w io.Writer) error {
		_, _ = w.Write([]byte("part")) // the fill fails all the same
		return io.ErrUnexpectedEOF
	})
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("error %v", err)
	}
	if got := names(t, dir); len(got) != 0 {
		t.Fatalf("directory holds %v, want nothing", got)
	}
}

func TestWriteFile_FailedRenameLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "taken")
	// A directory that is not empty cannot be replaced by a file.
	if err := os.MkdirAll(filepath.Join(path, "child"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("x"), 0o600); err == nil {
		t.Fatal("replacing a directory succeeded")
	}
	if got := names(t, dir); !slices.Equal(got, []string{"taken"}) {
		t.Fatalf("directory holds %v, want only the old directory", got)
	}
}

func TestWriteFile_NoReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hermes.lock")
	synced := recordSyncs(t)
	if err := WriteFile(path, []byte("mine"), 0o600, NoReplace()); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, []byte("theirs"), 0o600, NoReplace())
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("error %v, want fs.ErrExist", err)
	}
	if got := readFile(t, path); got != "mine" {
		t.Fatalf("content %q, want the first writer's", got)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"hermes.lock"}) {
		t.Fatalf("directory holds %v, want only the file", got)
	}
	if runtime.GOOS != "windows" && len(*synced) != 1 {
		t.Fatalf("synced %v, want the directory once, for the created file", *synced)
	}
}

// NoSync writes the file whole, as NoReplace's link, without syncing its
// directory.
func TestWriteFile_NoSync(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hermes.lock")
	synced := recordSyncs(t)
	if err := WriteFile(path, []byte("mine"), 0o600, NoReplace(), NoSync()); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("theirs"), 0o600, NoReplace(), NoSync()); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("error %v, want fs.ErrExist", err)
	}
	if got := readFile(t, path); got != "mine" {
		t.Fatalf("content %q, want the first writer's", got)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"hermes.lock"}) {
		t.Fatalf("directory holds %v, want only the file", got)
	}
	if len(*synced) != 0 {
		t.Fatalf("synced %v, want nothing", *synced)
	}
}

// noLinks is a file system without hard links, as FAT.
type noLinks struct{ osDir }

func (noLinks) Link(string, string) error { return errors.ErrUnsupported }

func TestNoReplace_WithoutHardLinks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "note.md")
	if err := write(noLinks{}, path, 0o600, writeBytes([]byte("new note")), []Option{NoReplace()}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "new note" {
		t.Fatalf("content %q", got)
	}
	err := write(noLinks{}, path, 0o600, writeBytes([]byte("other")), []Option{NoReplace()})
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("error %v, want fs.ErrExist", err)
	}
	if got := readFile(t, path); got != "new note" {
		t.Fatalf("content %q, want the note kept", got)
	}
	if got := names(t, dir); !slices.Equal(got, []string{"note.md"}) {
		t.Fatalf("directory holds %v", got)
	}
}

func TestWriteFile_KeepMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no permission bits beyond read-only")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "note.md")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new"), 0o644, KeepMode()); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want the replaced file's 0640", st.Mode().Perm())
	}
	fresh := filepath.Join(dir, "fresh.md")
	if err := WriteFile(fresh, []byte("new"), 0o600, KeepMode()); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v of a new file, want perm 0600", st.Mode().Perm())
	}
}

func TestWriteFileIn_StaysInRoot(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "ws"), 0o700); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(filepath.Join(dir, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := root.Mkdir("sub", 0o700); err != nil {
		t.Fatal(err)
	}
	synced := recordSyncs(t)
	if err := WriteFileIn(root, filepath.Join("sub", "a.txt"), []byte("inside"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "ws", "sub", "a.txt")); got != "inside" {
		t.Fatalf("content %q", got)
	}
	if runtime.GOOS != "windows" && !slices.Equal(*synced, []string{"sub"}) {
		t.Fatalf("synced %v, want the file's directory in the root", *synced)
	}
	if err := WriteFileIn(root, filepath.Join("..", "out.txt"), []byte("x"), 0o600); err == nil {
		t.Fatal("a write outside the root succeeded")
	}
	if got := names(t, dir); !slices.Equal(got, []string{"ws"}) {
		t.Fatalf("%s holds %v, want only the root", dir, got)
	}
	if got := names(t, filepath.Join(dir, "ws", "sub")); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("sub holds %v", got)
	}
}

func TestWriteFile_ConcurrentWritersLeaveOneWholeFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "meta.json")
	var wg sync.WaitGroup
	contents := make([][]byte, 8)
	for i := range contents {
		contents[i] = bytes.Repeat([]byte(strconv.Itoa(i)), 4096)
		wg.Go(func() {
			if err := WriteFile(path, contents[i], 0o600); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(contents, func(c []byte) bool { return bytes.Equal(c, got) }) {
		t.Fatalf("the file holds a mix of writes (%d bytes)", len(got))
	}
	if got := names(t, dir); !slices.Equal(got, []string{"meta.json"}) {
		t.Fatalf("directory holds %v", got)
	}
}

func TestRename_ReplacesAndSyncs(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "bin.part"), filepath.Join(dir, "bin")
	for p, s := range map[string]string{from: "new", to: "old"} {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	synced := recordSyncs(t)
	if err := Rename(from, to); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, to); got != "new" {
		t.Fatalf("content %q", got)
	}
	if runtime.GOOS != "windows" && !slices.Equal(*synced, []string{dir}) {
		t.Fatalf("synced %v, want %s", *synced, dir)
	}
}

// tempsOf records the temporary names a write creates.
type tempsOf struct {
	osDir
	created *[]string
}

func (d tempsOf) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	f, err := d.osDir.OpenFile(name, flag, perm)
	if err == nil {
		*d.created = append(*d.created, filepath.Base(name))
	}
	return f, err
}

// Writes reuse a few temporary names rather than leaving the directory one
// new name each (which a watch added on it then walks): one writer takes
// the first name every time; a name held (by a concurrent writer, or left
// by a crash) is passed over, and once all are, a random one is taken.
func TestWrite_ReusesTemporaryNames(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hermes.lock")
	var created []string
	d := tempsOf{created: &created}
	for i := range 50 {
		opts := []Option{NoSync()}
		if i%2 == 0 {
			opts = append(opts, NoReplace())
			_ = os.Remove(path)
		}
		if err := write(d, path, 0o600, writeBytes([]byte("pid "+strconv.Itoa(i))), opts); err != nil {
			t.Fatal(err)
		}
	}
	if distinct := slices.Compact(slices.Clone(created)); len(distinct) != 1 || distinct[0] != ".hermes.lock.hermes-0.tmp" {
		t.Fatalf("50 writes made the temporary names %v, want .hermes.lock.hermes-0.tmp each time", distinct)
	}

	created = created[:0]
	for i := range tempNames {
		if err := os.WriteFile(filepath.Join(dir, ".hermes.lock.hermes-"+strconv.Itoa(i)+".tmp"), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := write(d, path, 0o600, writeBytes([]byte("next")), nil); err != nil {
			t.Fatal(err)
		}
		want := ".hermes.lock.hermes-" + strconv.Itoa(i+1) + ".tmp"
		if i+1 == tempNames {
			if len(created[i]) != len(".hermes.lock.hermes-12345678.tmp") {
				t.Errorf("with every fixed name held, the write took %q, want a random name", created[i])
			}
			continue
		}
		if created[i] != want {
			t.Errorf("with %d names held, the write took %q, want %q", i+1, created[i], want)
		}
	}
	if got := readFile(t, path); got != "next" {
		t.Errorf("content %q", got)
	}
}
