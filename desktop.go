//go:build !headless

package main

import (
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"hermes/app"
	"hermes/backend/i18n"
	"hermes/backend/runner"
)

// desktopEntry is the desktop window that `hermes` with no arguments opens.
// Headless builds (desktop_headless.go) have none and return nil.
func desktopEntry() func(home string) error { return runDesktop }

// runDesktop opens the Wails window on home and returns when it closes, once
// the runs it started have stopped at a safe point. Wails itself closes the
// window on SIGTERM and Ctrl-C.
func runDesktop(home string) error {
	assets := uiAssets()
	if assets == nil {
		return i18n.Errorf("desktop.no_ui")
	}
	// The window names no default workspace: the New-run form asks, so a run
	// never lands in whatever directory the app was started from.
	a := app.New(runner.New(runner.Options{Home: home, Toolkit: runner.OpenToolkit}))
	err := wails.Run(&options.App{
		Title:            "Hermes",
		Width:            1280,
		Height:           800,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 246, G: 247, B: 249, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup:        a.Startup,
		OnShutdown:       a.Shutdown,
		Bind:             []any{a},
	})
	if err != nil {
		return i18n.Wrap(err, "desktop.failed", err)
	}
	return nil
}
