/* test-gui-window.h — what the parts of test-gui (one program: one
 * application and one window for all cases, as a user would go through
 * them) share, and the tests each part adds. */
#pragma once

#include <gtk/gtk.h>

#include "tl-application.h"
#include "tl-window.h"

#include "gui-test-util.h"

extern TlApplication *app;
extern TlWindow *win;

typedef gboolean (*Cond) (gpointer data);

/* iterates the main context until cond holds; FALSE after seconds */
gboolean wait_until (Cond cond, gpointer data, double seconds);
/* conditions on the window */
gboolean is_mapped (gpointer data);
gboolean is_idle (gpointer data);
gboolean is_running (gpointer data);
/* the C and error heatmaps have pooled their grids */
gboolean heatmaps_pooled (gpointer data);
/* iterates the main context for seconds */
void     pump (double seconds);
/* docs/records/name (g_free) */
char    *record_path (const char *name);
/* JSON texts parsed so far in this process (counting from main's first line) */
void     count_json_parses (void);
guint    json_parses_so_far (void);

/* test-gui-run.c: launch, inputs, a CPU run and the lecture views */
void test_launch (void);
void test_open_files (void);
void test_generate (void);
void test_run_cpu (void);
void test_lecture_views (void);
void test_status_hint (void);
void test_bar_tooltip (void);
void test_fresh_results (void);
void test_remembers_kernels (void);
/* test-gui-cancel.c: cancelling a run and a factorisation */
void test_cancel (void);
void test_cancel_keeps_finished (void);
void test_cancel_factor (void);
/* test-gui-files.c: bad input files and run records */
void test_malformed (void);
void test_size_mismatch (void);
void test_open_record (void);
void test_records_side_by_side (void);
/* test-gui-blocks.c: the Blocks page's time scales and toolbar */
void test_blocks_time_scale (void);
void test_blocks_toolbar_rows (void);
void test_blocks_other_record (void);
void test_blocks_record_choice (void);
void test_blocks_record_named_presenting (void);
void test_blocks_grid_share (void);
void test_blocks_grid_as_painted (void);
void test_blocks_two_grids (void);
/* test-gui-keys.c: keys and the shortcuts window */
void test_menu_and_sidebar_keys (void);
void test_high_contrast_follows (void);
void test_shortcuts_window_lists_the_keys (void);
void test_shortcuts_window_fits (void);
