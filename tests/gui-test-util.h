/* gui-test-util.h — shared by the tests and the tools that drive the
 * window: choosing which kernels run, waiting on a real main loop. */
#pragma once

#include <glib/gstdio.h>
#include <locale.h>
#include <time.h>
#include <unistd.h>
#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif

#include "core/tl-locale.h"
#include "paint/tl-paint-text-boxes.h"
#include "tl-application.h"
#include "tl-compare-page.h"
#include "tl-heatmap-view.h"
#include "tl-lesson-page.h"
#include "tl-matrices-page.h"
#include "tl-window.h"

/* every label's text under widget, a line each (data: a GString) */
static inline void
gui_test_append_label_texts (GtkWidget *widget, gpointer data)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (data, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  else if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), gui_test_append_label_texts, data);
}

/* g_test_init and gtk_init_check, for a test that starts the app itself
 * (g_application_run): FALSE, said, where no display opens, and main
 * returns 77 (skip). */
static inline gboolean
gui_test_init_check (int *argc, char ***argv)
{
  g_test_init (argc, argv, NULL);
  if (gtk_init_check (argc, argv))
    return TRUE;
  g_printerr ("no display: skipping the GUI tests\n");
  return FALSE;
}

/* gtk_test_init's set-up (no GTK modules, the C locale, no XInput 2 for
 * the simulated events) with gtk_init_check in place of its gtk_init,
 * which aborts the program where no display opens: none named (meson
 * test outside xvfb-run) or one that does not answer (a stale DISPLAY in
 * CI). FALSE, said, and main returns 77 (skip). */
static inline gboolean
gui_test_init_for_window (int *argc, char ***argv)
{
  g_test_init (argc, argv, NULL);
  g_setenv ("GTK_MODULES", "", TRUE);
  gtk_disable_setlocale ();
  setlocale (LC_ALL, "C");
  gdk_disable_multidevice ();
  if (gtk_init_check (argc, argv))
    return TRUE;
  g_printerr ("no display opens: skipping the GUI tests\n");
  return FALSE;
}

/* The window's pages the tests drive most. */
/* CPU time of the calling (main) thread, in µs: a long main-loop gap with
 * little CPU is the scheduler (other processes), one full of CPU is our
 * own code stalling */
static inline gint64
gui_test_thread_cpu_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* The time this thread has waited for a CPU while it was ready to run,
 * in µs (/proc/self/task/TID/schedstat; 0 where there is none): what a
 * busy machine adds to a gap of the main loop. */
static inline gint64
gui_test_thread_wait_us (void)
{
  g_autofree char *path = g_strdup_printf ("/proc/self/task/%d/schedstat", (int) gettid ());
  g_autofree char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return 0;
  char *end = NULL;
  g_ascii_strtoull (text, &end, 10); /* time on a CPU, ns */
  return (gint64) (g_ascii_strtoull (end, NULL, 10) / 1000);
}

static inline TlMatricesPage *
gui_test_matrices (TlWindow *win)
{
  return TL_MATRICES_PAGE (tl_window_get_page (win, "matrices"));
}

static inline TlComparePage *
gui_test_compare (TlWindow *win)
{
  return TL_COMPARE_PAGE (tl_window_get_page (win, "compare"));
}

/* The heatmap of "A", "B", "C", "ref" or "err". */
static inline GtkWidget *
gui_test_heatmap (TlWindow *win, const char *name)
{
  return tl_matrices_page_get_heatmap (gui_test_matrices (win), name);
}

/* Makes exactly the kernels in ids (NULL-terminated) active. */
static inline void
gui_test_only_kernels (TlWindow *win, const char *const *ids)
{
  g_auto (GStrv) active = tl_window_get_active_kernels (win);
  for (guint i = 0; active && active[i]; i++)
    tl_window_set_kernel_active (win, active[i], FALSE);
  for (guint i = 0; ids[i]; i++)
    tl_window_set_kernel_active (win, ids[i], TRUE);
}

/* The first two kernels of the shown record that recorded their blocks
 * (ids[1] NULL when there are fewer). */
static inline void
gui_test_kernels_with_blocks (TlWindow *win, const char *ids[2])
{
  const TlRunRecord *rec = tl_window_get_record (win);
  ids[0] = ids[1] = NULL;
  for (guint i = 0, n = 0; rec && i < rec->runs->len && n < 2; i++)
    if (((const TlKernelRun *) rec->runs->pdata[i])->n_blocks > 0)
      ids[n++] = ((const TlKernelRun *) rec->runs->pdata[i])->kernel_id;
}

