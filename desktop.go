//go:build !headless

package main

import (
	"context"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"hermes/app"
	"hermes/backend/host"
	"hermes/backend/i18n"
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
	// The first process to open a home owns it: the window then runs its
	// runs and serves them to other Hermes processes on a free loopback port
	// (hermes.lock). When another process owns the home, the window attaches
	// to it and says so in its title. The window names no default
	// workspace: the New-run form asks, so a run never lands in whatever
	// directory the app was started from.
	// With [cluster] nats_url the window shows and steers the bot
	// replicas' live runs beside the home's.
	h, err := host.Open(context.Background(), home, host.Desktop, host.Options{Assets: assets, Version: version, Restart: true, Cluster: true})
	if err != nil {
		return err
	}
	defer h.Close(context.Background()) // when the window never started; else its Shutdown closed it
	title := "Hermes"
	if !h.Owns() {
		title += " — " + h.Attached()
	}
	a := app.New(h)
	err = wails.Run(&options.App{
		Title:            title,
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
