//go:build desktop || production || dev || ui

package main

import (
	"embed"
	"io/fs"
)

// dist is the built web UI. It is embedded only in builds tagged for it
// (wails build's desktop,production, or ui for `hermes serve` on a headless
// build), so that vet and test work in a clone where frontend/dist is not
// built yet.
//
//go:embed all:frontend/dist
var dist embed.FS

// uiAssets is the built UI, rooted at its index.html.
func uiAssets() fs.FS {
	sub, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // a constant, valid path: cannot happen
	}
	return sub
}