typedef gboolean (*GuiTestCond) (gpointer data);

static inline gboolean
gui_test_wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* A real main loop: blocking iterations, woken at least every 20 ms, until
 * cond holds (TRUE) or seconds pass (FALSE). */
static inline gboolean
gui_test_wait_until (GuiTestCond cond, gpointer data, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  guint wake = g_timeout_add (20, gui_test_wake_cb, NULL);
  gboolean ok = TRUE;
  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        {
          ok = FALSE;
          break;
        }
      g_main_context_iteration (NULL, TRUE);
    }
  g_source_remove (wake);
  return ok;
}

static inline gboolean
gui_test_never (gpointer data)
{
  return FALSE;
}

typedef struct
{
  GType type;
  gboolean exact;
  GtkWidget *found;
} GuiTestFind;

static inline void
gui_test_find_cb (GtkWidget *w, gpointer data)
{
  GuiTestFind *f = data;
  gboolean match = f->exact ? G_OBJECT_TYPE (w) == f->type : G_TYPE_CHECK_INSTANCE_TYPE (w, f->type);
  if (f->found == NULL && match)
    f->found = w;
  else if (f->found == NULL && GTK_IS_CONTAINER (w))
    gtk_container_forall (GTK_CONTAINER (w), gui_test_find_cb, data);
}

/* The first widget of type under root (depth first, internal children
 * too), or NULL. */
static inline GtkWidget *
gui_test_find_widget (GtkWidget *root, GType type)
{
  GuiTestFind f = { type, FALSE, NULL };
  gui_test_find_cb (root, &f);
  return f.found;
}

/* The same, of type itself and not a subclass: the first GtkCheckButton
 * that is not a GtkRadioButton. */
static inline GtkWidget *
gui_test_find_widget_exact (GtkWidget *root, GType type)
{
  GuiTestFind f = { type, TRUE, NULL };
  gui_test_find_cb (root, &f);
  return f.found;
}

/* runs the main loop for a while */
static inline void
gui_test_pump (double seconds)
{
  gui_test_wait_until (gui_test_never, NULL, seconds);
}

/* GtkSelectionData as GTK 3 lays it out (gtk/gtkselectionprivate.h; it
 * has no public constructor): what a drop of file URIs delivers. */
typedef struct
{
  GdkAtom selection, target, type;
  gint format;
  guchar *data;
  gint length;
  GdkDisplay *display;
} GuiTestDropData;

/* A drop of file onto toplevel, as a file manager sends it (X11 only:
 * FALSE elsewhere, nothing dropped). */
static inline gboolean
gui_test_drop_file (GtkWidget *toplevel, GFile *file)
{
#ifdef GDK_WINDOWING_X11
  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return FALSE;
  g_autofree char *uri = g_file_get_uri (file);
  g_autofree char *list = g_strdup_printf ("%s\r\n", uri);
  GdkAtom uri_list = gdk_atom_intern_static_string ("text/uri-list");
  GuiTestDropData drop = { GDK_SELECTION_PRIMARY, uri_list, uri_list, 8, (guchar *) list,
                           (gint) strlen (list), gdk_display_get_default () };
  /* an X11 context without a protocol: finishing the drop is a no-op */
  GdkDragContext *context = g_object_new (GDK_TYPE_X11_DRAG_CONTEXT, NULL);
  g_signal_emit_by_name (toplevel, "drag-data-received", context, 10, 10,
                         (GtkSelectionData *) &drop, 0, (guint) GDK_CURRENT_TIME);
  g_object_unref (context);
  return TRUE;
#else
  return FALSE;
#endif
}

