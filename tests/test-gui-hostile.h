/* test-gui-hostile.h — what the parts of test-gui-hostile share: the app
 * looked at from outside, the folder of hostile files. */
#pragma once

#include <gtk/gtk.h>

#include "tl-window.h"

extern char *dir; /* the hostile files */

GtkWindow  *main_window           (void);
/* the text of every label under w, appended to data (a GString) */
void        collect_labels        (GtkWidget *w, gpointer data);
/* the error and warning text the window shows now ("" when none) */
char       *shown_errors          (void);
/* waits until the window shows an error naming name, and returns it */
char       *wait_for_error        (const char *name, double seconds);
const char *progress_text         (void);
/* what the sidebar's cards of A and B say now */
char       *cards_text            (void);
/* what A's heatmap on the Matrices page says when it has no matrix */
const char *heatmap_a_placeholder (void);
/* the main loop answers and the window is up */
void        assert_responsive     (void);
/* name in the folder of hostile files, with data */
char       *write_file            (const char *name, const char *data, gssize len);
GFile      *hostile               (const char *name);

/* test-gui-hostile-load.c */
void        wait_until_idle       (TlWindow *win, double seconds);
void        open_as_a             (const char *path);
void        test_load_live                 (void);
void        test_load_cancel_and_fail_keep (void);
void        test_error_outlives_other_load (void);
void        test_two_failures              (void);
void        test_npy_every_way_keeps_shown (void);
void        gui_hostile_load_cleanup       (void);
