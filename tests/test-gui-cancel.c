/* test-gui-cancel.c — part of test-gui: cancelling a run (before and after a kernel finished) and Factor A. */
#include "test-gui-window.h"

#include <math.h>
#include <glib/gstdio.h>

#include "view/tl-player.h"
#include "tl-compare-page.h"
#include "tl-device-page.h"
#include "tl-heatmap-view.h"
#include "tl-blocks-page.h"
#include "tl-gauss-page.h"
#include "tl-render-area.h"
#include "tl-session.h"
#include "tl-source-page.h"
#include "lu/tl-lu.h"
#include "record/tl-record.h"

void
test_cancel (void)
{
  static const char *const ids[] = { "cpu-naive", NULL };

  /* long enough to still be running when cancelled: naive 1024³, 50 repeats */
  tl_window_generate (win, TL_TARGET_A | TL_TARGET_B, "random-uniform", 1024, 1024, TL_DTYPE_FLOAT64, 5);
  g_assert_true (wait_until (is_idle, NULL, 30));
  gui_test_only_kernels (win, ids);
  g_assert_true (tl_window_run (win));
  g_assert_true (wait_until (is_running, NULL, 5));
  pump (0.5);
  /* while it runs, the views switch and the window keeps answering */
  tl_window_show_view (win, "compare");
  pump (0.1);
  tl_window_show_view (win, "matrices");
  g_assert_true (tl_window_is_running (win));
  gint64 t0 = g_get_monotonic_time ();
  tl_window_cancel (win);
  g_assert_true (wait_until (is_idle, NULL, 30));
  g_test_message ("cancelled after %.0f ms", (g_get_monotonic_time () - t0) / 1000.0);
  const char *msg = tl_window_get_info_message (win);
  g_assert_nonnull (msg);
  g_assert_nonnull (strstr (msg, "cancelled"));
  g_assert_null (tl_window_get_record (win));
  /* the inputs are untouched */
  g_assert_cmpuint (tl_window_get_source (win, TL_TARGET_A)->rows, ==, 1024);
}

static gboolean
one_kernel_finished (gpointer data)
{
  return tl_window_get_n_live_results (win) >= 1;
}

/* Cancelled after the first of two kernels finished: the record keeps it,
 * marks the other cancelled, and the window says the run was cancelled
 * (never a partial result shown as whole). */
void
test_cancel_keeps_finished (void)
{
  /* OpenBLAS runs first (it is naive's yardstick), then naive 1024³ float64
   * (A and B from test_cancel), which is still running when cancelled */
  static const char *const ids[] = { "cpu-naive", "cpu-openblas", NULL };
  gui_test_only_kernels (win, ids);
  g_assert_true (tl_window_run (win));
  g_assert_true (wait_until (one_kernel_finished, NULL, 60));
  pump (0.3);
  g_assert_true (tl_window_is_running (win));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "cancel"));
  g_action_group_activate_action (G_ACTION_GROUP (win), "cancel", NULL); /* what Escape does */
  g_assert_true (wait_until (is_idle, NULL, 30));

  const TlRunRecord *rec = tl_window_get_record (win);
  g_assert_nonnull (rec);
  g_assert_true (rec->cancelled);
  g_assert_cmpuint (rec->runs->len, ==, 2);
  const TlKernelRun *blas = tl_run_record_find_run (rec, "cpu-openblas");
  const TlKernelRun *naive = tl_run_record_find_run (rec, "cpu-naive");
  g_assert_cmpint (blas->status, ==, TL_RUN_OK);
  g_assert_true (blas->verified && blas->passed);
  g_assert_cmpint (naive->status, ==, TL_RUN_CANCELLED);
  g_assert_cmpuint (naive->time.count, ==, 0);
  /* Compare: a bar for the finished kernel, a row saying "cancelled" for the other */
  g_assert_cmpuint (tl_compare_page_get_n_bars (gui_test_compare (win)), ==, 2);
  const char *msg = tl_window_get_info_message (win);
  g_assert_nonnull (msg);
  g_assert_nonnull (strstr (msg, "cancelled"));
  g_assert_nonnull (strstr (msg, "1 of 2"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "cancel"));
}

static gboolean
is_factoring (gpointer data)
{
  return tl_session_is_factoring (tl_window_get_session (win));
}

/* Escape stops Factor A between steps; the player keeps what it had. */
void
test_cancel_factor (void)
{
  TlGaussPage *gauss = TL_GAUSS_PAGE (tl_window_get_page (win, "gauss"));
  const TlLuRecorder *before = tl_gauss_page_get_record (gauss);
  tl_window_generate (win, TL_TARGET_A, "random-uniform", 1500, 1500, TL_DTYPE_FLOAT64, 31);
  g_assert_true (wait_until (is_idle, NULL, 30));
  tl_window_show_view (win, "gauss");
  tl_gauss_page_factor (gauss);
  g_assert_true (wait_until (is_factoring, NULL, 5));
  pump (0.3);
  g_assert_true (is_factoring (NULL));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (win), "cancel"));
  gint64 t0 = g_get_monotonic_time ();
  g_action_group_activate_action (G_ACTION_GROUP (win), "cancel", NULL);
  g_assert_true (wait_until (is_idle, NULL, 10));
  g_test_message ("Factor A cancelled after %.0f ms", (g_get_monotonic_time () - t0) / 1000.0);
  g_assert_true (tl_gauss_page_get_record (gauss) == before);
  const char *msg = tl_window_get_info_message (win); /* a cancel is no error */
  g_assert_true (msg == NULL || strstr (msg, "Could not factor") == NULL);
  tl_window_show_view (win, "matrices");
}
