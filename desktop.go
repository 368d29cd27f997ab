//go:build !headless

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"hermes/app"
	"hermes/backend/cli"
	"hermes/backend/host"
	"hermes/backend/i18n"
)

// desktopEntry is the desktop window that `hermes` with no arguments opens,
// on run when a link to it started Hermes (desktoplink).
func desktopEntry(run string) func(w cli.Window) error {
	return func(w cli.Window) error { return runDesktop(w, run) }
}

// runDesktop opens the Wails window on w.Home and returns when it closes,
// once the runs it started have stopped at a safe point. Wails itself
// closes the window on SIGTERM and Ctrl-C. A run ("" for none) is the
// first page; when another window has the home, it shows the run instead.
func runDesktop(w cli.Window, run string) error {
	home := w.Home
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
	// When the window never started; else its Shutdown closed it, and this
	// does nothing.
	defer func() { _ = h.Close(context.Background()) }()
	a := app.New(h)
	if run != "" {
		a.OpenRun(run)
	}
	width, height := app.FirstSize(home)
	err = wails.Run(&options.App{
		Title:            app.WindowTitle("", h.Attached()),
		Width:            width,
		Height:           height,
		MinWidth:         720,
		MinHeight:        480,
		BackgroundColour: &options.RGBA{R: 246, G: 247, B: 249, A: 255},
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup: func(ctx context.Context) {
			a.Startup(ctx)
			a.StartDesktop(ctx)
		},
		// The window's place is read while the window is still there.
		OnBeforeClose: a.KeepPlace,
		OnShutdown: func(ctx context.Context) {
			a.StopDesktop(ctx)
			a.Shutdown(ctx)
		},
		// A folder or note dropped on the window goes to the app. The
		// webview stays a drop target (on Linux Wails hears drops through
		// it), and the page refuses to open what is dropped in its place.
		DragAndDrop:        &options.DragAndDrop{EnableFileDrop: true},
		SingleInstanceLock: oneWindow(h, w, a),
		Bind:               []any{a},
	})
	if err != nil {
		return i18n.Wrap(err, "desktop.failed", err)
	}
	return nil
}

// oneWindow keeps one window to a home: the window that owns the home
// takes the home's lock of the desktop, and a later launch on that home
// hands it its arguments and exits, and the window comes to the front (on
// the run of a link among them).
// `hermes --new-window` opens a window of its own, attached; a window on a
// home that hermes serve or hermes bot owns attaches as it always did.
func oneWindow(h *host.Host, w cli.Window, a *app.App) *options.SingleInstanceLock {
	if !h.Owns() && (w.New || h.Owner().Mode != host.Desktop) {
		return nil
	}
	sum := sha256.Sum256([]byte(filepath.Clean(h.Home())))
	return &options.SingleInstanceLock{
		UniqueId:               "hermes_" + hex.EncodeToString(sum[:8]),
		OnSecondInstanceLaunch: func(d options.SecondInstanceData) { a.Launched(d.Args) },
	}
}
