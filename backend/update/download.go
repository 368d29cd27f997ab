package update

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"hermes/backend/atomicfile"
)

// Progress reports how much of a download is in the cache.
type Progress struct {
	Version string `json:"version"`
	Done    int64  `json:"done"`
	Total   int64  `json:"total"`
}

// downloadRecord is written beside a partial download before its first byte:
// what the finished file must be. A partial file without a record that
// matches the feed is from another artefact or an older crash, and is removed.
type downloadRecord struct {
	Version  string `json:"version"`
	Platform string `json:"platform"`
	URL      string `json:"url"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
	Form     Form   `json:"form,omitempty"` // "" for a binary, as before forms
}

const (
	maxAttempts  = 5
	stallTimeout = 60 * time.Second // no byte for this long and the attempt is retried
)

// errPermanent marks a download failure that another attempt cannot mend.
var errPermanent = errors.New("permanent")

// Download brings rel's artefact for this platform and install form into
// the cache and verifies it, resuming a partial download left by an earlier
// attempt. It returns the verified file: for a package install, the package
// to install with the package manager. A file that fails verification is removed with its cache
// directory, so the next attempt starts clean; an interrupted download keeps
// its partial file so the next attempt resumes it.
func (u *Updater) Download(ctx context.Context, rel Release, progress func(Progress)) (string, error) {
	art, err := u.artefact(rel)
	if err != nil {
		return "", err
	}
	if _, err := parseVersion(rel.Version); err != nil {
		return "", err // the version names a directory; never let it be "../x"
	}
	unlock, err := u.lock()
	if err != nil {
		return "", err
	}
	defer unlock()
	dir := u.versionDir(rel.Version)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	final := filepath.Join(dir, u.cacheName(rel.Version, art))
	if exists(final) {
		if err := u.verify(final, art, rel.Version); err == nil {
			u.step(StepDownloaded)
			return final, nil
		}
		if err := removeIfExists(final); err != nil {
			return "", err
		}
	}
	part, record := final+".part", final+".json"
	want := downloadRecord{rel.Version, u.opts.Platform, art.URL, art.Size, strings.ToLower(art.SHA256), ""}
	if art.form() != FormBinary {
		want.Form = art.form()
	}
	var have downloadRecord
	if err := readJSON(record, &have); err != nil || have != want {
		if err := removeIfExists(part); err != nil {
			return "", err
		}
		if err := writeJSON(record, want); err != nil {
			return "", err
		}
	}
	report := func(done int64) {
		if progress != nil {
			progress(Progress{Version: rel.Version, Done: done, Total: art.Size})
		}
	}
	resumed, err := u.fetchWithRetries(ctx, art, part, report)
	if err == nil {
		err = u.verify(part, art, rel.Version)
		if err != nil && resumed && !errors.Is(err, ErrSignature) {
			// The kept prefix may be what is wrong (a crash can leave
			// garbage in a file's tail): one clean download decides.
			if err = removeIfExists(part); err == nil {
				if _, err = u.fetchWithRetries(ctx, art, part, report); err == nil {
					err = u.verify(part, art, rel.Version)
				}
			}
		}
	}
	if err != nil {
		if errors.Is(err, ErrSize) || errors.Is(err, ErrChecksum) || errors.Is(err, ErrSignature) {
			if rmErr := os.RemoveAll(dir); rmErr != nil {
				return "", errors.Join(err, fmt.Errorf("clear %s: %w", dir, rmErr))
			}
		}
		return "", err
	}
	if err := atomicfile.Rename(part, final); err != nil {
		return "", fmt.Errorf("rename %s: %w", part, err)
	}
	u.step(StepDownloaded)
	return final, nil
}

// cacheName is the name of art's file in the cache: the binary's own name,
// or for a package the name its package manager expects, which the person
// types to install it.
func (u *Updater) cacheName(version string, art Artefact) string {
	switch art.form() {
	case FormPackage:
		if ref, err := url.Parse(art.URL); err == nil {
			if name := path.Base(ref.Path); strings.HasSuffix(name, ".deb") && filepath.IsLocal(name) && !strings.ContainsAny(name, `\ "'`) {
				return name
			}
		}
		_, arch, _ := strings.Cut(u.opts.Platform, "/")
		return fmt.Sprintf("hermes_%s_%s.deb", version, debianArch(arch))
	case FormBundle:
		return filepath.Base(bundleOf(u.opts.Exe)) + ".zip"
	}
	return u.binaryName()
}

// debianArch is Debian's name for a GOARCH.
func debianArch(goarch string) string {
	switch goarch {
	case "386":
		return "i386"
	case "arm":
		return "armhf"
	case "ppc64le":
		return "ppc64el"
	}
	return goarch
}

func (u *Updater) verify(path string, art Artefact, version string) error {
	return verifyFile(path, art, version, u.opts.Platform, u.key)
}

