package update

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"aead.dev/minisign"
)

var (
	testPub, testPriv   = mustKey()
	otherPub, otherPriv = mustKey()
	platform            = runtime.GOOS + "/" + runtime.GOARCH
	binDir              string // the tiny binaries, built once per test process
)

func mustKey() (minisign.PublicKey, minisign.PrivateKey) {
	pub, priv, err := minisign.GenerateKey(nil)
	if err != nil {
		panic(err)
	}
	return pub, priv
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tinyhermes-")
	if err != nil {
		panic(err)
	}
	binDir = dir
	RegisterCheckFile(CheckFile{Name: "data.txt"}) // as tinyhermes does
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// build is one variant of tinyhermes: its version and -X settings.
type build struct {
	version   string
	healthy   string
	migration string
}

var (
	oldBuild       = build{"1.0.0", "yes", "ok"}
	newBuild       = build{"1.1.0", "yes", "ok"}
	unhealthyBuild = build{"1.1.0", "no", "ok"}
	failingBuild   = build{"1.1.0", "yes", "fail"}
	crashingBuild  = build{"1.1.0", "yes", "crash"}
	brokenBuild    = build{"1.1.0", "crash", "ok"} // answers version, crashes otherwise
	hangingBuild   = build{"1.1.0", "hang", "ok"}
	stagedOnly     = build{"1.1.0", "staged", "ok"} // passes on the copy, fails once installed
)

var builds sync.Map // build → *builtBinary

type builtBinary struct {
	once sync.Once
	path string
	err  error
}

// binary links the variant b of tinyhermes (compiled packages come from the
// Go build cache) with the test key built in, and returns its path.
func binary(t *testing.T, b build) string {
	t.Helper()
	path, err := ensureBuilt(b)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// buildAll links the variants in parallel, so a test that needs several
// waits for the slowest link only.
func buildAll(t *testing.T, bs ...build) {
	t.Helper()
	errs := make([]error, len(bs))
	var wg sync.WaitGroup
	for i, b := range bs {
		wg.Go(func() { _, errs[i] = ensureBuilt(b) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func ensureBuilt(b build) (string, error) {
	v, _ := builds.LoadOrStore(b, &builtBinary{})
	bb := v.(*builtBinary)
	bb.once.Do(func() {
		name := fmt.Sprintf("tinyhermes-%s-%s-%s", b.version, b.healthy, b.migration)
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		bb.path = filepath.Join(binDir, name)
		ldflags := fmt.Sprintf("-X main.version=%s -X main.healthy=%s -X main.migration=%s -X hermes/backend/update.builtinPublicKey=%s",
			b.version, b.healthy, b.migration, testPub.String())
		cmd := exec.Command(goTool(), "build", "-o", bb.path, "-ldflags", ldflags, "hermes/backend/update/internal/tinyhermes")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			bb.err = fmt.Errorf("build tinyhermes %s: %v\n%s", b.version, err, out)
		}
	})
	return bb.path, bb.err
}

func goTool() string {
	// go test puts the bin folder of its own Go first in PATH.
	return "go"
}

// install copies the old tinyhermes into a fresh directory as the
// installed binary, and makes a home with a data file for the migration.
func install(t *testing.T, b build) (exe, home string) {
	t.Helper()
	dir := t.TempDir()
	exe = filepath.Join(dir, "hermes")
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	if err := copyFileSync(binary(t, b), exe, 0o755); err != nil {
		t.Fatal(err)
	}
	home = filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "data.txt"), "original\n")
	return exe, home
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// versionOf runs `exe version` and returns the version it prints.
func versionOf(t *testing.T, exe string) string {
	t.Helper()
	out, err := exec.Command(exe, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", exe, err)
	}
	return strings.TrimPrefix(strings.TrimSpace(string(out)), "hermes ")
}

// fault is how the artefact server misbehaves.
type fault struct {
	cutFirstAt  int64 // the first response stops after this many bytes
	ignoreRange bool  // always answer 200 with the whole file
	lieLength   int64 // announce this Content-Length instead of the truth
	extra       int   // send this many bytes more than the file, without a length
}

// feedServer serves a signed feed at /feed.json and artefacts under /bin/,
// and records the Range header of every artefact request.
type feedServer struct {
	*httptest.Server
	mu       sync.Mutex
	feed     []byte
	files    map[string][]byte
	fault    fault
	requests []string // Range headers, "" for a whole-file request
	cut      bool
}

func newFeedServer(t *testing.T) *feedServer {
	s := &feedServer{files: map[string][]byte{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /feed.json", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		w.Write(s.feed)
	})
	mux.HandleFunc("GET /bin/{name}", s.serveFile)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *feedServer) serveFile(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	data, ok := s.files[r.PathValue("name")]
	f := s.fault
	s.requests = append(s.requests, r.Header.Get("Range"))
	cutNow := f.cutFirstAt > 0 && !s.cut
	s.cut = s.cut || cutNow
	s.mu.Unlock()
	switch {
	case !ok:
		http.NotFound(w, r)
	case cutNow:
		w.Header().Set("Content-Length", fmt.Sprint(len(data)))
		w.WriteHeader(http.StatusOK)
		w.Write(data[:f.cutFirstAt])
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close() // the client has the first bytes, then the connection ends
		}
	case f.lieLength > 0:
		w.Header().Set("Content-Length", fmt.Sprint(f.lieLength))
		w.WriteHeader(http.StatusOK)
		w.Write(data)
	case f.extra > 0:
		w.WriteHeader(http.StatusOK)
		w.Write(data)
		w.Write(bytes.Repeat([]byte{0}, f.extra))
	case f.ignoreRange:
		w.Write(data)
	default:
		http.ServeContent(w, r, "hermes", time.Time{}, bytes.NewReader(data))
	}
}

func (s *feedServer) setFault(f fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fault, s.cut = f, false
}

func (s *feedServer) rangeRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// publish serves the binary of b as release b.version, signed with key,
// and a feed listing it signed with feedKey; change may alter the entry.
func (s *feedServer) publish(t *testing.T, b build, key, feedKey minisign.PrivateKey, change func(*Artefact)) Artefact {
	t.Helper()
	path := binary(t, b)
	name := fmt.Sprintf("hermes-%s-%s-%s", b.version, b.healthy, b.migration)
	art, err := SignArtefact(path, b.version, platform, FormBinary, "bin/"+name, key)
	if err != nil {
		t.Fatal(err)
	}
	if change != nil {
		change(&art)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	feed := Feed{Published: time.Now().UTC()}
	feed.Add(Release{Version: b.version, Notes: "faster", NotesZH: "更快", Platforms: map[string]Artefact{platform: art}})
	doc, err := SignFeed(feed, feedKey)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files[name], s.feed = data, doc
	return art
}

// newUpdater is an Updater for the installed exe, trusting the test key.
func newUpdater(t *testing.T, exe, home, feedURL, running string) *Updater {
	t.Helper()
	u, err := New(Options{
		Home: home, FeedURL: feedURL, PublicKey: testPub.String(), Version: running, Exe: exe,
		HealthTimeout: 20 * time.Second, RetryDelay: func(int) time.Duration { return 0 },
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// update is what `hermes update` does: recover, check, download, apply.
func update(ctx context.Context, u *Updater) (Release, error) {
	if err := u.Recover(ctx); err != nil {
		return Release{}, err
	}
	rel, newer, err := u.Check(ctx)
	if err != nil || !newer {
		return rel, err
	}
	path, err := u.Download(ctx, rel, nil)
	if err != nil {
		return rel, err
	}
	return rel, u.Apply(ctx, rel, path)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// releaseFile is one artefact of a release to publish: its form, its name
// under /bin/ and its bytes.
type releaseFile struct {
	form Form
	name string
	data []byte
}

// publishFiles serves release version with files, each signed as its form,
// and a feed listing it; it returns the release as the feed lists it.
func (s *feedServer) publishFiles(t *testing.T, version string, files ...releaseFile) Release {
	t.Helper()
	rel := Release{Version: version, Notes: "faster", NotesZH: "更快"}
	dir := t.TempDir()
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, f.data, 0o755); err != nil {
			t.Fatal(err)
		}
		art, err := SignArtefact(path, version, platform, f.form, "bin/"+f.name, testPriv)
		if err != nil {
			t.Fatal(err)
		}
		rel.Put(platform, art)
	}
	feed := Feed{Published: time.Now().UTC()}
	feed.Add(rel)
	doc, err := SignFeed(feed, testPriv)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range files {
		s.files[f.name] = f.data
	}
	s.feed = doc
	return rel
}

func readBinary(t *testing.T, b build) []byte {
	t.Helper()
	data, err := os.ReadFile(binary(t, b))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
