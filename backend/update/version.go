package update

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// semver is a parsed semantic version; build metadata is ignored, as the
// specification says.
type semver struct {
	core [3]uint64
	pre  []string
}

// parseVersion reads "1.2.3", "v1.2.3", "1.2.3-beta.1" or "1.2.3+build".
func parseVersion(s string) (semver, error) {
	var v semver
	rest := strings.TrimPrefix(s, "v")
	rest, _, _ = strings.Cut(rest, "+")
	rest, pre, hasPre := strings.Cut(rest, "-")
	parts := strings.Split(rest, ".")
	if len(parts) != 3 {
		return v, fmt.Errorf("version %q: %w", s, ErrVersion)
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil || (len(p) > 1 && p[0] == '0') {
			return v, fmt.Errorf("version %q: %w", s, ErrVersion)
		}
		v.core[i] = n
	}
	if hasPre {
		v.pre = strings.Split(pre, ".")
		for _, id := range v.pre {
			if id == "" || strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") != "" {
				return v, fmt.Errorf("version %q: %w", s, ErrVersion)
			}
		}
	}
	return v, nil
}

// compare orders versions by semantic-versioning precedence.
func (a semver) compare(b semver) int {
	for i := range a.core {
		if c := cmp.Compare(a.core[i], b.core[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(a.pre) == 0 && len(b.pre) == 0:
		return 0
	case len(a.pre) == 0:
		return 1 // a release ranks above its pre-releases
	case len(b.pre) == 0:
		return -1
	}
	for i := 0; i < len(a.pre) && i < len(b.pre); i++ {
		if c := compareIdent(a.pre[i], b.pre[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a.pre), len(b.pre))
}

func compareIdent(a, b string) int {
	na, errA := strconv.ParseUint(a, 10, 64)
	nb, errB := strconv.ParseUint(b, 10, 64)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(na, nb)
	case errA == nil:
		return -1 // numeric identifiers rank below alphanumeric ones
	case errB == nil:
		return 1
	}
	return strings.Compare(a, b)
}

// CompareVersions orders two release versions; ErrVersion if either is not
// a semantic version.
func CompareVersions(a, b string) (int, error) {
	va, err := parseVersion(a)
	if err != nil {
		return 0, err
	}
	vb, err := parseVersion(b)
	if err != nil {
		return 0, err
	}
	return va.compare(vb), nil
}
