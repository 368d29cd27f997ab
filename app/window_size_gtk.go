//go:build linux && (production || dev)

package app

/*
#cgo pkg-config: gtk+-3.0
#include <stdlib.h>
#include <gtk/gtk.h>

typedef struct { int width, height; } hermesSize;

// hermesResize runs on GTK's main thread: it resizes the process's
// toplevel windows (the one Wails made; menus and tooltips are popups).
static gboolean hermesResize(gpointer data) {
	hermesSize *size = data;
	GList *windows = gtk_window_list_toplevels();
	for (GList *l = windows; l != NULL; l = l->next) {
		GtkWindow *window = GTK_WINDOW(l->data);
		if (gtk_window_get_window_type(window) == GTK_WINDOW_TOPLEVEL) {
			gtk_window_resize(window, size->width, size->height);
		}
	}
	g_list_free(windows);
	free(size);
	return G_SOURCE_REMOVE;
}

static void hermesResizeOnMainThread(int width, int height) {
	hermesSize *size = malloc(sizeof *size);
	size->width = width;
	size->height = height;
	g_idle_add(hermesResize, size);
}
*/
import "C"

import "context"

// setWindowSize resizes the window from GTK's main thread. Wails v2's
// WindowSetSize calls gtk_window_resize from the calling goroutine's
// thread (its SetPosition and SetTitle go to the main thread); during the
// page's first paint that left the window blank, its WebKit processes
// idle (seen in the desktop smoke under Xvfb). The idle callback runs
// before Wails' own later ones, so a move that follows lands after it.
func setWindowSize(_ context.Context, width, height int) {
	C.hermesResizeOnMainThread(C.int(width), C.int(height))
}
