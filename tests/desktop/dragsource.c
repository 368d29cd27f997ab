// A drag source for the window's end-to-end check
// (scripts/smoke-desktop-os.sh): a small window that, dragged from, offers
// the file URI given as its argument (text/uri-list), as a file manager
// does.
#include <gtk/gtk.h>

static const char *uri;

static void get(GtkWidget *w, GdkDragContext *c, GtkSelectionData *d, guint info, guint t, gpointer u) {
  gchar *uris[] = {(gchar *)uri, NULL};
  gtk_selection_data_set_uris(d, uris);
}

int main(int argc, char **argv) {
  gtk_init(&argc, &argv);
  if (argc != 2) {
    g_printerr("usage: dragsource URI\n");
    return 2;
  }
  uri = argv[1];
  GtkWidget *win = gtk_window_new(GTK_WINDOW_TOPLEVEL);
  gtk_window_set_title(GTK_WINDOW(win), "dragsource");
  gtk_window_set_default_size(GTK_WINDOW(win), 120, 80);
  GtkWidget *box = gtk_event_box_new();
  gtk_container_add(GTK_CONTAINER(win), box);
  gtk_container_add(GTK_CONTAINER(box), gtk_label_new("drag me"));
  GtkTargetEntry targets[] = {{"text/uri-list", 0, 0}};
  gtk_drag_source_set(box, GDK_BUTTON1_MASK, targets, 1, GDK_ACTION_COPY);
  g_signal_connect(box, "drag-data-get", G_CALLBACK(get), NULL);
  g_signal_connect(win, "destroy", G_CALLBACK(gtk_main_quit), NULL);
  gtk_widget_show_all(win);
  gtk_main();
  return 0;
}