// fetchWithRetries completes the partial file, resuming after each
// transient failure; resumed says whether bytes kept from before were used.
func (u *Updater) fetchWithRetries(ctx context.Context, art Artefact, part string, report func(int64)) (resumed bool, err error) {
	for attempt := 1; ; attempt++ {
		r, err := u.fetch(ctx, art, part, report)
		resumed = resumed || r
		switch {
		case err == nil:
			return resumed, nil
		case ctx.Err() != nil:
			return resumed, fmt.Errorf("download %s: %w", art.URL, ctx.Err())
		case errors.Is(err, ErrSize):
			return resumed, err
		case errors.Is(err, errPermanent) || attempt == maxAttempts:
			return resumed, fmt.Errorf("download %s after %d attempts: %w: %w", art.URL, attempt, ErrDownload, err)
		}
		select {
		case <-ctx.Done():
			return resumed, fmt.Errorf("download %s: %w", art.URL, ctx.Err())
		case <-time.After(u.opts.RetryDelay(attempt)):
		}
	}
}

// fetch makes one attempt to complete part, asking for only the missing
// bytes when some are there.
func (u *Updater) fetch(ctx context.Context, art Artefact, part string, report func(int64)) (resumed bool, err error) {
	var offset int64
	if st, err := os.Stat(part); err == nil {
		offset = st.Size()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("stat %s: %w", part, err)
	}
	if offset > art.Size {
		offset = 0 // longer than the artefact: not a prefix of it
	}
	if offset == art.Size && offset > 0 {
		return true, nil
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, art.URL, nil)
	if err != nil {
		return false, fmt.Errorf("%w: %w", errPermanent, err)
	}
	if offset > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", offset))
	}
	resp, err := u.opts.Client.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusPartialContent:
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != offset {
			// Not the range asked for: drop the partial file and start over.
			return false, removeThen(part, fmt.Errorf("server sent range %q for offset %d", resp.Header.Get("Content-Range"), offset))
		}
		if total >= 0 && total != art.Size {
			return false, fmt.Errorf("server says %s has %d bytes, the feed says %d: %w", art.URL, total, art.Size, ErrSize)
		}
		resumed = true
	case http.StatusOK:
		offset = 0 // the server ignored Range: start over
	case http.StatusRequestedRangeNotSatisfiable:
		return false, removeThen(part, fmt.Errorf("server cannot resume %s at %d", art.URL, offset))
	default:
		err := fmt.Errorf("GET %s: HTTP %s", art.URL, resp.Status)
		if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			err = fmt.Errorf("%w: %w", errPermanent, err)
		}
		return false, err
	}
	if remaining := art.Size - offset; resp.ContentLength >= 0 && resp.ContentLength != remaining {
		return false, fmt.Errorf("server announces %d bytes of %s, the feed says %d remain: %w", resp.ContentLength, art.URL, remaining, ErrSize)
	}
	f, err := os.OpenFile(part, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return false, fmt.Errorf("%w: open %s: %w", errPermanent, part, err)
	}
	if err := f.Truncate(offset); err != nil {
		_ = f.Close()
		return false, fmt.Errorf("%w: truncate %s: %w", errPermanent, part, err)
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		_ = f.Close()
		return false, fmt.Errorf("%w: seek %s: %w", errPermanent, part, err)
	}
	body := &stallReader{r: resp.Body, timer: time.AfterFunc(stallTimeout, func() {
		cancel(fmt.Errorf("no data from %s for %s", art.URL, stallTimeout))
	})}
	defer body.timer.Stop()
	// One byte more than remains is read to catch a server that sends more
	// than the feed says.
	n, copyErr := io.Copy(&progressWriter{w: f, done: offset, report: report}, io.LimitReader(body, art.Size-offset+1))
	if err := closeSync(f); err != nil {
		return resumed, fmt.Errorf("%w: %w", errPermanent, err)
	}
	switch {
	case offset+n > art.Size:
		return resumed, fmt.Errorf("server sent more than the %d bytes of %s: %w", art.Size, art.URL, ErrSize)
	case copyErr != nil:
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			return resumed, cause
		}
		return resumed, fmt.Errorf("read %s: %w", art.URL, copyErr)
	case offset+n < art.Size:
		return resumed, fmt.Errorf("read %s: %w after %d of %d bytes", art.URL, io.ErrUnexpectedEOF, offset+n, art.Size)
	}
	return resumed, nil
}

func removeThen(path string, err error) error {
	if rmErr := removeIfExists(path); rmErr != nil {
		return fmt.Errorf("%w: %w", errPermanent, rmErr)
	}
	return err
}

// parseContentRange reads "bytes START-END/TOTAL"; total is -1 for "*".
func parseContentRange(h string) (start, total int64, ok bool) {
	spec, found := strings.CutPrefix(h, "bytes ")
	if !found {
		return 0, 0, false
	}
	rng, size, found := strings.Cut(spec, "/")
	if !found {
		return 0, 0, false
	}
	first, _, found := strings.Cut(rng, "-")
	if !found {
		return 0, 0, false
	}
	start, err := strconv.ParseInt(first, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	if size == "*" {
		return start, -1, true
	}
	total, err = strconv.ParseInt(size, 10, 64)
	return start, total, err == nil
}

// stallReader restarts its timer on every read; the timer cancels the
// request when the server stops sending.
type stallReader struct {
	r     io.Reader
	timer *time.Timer
}

func (s *stallReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.timer.Reset(stallTimeout)
	return n, err
}

type progressWriter struct {
	w      io.Writer
	done   int64
	report func(int64)
}

func (p *progressWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.done += int64(n)
	p.report(p.done)
	return n, err
}