/* The file chooser dialog shown now, or NULL. */
static inline GtkWidget *
gui_test_visible_chooser (void)
{
  GtkWidget *found = NULL;
  g_autoptr (GList) tops = gtk_window_list_toplevels ();
  for (GList *l = tops; l; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      found = l->data;
  return found;
}

/* Activates action (an Open) on win and chooses file in its file chooser
 * as a user would: waits for the dialog, and chooses the file once the
 * chooser has loaded its folder.  Returns the dialog, for a response. */
static inline GtkDialog *
gui_test_choose_in_dialog (GActionGroup *win, const char *action, GFile *file)
{
  /* the previous dialog is gone before the next is asked for */
  for (int tries = 0; tries < 3000 && gui_test_visible_chooser () != NULL; tries++)
    gui_test_pump (0.005);
  g_assert_null (gui_test_visible_chooser ());
  g_action_group_activate_action (win, action, NULL);
  GtkWidget *chooser = NULL;
  for (int tries = 0; tries < 3000 && chooser == NULL; tries++)
    {
      gui_test_pump (0.005);
      chooser = gui_test_visible_chooser ();
    }
  g_assert_nonnull (chooser);
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), file, NULL));
  /* the chooser loads the folder before it selects the file */
  for (int tries = 0; tries < 3000; tries++)
    {
      g_autoptr (GFile) chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      if (chosen && g_file_equal (chosen, file))
        break;
      gui_test_pump (0.005);
    }
  return GTK_DIALOG (chooser);
}

/* The same, and presses Open. */
static inline void
gui_test_open_with_dialog (GActionGroup *win, const char *action, GFile *file)
{
  gtk_dialog_response (gui_test_choose_in_dialog (win, action, file), GTK_RESPONSE_ACCEPT);
}

/* nothing loading, running or probing, and every heatmap drawn (data: the TlWindow) */
static inline gboolean
gui_test_window_settled (gpointer data)
{
  static const char *const maps[] = { "A", "B", "C", "ref", "err" };
  TlWindow *win = data;
  if (tl_window_is_busy (win))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    if (tl_heatmap_view_is_busy (TL_HEATMAP_VIEW (gui_test_heatmap (win, maps[i]))))
      return FALSE;
  /* the lesson's diff is made on a worker */
  return !tl_lesson_page_is_busy (TL_LESSON_PAGE (tl_window_get_page (win, "lesson")));
}

/* Opens docs/records/NAME of the source tree ($TL_SOURCE_DIR) as File ▸
 * Open does, waits until the window has settled, and checks that no
 * message bar came up. */
static inline void
gui_test_open_doc_record (TlWindow *win, const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("TL_SOURCE_DIR"), "docs", "records", name, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  tl_window_open_record (win, file);
  g_assert_true (gui_test_wait_until (gui_test_window_settled, win, 60));
  g_assert_null (tl_window_get_info_message (win));
}

/* A key as the keyboard sends it, through GTK's event dispatch to the
 * window: with the keyboard device and the hardware keycode, which
 * accelerators match on (F5 presents, Ctrl+H is high contrast, Escape
 * cancels).  The X server's own path (XTEST, as `xdotool key` takes) ends
 * in the same gtk_main_do_event. */
static inline void
gui_test_press_key_on (GtkWidget *toplevel, guint keyval, GdkModifierType mods)
{
  GdkDisplay *display = gdk_display_get_default ();
  GdkKeymapKey *keys = NULL;
  int n_keys = 0;
  gdk_keymap_get_entries_for_keyval (gdk_keymap_get_for_display (display), keyval, &keys, &n_keys);
  GdkEvent *ev = gdk_event_new (GDK_KEY_PRESS);
  ev->key.window = g_object_ref (gtk_widget_get_window (toplevel));
  ev->key.keyval = keyval;
  ev->key.state = mods;
  ev->key.time = GDK_CURRENT_TIME;
  ev->key.hardware_keycode = n_keys > 0 ? keys[0].keycode : 9;
  ev->key.group = n_keys > 0 ? keys[0].group : 0;
  gdk_event_set_device (ev, gdk_seat_get_keyboard (gdk_display_get_default_seat (display)));
  gtk_main_do_event (ev);
  gdk_event_free (ev);
  g_free (keys);
}

static inline void
gui_test_press_key (TlWindow *win, guint keyval, GdkModifierType mods)
{
  gui_test_press_key_on (GTK_WIDGET (win), keyval, mods);
}

/* Types text as keys (ASCII: a file name) into the focus of toplevel. */
static inline void
gui_test_type_on (GtkWidget *toplevel, const char *text)
{
  for (const char *p = text; *p; p++)
    gui_test_press_key_on (toplevel, gdk_unicode_to_keyval ((guchar) *p), 0);
}

/* The application, registered and held, with its window: what a tool that
 * drives the app from its own main loop starts with.  The caller owns app. */
