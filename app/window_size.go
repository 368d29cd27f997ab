//go:build !(linux && (production || dev))

package app

import (
	"context"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// setWindowSize resizes the window; Wails does it on the thread the
// system wants (on Linux the window's build resizes through GTK's main
// thread itself: window_size_gtk.go).
func setWindowSize(ctx context.Context, width, height int) {
	runtime.WindowSetSize(ctx, width, height)
}
