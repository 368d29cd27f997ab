package update

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"aead.dev/minisign"
)

// trustedComment is what an artefact's signature vouches for besides its
// bytes: which version, platform and form it is. A binary's leaves the form
// out, as versions before install forms verify it.
func trustedComment(version, platform string, form Form, sum string) string {
	if form == FormBinary || form == "" {
		return fmt.Sprintf("hermes %s %s sha256:%s", version, platform, sum)
	}
	return fmt.Sprintf("hermes %s %s %s sha256:%s", version, platform, form, sum)
}

// SignArtefact signs the file at path as the build of version for
// platform in form, giving its feed entry with url.
func SignArtefact(path, version, platform string, form Form, url string, key minisign.PrivateKey) (Artefact, error) {
	if _, err := parseVersion(version); err != nil {
		return Artefact{}, err
	}
	if _, ok := ParseForm(string(form)); !ok {
		return Artefact{}, fmt.Errorf("form %q: %w", form, ErrForm)
	}
	if form == "" {
		form = FormBinary
	}
	f, err := os.Open(path)
	if err != nil {
		return Artefact{}, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	r := minisign.NewReader(io.TeeReader(f, h))
	size, err := io.Copy(io.Discard, r)
	if err != nil {
		return Artefact{}, fmt.Errorf("read %s: %w", path, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	sig := r.SignWithComments(key, trustedComment(version, platform, form, sum),
		"hermes "+version+" "+platform+" "+string(form)+" signed "+time.Now().UTC().Format(time.RFC3339))
	return Artefact{URL: url, Size: size, SHA256: sum, Signature: string(sig), Form: form}, nil
}

// verifyFile checks a downloaded artefact against its feed entry: size,
// SHA-256, and a signature by key over exactly this version, platform and
// form.
func verifyFile(path string, a Artefact, version, platform string, key minisign.PublicKey) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	if st.Size() != a.Size {
		return fmt.Errorf("%s has %d bytes, the feed says %d: %w", path, st.Size(), a.Size, ErrSize)
	}
	h := sha256.New()
	r := minisign.NewReader(io.TeeReader(f, h))
	if _, err := io.Copy(io.Discard, r); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(sum, a.SHA256) {
		return fmt.Errorf("%s has SHA-256 %s, the feed says %s: %w", path, sum, a.SHA256, ErrChecksum)
	}
	var sig minisign.Signature
	if err := sig.UnmarshalText([]byte(a.Signature)); err != nil {
		return fmt.Errorf("%s: %w: %w", path, ErrSignature, err)
	}
	if !r.Verify(key, []byte(a.Signature)) {
		return fmt.Errorf("%s: %w", path, ErrSignature)
	}
	if want := trustedComment(version, platform, a.form(), strings.ToLower(a.SHA256)); sig.TrustedComment != want {
		return fmt.Errorf("%s is signed as %q, not %q: %w", path, sig.TrustedComment, want, ErrSignature)
	}
	return nil
}

// fileSHA256 is the hex SHA-256 of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
