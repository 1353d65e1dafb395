/* tl-window.h — Tilelab's main window: a header bar, the sidebar's panels,
 * the views (one TlPage each) and a status bar around one TlSession.
 * The functions below are the app's entry points and what tests drive. */
#pragma once

#include <gtk/gtk.h>
#include "core/tl-matrix.h"
#include "record/tl-record.h"
#include "tl-session.h"

G_BEGIN_DECLS

#define TL_TYPE_WINDOW (tl_window_get_type ())
G_DECLARE_FINAL_TYPE (TlWindow, tl_window, TL, WINDOW, GtkApplicationWindow)

TlWindow    *tl_window_new (GtkApplication *app);

/* Opens files: matrices go to A then B (one file: the empty side, else
 * A); .json files are run records. */
void         tl_window_open_files (TlWindow *self, GFile **files, int n_files);
/* Loads a matrix file into A or B off the main loop. */
void         tl_window_load_source (TlWindow *self, guint target, GFile *file);
/* Generates (off the main loop) into the targets: A gets seed, B seed + 1. */
void         tl_window_generate (TlWindow *self, guint targets, const char *spec,
                                 gsize rows, gsize cols, TlDtype dtype, guint64 seed);
/* "random-uniform:512": A and B both 512×512.  FALSE if the form is wrong. */
gboolean     tl_window_generate_from_option (TlWindow *self, const char *spec_n, GError **error);
void         tl_window_open_record (TlWindow *self, GFile *file);

void         tl_window_set_kernel_active (TlWindow *self, const char *kernel_id, gboolean active);
/* the ticked kernel ids (free with g_strfreev) */
char       **tl_window_get_active_kernels (TlWindow *self);
gboolean     tl_window_run (TlWindow *self);
void         tl_window_cancel (TlWindow *self);

/* state, for tests and probes */
TlMatrix    *tl_window_get_source (TlWindow *self, guint target);
const char  *tl_window_get_info_message (TlWindow *self); /* NULL when the info bar is hidden */
/* the status bar's left line: what the pointer is over, or what the page on show offers to read */
const char  *tl_window_get_hover_text (TlWindow *self);
gboolean     tl_window_is_running (TlWindow *self);
gboolean     tl_window_is_busy (TlWindow *self);          /* loading, generating or running */
guint        tl_window_get_n_live_results (TlWindow *self);
const TlRunRecord *tl_window_get_record (TlWindow *self);
void         tl_window_show_view (TlWindow *self, const char *name);
/* shows text in the window's one info bar */
void         tl_window_report (TlWindow *self, GtkMessageType type, const char *text);
/* starts the size sweep of the ticked kernels (n = 128 … current n) */
void         tl_window_run_sweep (TlWindow *self);
/* a page of the stack, for tests and probes: "matrices", "compare", "blocks", … */
GtkWidget   *tl_window_get_page (TlWindow *self, const char *name);
TlSession   *tl_window_get_session (TlWindow *self);
void         tl_window_set_presentation (TlWindow *self, gboolean on);
/* What Export (Ctrl+E) does once a file is chosen: the view on show,
 * drawn and written off the main loop */
void         tl_window_export_async  (TlWindow *self, GFile *file, GCancellable *cancellable,
                                      GAsyncReadyCallback callback, gpointer user_data);
gboolean     tl_window_export_finish (TlWindow *self, GAsyncResult *result, GError **error);

G_END_DECLS
