package update

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// packageInstall is /usr/bin/hermes owned by a fake dpkg database, and an
// Updater for it that reads that database.
func packageInstall(t *testing.T, feedURL string) (*Updater, string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("dpkg installs are Linux's")
	}
	root := fakeRoot(t, map[string][]string{"hermes": {"/usr/bin/hermes"}})
	exe := at(t, root, "/usr/bin/hermes", "")
	u, err := New(Options{
		Home: t.TempDir(), FeedURL: feedURL, PublicKey: testPub.String(), Version: "1.0.0",
		Exe: exe, Root: root, RetryDelay: func(int) time.Duration { return 0 },
	})
	if err != nil {
		t.Fatal(err)
	}
	return u, exe
}

// A .deb install is never overwritten: the update is the verified .deb in
// the cache, and the notice says how to install it; applying, from the
// window's button or hermes update, is refused, and so is a rollback.
func TestPackage_OffersTheVerifiedDeb(t *testing.T) {
	srv := newFeedServer(t)
	deb := []byte("!<arch>\ndebian-binary   a .deb of hermes 1.1.0")
	srv.publishFiles(t, "1.1.0",
		releaseFile{FormBinary, "hermes-1.1.0-linux", []byte("the bare binary")},
		releaseFile{FormPackage, "hermes_1.1.0_amd64.deb", deb},
	)
	u, exe := packageInstall(t, srv.URL+"/feed.json")
	if u.Form() != FormPackage {
		t.Fatalf("form %s, want package", u.Form())
	}
	var seen []Status
	c := NewChecker(u, func(s Status) { seen = append(seen, s) })
	if err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	s := c.Status()
	want := filepath.Join(u.versionDir("1.1.0"), "hermes_1.1.0_amd64.deb")
	if s.State != StateReady || s.Form != FormPackage || s.Package != want || s.Command != "sudo apt install "+want {
		t.Fatalf("status %+v, want the .deb at %s ready", s, want)
	}
	if readFile(t, want) != string(deb) {
		t.Fatal("the cache does not hold the .deb")
	}
	if seen[1].State != StateDownloading || seen[1].Form != FormPackage {
		t.Fatalf("the download's notice: %+v", seen[1])
	}

	if err := c.Apply(t.Context()); !errors.Is(err, ErrManaged) {
		t.Fatalf("apply: %v, want ErrManaged", err)
	}
	if c.Status().State != StateReady {
		t.Fatalf("a refused apply changed the notice: %+v", c.Status())
	}
	rel, _, err := u.Check(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := u.Apply(t.Context(), rel, want); !errors.Is(err, ErrManaged) {
		t.Fatalf("Apply: %v, want ErrManaged", err)
	}
	if _, err := u.Rollback(t.Context()); !errors.Is(err, ErrManaged) {
		t.Fatalf("Rollback: %v, want ErrManaged", err)
	}
	if readFile(t, exe) != "a hermes" {
		t.Fatal("the package's file was changed")
	}
}

// A release without a .deb is no update for a package install, even with
// a bare binary for its platform; and a signed .deb cannot pass as the
// binary, nor the binary as the .deb.
func TestPackage_NeedsItsForm(t *testing.T) {
	srv := newFeedServer(t)
	srv.publishFiles(t, "1.1.0", releaseFile{FormBinary, "hermes-1.1.0-linux", []byte("the bare binary")})
	u, _ := packageInstall(t, srv.URL+"/feed.json")
	if _, _, err := u.Check(t.Context()); !errors.Is(err, ErrNoPlatform) || !strings.Contains(err.Error(), "as a package") {
		t.Fatalf("check: %v, want ErrNoPlatform for the package", err)
	}

	rel := srv.publishFiles(t, "1.1.0",
		releaseFile{FormBinary, "hermes-1.1.0-linux", []byte("the bare binary")},
		releaseFile{FormPackage, "hermes_1.1.0_amd64.deb", []byte("the deb")},
	)
	deb, _ := rel.Artefact(platform, FormPackage)
	bin, _ := rel.Artefact(platform, FormBinary)
	dir := t.TempDir()
	debFile, binFile := filepath.Join(dir, "deb"), filepath.Join(dir, "bin")
	writeFile(t, debFile, "the deb")
	writeFile(t, binFile, "the bare binary")
	if err := verifyFile(debFile, deb, "1.1.0", platform, testPub); err != nil {
		t.Fatalf("the .deb does not verify: %v", err)
	}
	asBinary := deb
	asBinary.Form = FormBinary
	if err := verifyFile(debFile, asBinary, "1.1.0", platform, testPub); !errors.Is(err, ErrSignature) {
		t.Fatalf("the .deb passed as the binary: %v", err)
	}
	asPackage := bin
	asPackage.Form = FormPackage
	if err := verifyFile(binFile, asPackage, "1.1.0", platform, testPub); !errors.Is(err, ErrSignature) {
		t.Fatalf("the binary passed as the .deb: %v", err)
	}
}
