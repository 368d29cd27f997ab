//go:build windows

package update

// replace puts staged in exe's place; Windows refuses to overwrite a running
// executable but lets it be renamed, so the old one is moved aside first.
func replace(staged, exe string) error { return swapAside(osOps, staged, exe) }
