package app

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hermes/backend/desktoplink"
	"hermes/backend/event"
	"hermes/backend/i18n"
	"hermes/backend/runner"
)

// The Wails events of the desktop's own (docs/api.md).
const (
	openRunName = "hermes:open-run" // a run to show: a notification was clicked
	dropName    = "hermes:drop"     // a folder or a note dropped on the window, Drop
)

// desktop is what the window does with the desktop it runs on: the system
// browser, folder dialog and notifications, its title, place and last page.
type desktop struct {
	focused atomic.Bool // the window is in front, as the page last said

	mu     sync.Mutex
	title  string // what the page last said of the run in front
	screen string // the screen the window is on, as the page said ("1920x1080")
	page   string // the page shown, a route ("#/runs/ID")
	first  string // the page to open on, a link's run, instead of the last one
	stop   func() // ends the notifications

	// decided, when set (tests), learns of each event of a run that
	// notifications took in, and whether it is to be told.
	decided func(e event.Event, told bool)
}

// StartDesktop hooks the window to the desktop: notifications, dropped
// files. Wails calls it after Startup with the window's context.
func (a *App) StartDesktop(ctx context.Context) {
	a.desk.focused.Store(true)
	runtime.OnFileDrop(ctx, func(_, _ int, paths []string) {
		if d, ok := a.dropped(paths); ok {
			runtime.EventsEmit(ctx, dropName, d)
		}
	})
	a.startNotify(ctx, func(runID string) {
		runtime.WindowUnminimise(ctx)
		runtime.WindowShow(ctx)
		runtime.EventsEmit(ctx, openRunName, runID)
	})
}

// StopDesktop ends what StartDesktop started. Wails calls it after
// Shutdown.
func (a *App) StopDesktop(context.Context) {
	a.desk.mu.Lock()
	stop := a.desk.stop
	a.desk.stop = nil
	a.desk.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// Raise brings the window to the front: another launch of Hermes on this
// home asked for it.
func (a *App) Raise() {
	ctx := a.context()
	runtime.WindowUnminimise(ctx)
	runtime.WindowShow(ctx)
}

// Launched is told of another launch of Hermes on this home, with its
// arguments: the window comes to the front, on the run that a link among
// them names (a toast clicked on Windows, desktoplink.Run).
func (a *App) Launched(args []string) {
	a.Raise()
	if id, ok := linkedRun(args, a.host.Home()); ok {
		runtime.EventsEmit(a.context(), openRunName, id)
	}
}

// linkedRun is the run a link among args names on home; false when none
// does (a link to a run of another home is not this window's).
func linkedRun(args []string, home string) (string, bool) {
	for _, arg := range args {
		if h, id, ok := desktoplink.Parse(arg); ok && filepath.Clean(h) == filepath.Clean(home) {
			return id, true
		}
	}
	return "", false
}

// OpenRun makes the run the first page the window shows, instead of the
// last one: Hermes was started by a link to it.
func (a *App) OpenRun(id string) {
	a.desk.mu.Lock()
	a.desk.first = "#/runs/" + url.PathEscape(id)
	a.desk.mu.Unlock()
}

// linkSchemes are the links the window hands to the system: web pages,
// mail, and notes in Obsidian. Any other (file:, javascript:, a custom
// handler) is refused, since a link in an answer is the model's writing.
var linkSchemes = map[string]bool{"http": true, "https": true, "mailto": true, "obsidian": true}

// checkLink returns the link as the system opener gets it, or why it is
// refused.
func checkLink(link string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || !linkSchemes[strings.ToLower(u.Scheme)] || (u.Opaque == "" && u.Host == "") {
		return "", runner.NewAPIError("bad_link", i18n.Errorf("desktop.link.refused", link))
	}
	return u.String(), nil
}

// OpenURL opens a link in the system's browser (obsidian:// in Obsidian),
// never inside the window.
func (a *App) OpenURL(link string) error {
	u, err := checkLink(link)
	if err != nil {
		return err
	}
	runtime.BrowserOpenURL(a.context(), u)
	return nil
}

// ChooseFolder asks for a folder in the system's dialog, titled title and
// opened at start when it is a folder; "" when the person cancelled.
func (a *App) ChooseFolder(title, start string) (string, error) {
	opts := runtime.OpenDialogOptions{Title: title, CanCreateDirectories: true}
	if fi, err := os.Stat(start); err == nil && fi.IsDir() {
		opts.DefaultDirectory = start
	}
	dir, err := runtime.OpenDirectoryDialog(a.context(), opts)
	if err != nil {
		return "", runner.NewAPIError("internal", i18n.Wrap(err, "desktop.folder.failed", err))
	}
	return dir, nil
}

// WindowFocused is told by the page when the window comes to the front
// and when it leaves it: notifications are sent only while it is behind.
func (a *App) WindowFocused(focused bool) { a.desk.focused.Store(focused) }

// SetTitle names the window after what it shows: the run in front and its
// state ("Summarise the notes · waiting for approval"), "" for none.
func (a *App) SetTitle(text string) {
	a.desk.mu.Lock()
	a.desk.title = text
	a.desk.mu.Unlock()
	runtime.WindowSetTitle(a.context(), WindowTitle(text, a.host.Attached()))
}

// WindowTitle is the window's title: Hermes, what it shows, and the
// process it is attached to, if any.
func WindowTitle(text, attached string) string {
	title := "Hermes"
	for _, part := range []string{text, attached} {
		if part = strings.TrimSpace(part); part != "" {
			title += " — " + part
		}
	}
	return title
}
