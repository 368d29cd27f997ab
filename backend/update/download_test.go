package update

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDownload_ResumesAfterCut(t *testing.T) {
	srv := newFeedServer(t)
	art := srv.publish(t, newBuild, testPriv, testPriv, nil)
	half := art.Size / 2
	srv.setFault(fault{cutFirstAt: half})
	exe, home := install(t, oldBuild)
	u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")

	rel, newer, err := u.Check(t.Context())
	if err != nil || !newer || rel.Version != "1.1.0" {
		t.Fatalf("check: %v %v %v", rel.Version, newer, err)
	}
	var seen []int64
	path, err := u.Download(t.Context(), rel, func(p Progress) { seen = append(seen, p.Done) })
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "bytes=" + itoa(half) + "-"}
	if got := srv.rangeRequests(); !slices.Equal(got, want) {
		t.Fatalf("requests %q, want the whole file then the rest from byte %d: %q", got, half, want)
	}
	if !slices.IsSorted(seen) || seen[len(seen)-1] != art.Size {
		t.Fatalf("progress %v does not climb to %d", seen, art.Size)
	}
	if err := verifyFile(path, art, "1.1.0", platform, testPub); err != nil {
		t.Fatalf("resumed file does not verify: %v", err)
	}
	if exists(path + ".part") {
		t.Fatal("the partial file is left beside the finished one")
	}
}

func TestDownload_ServerIgnoresRangeStartsOver(t *testing.T) {
	srv := newFeedServer(t)
	art := srv.publish(t, newBuild, testPriv, testPriv, nil)
	exe, home := install(t, oldBuild)
	u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
	rel, _, err := u.Check(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	leaveHalf(t, u, rel) // as a first attempt that was cut leaves it
	srv.setFault(fault{ignoreRange: true})

	path, err := u.Download(t.Context(), rel, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := srv.rangeRequests()
	if last := got[len(got)-1]; !strings.HasPrefix(last, "bytes=") {
		t.Fatalf("the resumed attempt did not ask for a range: %q", got)
	}
	if err := verifyFile(path, art, "1.1.0", platform, testPub); err != nil {
		t.Fatalf("file does not verify after starting over: %v", err)
	}
}

// leaveHalf makes the state an interrupted download leaves: the record and
// a partial file holding the first half of the artefact.
func leaveHalf(t *testing.T, u *Updater, rel Release) string {
	t.Helper()
	art := rel.Platforms[platform]
	data, err := os.ReadFile(binary(t, newBuild))
	if err != nil {
		t.Fatal(err)
	}
	dir := u.versionDir(rel.Version)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	final := filepath.Join(dir, u.binaryName())
	if err := writeJSON(final+".json", downloadRecord{rel.Version, platform, art.URL, art.Size, art.SHA256, ""}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, final+".part", string(data[:art.Size/2]))
	return final + ".part"
}

func TestDownload_CorruptLeftoverIsReplaced(t *testing.T) {
	tests := []struct {
		name  string
		leave func(t *testing.T, part string, size int64)
		// want is the Range header of each artefact request
		want []string
	}{
		{"garbage prefix from a crash", func(t *testing.T, part string, size int64) {
			writeFile(t, part, strings.Repeat("\x00", int(size/2)))
		}, []string{"bytes=" + "HALF" + "-", ""}},
		{"longer than the artefact", func(t *testing.T, part string, size int64) {
			writeFile(t, part, strings.Repeat("x", int(size+10)))
		}, []string{""}},
		{"no record beside it", func(t *testing.T, part string, size int64) {
			if err := os.Remove(strings.TrimSuffix(part, ".part") + ".json"); err != nil {
				t.Fatal(err)
			}
		}, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFeedServer(t)
			art := srv.publish(t, newBuild, testPriv, testPriv, nil)
			exe, home := install(t, oldBuild)
			u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")
			rel, _, err := u.Check(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			part := leaveHalf(t, u, rel)
			tt.leave(t, part, art.Size)

			if _, err := update(t.Context(), u); err != nil {
				t.Fatalf("update after a corrupt leftover: %v", err)
			}
			want := slices.Clone(tt.want)
			for i := range want {
				want[i] = strings.Replace(want[i], "HALF", itoa(art.Size/2), 1)
			}
			if got := srv.rangeRequests(); !slices.Equal(got, want) {
				t.Fatalf("requests %q, want %q", got, want)
			}
			if v := versionOf(t, exe); v != "1.1.0" {
				t.Fatalf("installed version %s, want 1.1.0", v)
			}
		})
	}
}

func TestDownload_Refused(t *testing.T) {
	tests := []struct {
		name    string
		fault   fault
		change  func(*Artefact)
		feedKey bool // sign the feed with another key
		sigKey  bool // sign the artefact with another key
		want    error
	}{
		{name: "content length larger than the file", fault: fault{lieLength: 1 << 30}, want: ErrSize},
		{name: "more bytes than the feed says", fault: fault{extra: 4096}, want: ErrSize},
		{name: "feed size smaller than the file", change: func(a *Artefact) { a.Size -= 100 }, want: ErrSize},
		{name: "wrong sha256", change: func(a *Artefact) { a.SHA256 = strings.Repeat("ab", 32) }, want: ErrChecksum},
		{name: "artefact signed with another key", sigKey: true, want: ErrSignature},
		{name: "signature of another version", change: func(a *Artefact) {
			other, err := SignArtefact(binaryForTest, "1.0.9", platform, FormBinary, a.URL, testPriv)
			if err != nil {
				panic(err)
			}
			a.Signature = other.Signature
		}, want: ErrSignature},
		{name: "feed signed with another key", feedKey: true, want: ErrFeedSignature},
	}
	buildAll(t, oldBuild, newBuild)
	binaryForTest = binary(t, newBuild)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newFeedServer(t)
			sigKey, feedKey := testPriv, testPriv
			if tt.sigKey {
				sigKey = otherPriv
			}
			if tt.feedKey {
				feedKey = otherPriv
			}
			srv.publish(t, newBuild, sigKey, feedKey, tt.change)
			srv.setFault(tt.fault)
			exe, home := install(t, oldBuild)
			before, _ := fileSHA256(exe)
			u := newUpdater(t, exe, home, srv.URL+"/feed.json", "1.0.0")

			_, err := update(t.Context(), u)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if after, _ := fileSHA256(exe); after != before {
				t.Fatal("the installed binary changed")
			}
			if exists(u.versionDir("1.1.0")) {
				t.Fatal("the bad download is still in the cache")
			}
			if exists(u.journalPath()) || exists(u.stagedPath()) {
				t.Fatal("an apply was started")
			}
			// The cache is clean: with the fault gone, the update succeeds.
			srv.setFault(fault{})
			srv.publish(t, newBuild, testPriv, testPriv, nil)
			if _, err := update(t.Context(), u); err != nil {
				t.Fatalf("update after the refusal: %v", err)
			}
			if v := versionOf(t, exe); v != "1.1.0" {
				t.Fatalf("installed %s, want 1.1.0", v)
			}
		})
	}
}

// binaryForTest is the new build's path, for table entries that sign it.
var binaryForTest string

func TestDownload_BusyWhileAnotherUpdates(t *testing.T) {
	exe, home := install(t, oldBuild)
	u := newUpdater(t, exe, home, "http://127.0.0.1:1/feed.json", "1.0.0")
	unlock, err := u.lock()
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	other := newUpdater(t, exe, home, "http://127.0.0.1:1/feed.json", "1.0.0")
	if _, err := other.Clean(); !errors.Is(err, ErrBusy) {
		t.Fatalf("err = %v, want ErrBusy", err)
	}
}
