//go:build windows

package update

// replace puts staged in exe's place; Windows refuses to overwrite a running
// executable but lets it be renamed, so the old one is moved to aside first.
func replace(staged, exe, aside string) error { return swapAside(osOps, staged, exe, aside) }
