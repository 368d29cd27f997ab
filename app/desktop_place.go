package app

import (
	"context"
	"encoding/json"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strconv"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"hermes/backend/atomicfile"
)

// Place is where the window was on one screen, and the page it showed.
type Place struct {
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Page   string `json:"page,omitempty"`
}

// Places are the window's places, one per screen size ("1920x1080"), and
// the screen it was last on: HOME/window.json.
type Places struct {
	Last    string           `json:"last,omitempty"`
	Screens map[string]Place `json:"screens"`
}

// placesFile is where a home keeps the window's places.
func placesFile(home string) string { return filepath.Join(home, "window.json") }

// ReadPlaces reads the places kept in home; none when there are none or
// the file is damaged (the window then opens as it always did).
func ReadPlaces(home string) Places {
	p := Places{Screens: map[string]Place{}}
	data, err := os.ReadFile(placesFile(home))
	if err != nil {
		return p
	}
	if json.Unmarshal(data, &p) != nil || p.Screens == nil {
		return Places{Screens: map[string]Place{}}
	}
	return p
}

// WritePlaces keeps places in home.
func WritePlaces(home string, p Places) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(placesFile(home), append(data, '\n'), 0o600)
}

var screenKey = regexp.MustCompile(`^([0-9]{3,5})x([0-9]{3,5})$`)

// Fit is where the window goes on screen: p, moved and shrunk to lie on
// it, or false when p is none or screen is not a size.
func Fit(p Place, screen string) (Place, bool) {
	m := screenKey.FindStringSubmatch(screen)
	if m == nil || p.Width <= 0 || p.Height <= 0 {
		return Place{}, false
	}
	sw, _ := strconv.Atoi(m[1])
	sh, _ := strconv.Atoi(m[2])
	p.Width = min(max(p.Width, minWidth), sw)
	p.Height = min(max(p.Height, minHeight), sh)
	p.X = min(max(p.X, 0), sw-p.Width)
	p.Y = min(max(p.Y, 0), sh-p.Height)
	return p, true
}

// The smallest window (desktop.go's MinWidth and MinHeight).
const (
	minWidth  = 720
	minHeight = 480
)

// PlaceWindow puts the window where it was last on screen (the page's
// screen.width x screen.height) and returns the page it showed there, ""
// for none; the run a link named when it started the window (OpenRun)
// instead. Its place is kept on that screen when it closes (KeepPlace).
func (a *App) PlaceWindow(screen string) (string, error) {
	a.desk.mu.Lock()
	first := a.desk.first
	a.desk.first = ""
	a.desk.mu.Unlock()
	if !screenKey.MatchString(screen) {
		return first, nil
	}
	a.desk.mu.Lock()
	a.desk.screen = screen
	a.desk.mu.Unlock()
	saved, ok := ReadPlaces(a.host.Home()).Screens[screen]
	p, fits := Fit(saved, screen)
	if !ok || !fits {
		return first, nil
	}
	ctx := a.context()
	// The window opened at its size on the screen it was on last
	// (FirstSize): only one on another screen is resized.
	if w, h := runtime.WindowGetSize(ctx); w != p.Width || h != p.Height {
		setWindowSize(ctx, p.Width, p.Height)
	}
	runtime.WindowSetPosition(ctx, p.X, p.Y)
	if first != "" {
		return first, nil
	}
	return p.Page, nil
}

// ShowingPage is told by the page of each page it shows, a route
// ("#/runs/ID"), to open there next time.
func (a *App) ShowingPage(page string) {
	a.desk.mu.Lock()
	a.desk.page = page
	a.desk.mu.Unlock()
}

// KeepPlace keeps the window's size, position and page for its screen.
// Wails calls it before the window closes, when both can still be read;
// it never keeps the window open.
func (a *App) KeepPlace(ctx context.Context) bool {
	a.desk.mu.Lock()
	screen, page := a.desk.screen, a.desk.page
	a.desk.mu.Unlock()
	if screen == "" {
		return false // the page never said which screen: nothing to key it by
	}
	places := ReadPlaces(a.host.Home())
	p := places.Screens[screen]
	p.Page = page
	// A minimised, maximised or full-screen window's size is not one to
	// open at: the one before stays.
	if !runtime.WindowIsMinimised(ctx) && !runtime.WindowIsMaximised(ctx) && !runtime.WindowIsFullscreen(ctx) {
		p.Width, p.Height = runtime.WindowGetSize(ctx)
		p.X, p.Y = runtime.WindowGetPosition(ctx)
	}
	places.Last = screen
	places.Screens[screen] = p
	if err := WritePlaces(a.host.Home(), places); err != nil {
		log.Printf("keep the window's place: %v", err)
	}
	return false
}

// FirstSize is the size the window opens at: its size on the screen it
// was last on, or the default.
func FirstSize(home string) (width, height int) {
	places := ReadPlaces(home)
	if p, ok := places.Screens[places.Last]; ok {
		if p, ok := Fit(p, places.Last); ok {
			return p.Width, p.Height
		}
	}
	return 1280, 800
}