static inline TlWindow *
gui_test_start_app (TlApplication **app)
{
  *app = tl_application_new ();
  g_application_register (G_APPLICATION (*app), NULL, NULL);
  g_application_hold (G_APPLICATION (*app));
  g_main_context_acquire (g_main_context_default ());
  g_application_activate (G_APPLICATION (*app));
  return TL_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (*app)));
}

/* What one GUI test program adds around the window gui_test_run_app
 * starts for it. */
typedef struct
{
  /* tl_locale_init after gui_test_init_for_window (which sets the C locale),
   * as the app's main does: LANGUAGE=de finds the build tree's catalogue */
  gboolean app_locale;
  /* the window shown and settled: g_test_add_func, records opened, a size */
  void (*add_tests) (void);
  /* after the tests, before the window goes: scratch removed */
  void (*after_tests) (void);
} GuiTestApp;

/* A GUI test's main(): 77 (skip) without a display; otherwise starts the
 * app with its window (*win while the tests run), waits until it has
 * settled, runs the tests test adds and closes the window and the app.
 * Returns g_test_run's status. */
static inline int
gui_test_run_app (int argc, char **argv, const GuiTestApp *test, TlWindow **win)
{
  if (!gui_test_init_for_window (&argc, &argv))
    return 77;
  if (test->app_locale)
    tl_locale_init ();
  TlApplication *app = NULL;
  *win = gui_test_start_app (&app);
  g_assert_true (gui_test_wait_until (gui_test_window_settled, *win, 30));
  if (test->add_tests)
    test->add_tests ();
  int rc = g_test_run ();

  if (test->after_tests)
    test->after_tests ();
  gtk_widget_destroy (GTK_WIDGET (*win));
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return rc;
}

/* The window fills the screen it is shot on (Xvfb's -screen), as on a
 * projector, up to max_w×max_h: the header bar and the resize border,
 * which come on top of the size asked for, are taken off. */
static inline void
gui_test_fill_screen (TlWindow *win, int max_w, int max_h)
{
  GdkRectangle area = { 0, 0, max_w, max_h };
  GdkMonitor *monitor = gdk_display_get_primary_monitor (gdk_display_get_default ());
  if (monitor != NULL)
    gdk_monitor_get_geometry (monitor, &area);
  int want_w = MIN (area.width, max_w), want_h = MIN (area.height, max_h);
  gtk_window_move (GTK_WINDOW (win), 0, 0);
  gtk_window_resize (GTK_WINDOW (win), want_w, want_h);
  gui_test_wait_until (gui_test_window_settled, win, 30);
  int extra_w = gtk_widget_get_allocated_width (GTK_WIDGET (win)) - want_w;
  int extra_h = gtk_widget_get_allocated_height (GTK_WIDGET (win)) - want_h;
  if (extra_w > 0 || extra_h > 0)
    {
      gtk_window_resize (GTK_WINDOW (win), want_w - MAX (extra_w, 0), want_h - MAX (extra_h, 0));
      gui_test_pump (0.3);
    }
}

/* Removes a test's scratch folder and the plain files in it. */
static inline void
gui_test_remove_folder (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  for (const char *name; d && (name = g_dir_read_name (d));)
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      g_unlink (p);
    }
  g_rmdir (dir);
}

/* The texts widget paints, drawn as the window draws it, into a surface
 * of its size.  A resize queued since the window settled (the slower ASan
 * build meets one) is done first: GTK draws only a widget whose
 * allocation is done.  The picture is kept at PNG_PATH where not NULL. */
static inline TlPaintTextBoxes *
gui_test_widget_texts_kept (GtkWidget *widget, const char *png_path)
{
  gtk_container_check_resize (GTK_CONTAINER (gtk_widget_get_toplevel (widget)));
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, gtk_widget_get_allocated_width (widget),
                                                   gtk_widget_get_allocated_height (widget));
  cairo_t *cr = cairo_create (s);
  TlPaintTextBoxes *boxes = tl_paint_text_boxes_new ();
  tl_paint_text_boxes_attach (cr, boxes);
  gtk_widget_draw (widget, cr);
  tl_paint_text_boxes_attach (cr, NULL);
  cairo_destroy (cr);
  if (png_path != NULL)
    g_assert_cmpint (cairo_surface_write_to_png (s, png_path), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (s);
  return boxes;
}

/* the same, the picture not kept */
static inline TlPaintTextBoxes *
gui_test_widget_texts (GtkWidget *widget)
{
  return gui_test_widget_texts_kept (widget, NULL);
}
