//go:build !(desktop || production || dev || ui)

package main

import "io/fs"

// uiAssets is nil in builds without the UI embedded: `hermes serve` then
// serves the API and a page saying how to build the UI.
func uiAssets() fs.FS { return nil }
