//go:build !headless

package main

import (
	"context"
	"io/fs"
	"net"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"

	"hermes/app"
	"hermes/backend/i18n"
	"hermes/backend/remote"
	"hermes/backend/runner"
	"hermes/backend/server"
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
	runs, title, release, err := shareHome(home, assets)
	if err != nil {
		return err
	}
	defer release()
	a := app.New(runs)
	a.Version = version
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

// shareHome gives the window the home's runs. The first process to serve a
// home owns it: the window then runs them itself and serves them to other
// Hermes processes on a free loopback port (hermes.lock). When another
// process owns the home, the window attaches to it and says so in its
// title. release lets go of the home once the window has closed.
func shareHome(home string, assets fs.FS) (runner.Runs, string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, i18n.Wrap(err, "desktop.failed", err)
	}
	token := remote.NewToken()
	own, client, err := remote.Share(context.Background(), home,
		remote.Lock{Addr: ln.Addr().String(), Token: token, Mode: remote.ModeDesktop})
	if err != nil {
		ln.Close()
		return nil, "", nil, err
	}
	if client != nil {
		ln.Close()
		return client, "Hermes — " + client.Attached(), func() {}, nil
	}
	// The window names no default workspace: the New-run form asks, so a run
	// never lands in whatever directory the app was started from.
	m := runner.New(runner.Options{Home: home, Toolkit: runner.OpenToolkit})
	srv := server.NewHTTPServer(server.Options{Runs: m, Token: token, Assets: assets, Owner: &own.Lock})
	go func() { _ = srv.Serve(ln) }() // ends with Close in release
	return m, "Hermes", func() {
		srv.Close()
		own.Release()
	}, nil
}
