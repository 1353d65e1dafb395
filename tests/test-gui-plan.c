/* test-gui-plan.c — the views teach the plans: a record of a planned rung
 * (made here, as an H200 would write it) opened in the window shows its
 * plan on the Blocks page's tile grid (the last wave's tiles, the numbers,
 * the sentence of why; also from a record without block timings) and in
 * the Source page's header; the size sweep runs every ticked kernel with
 * its vendor over a size list on the CPU, with progress, and can be
 * cancelled.  Exits 77 (skip) without a display.
 */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "paint/tl-paint-text-boxes.h"
#include "tl-blocks-page.h"
#include "tl-source-page.h"
#include "tl-window.h"
#include "view/tl-plan-view.h"
#include "view/tl-sweep-sizes.h"

#include "gui-test-util.h"
#include "plan-test-util.h"

static TlWindow *win;
static char *dir;

static gboolean
is_idle (gpointer data)
{
  return gui_test_window_settled (win);
}

/* A planned record saved under dir and opened in the window; the plan the
 * views should show comes back in *out_plan. */
static void
open_planned (const char *name, gboolean with_blocks, TlPlanView **out_plan)
{
  g_autoptr (TlRunRecord) rec = tl_test_planned_record (1000, 777, 1111, with_blocks);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_run_record_save (rec, path, TL_RECORD_SAVE_DEFAULT, &error));
  g_assert_no_error (error);
  *out_plan = tl_plan_view_new_for_record (rec, rec->runs->pdata[0]);
  g_assert_nonnull (*out_plan);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  tl_window_open_record (win, file);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 60));
  g_assert_null (tl_window_get_info_message (win));
}

/* whether a box holds exactly text */
static gboolean
has_text (const TlPaintTextBoxes *boxes, const char *text)
{
  for (guint i = 0; i < tl_paint_text_boxes_len (boxes); i++)
    if (g_strcmp0 (tl_paint_text_boxes_index (boxes, i)->text, text) == 0)
      return TRUE;
  return FALSE;
}

/* The texts the window paints, as a reader would see them; with
 * $TL_TEST_PICTURES set, the picture is kept there as NAME-WxH.png (the
 * window fills Xvfb's screen then: run under 1024×768 and 1920×1080). */
static TlPaintTextBoxes *
painted_texts_shot (const char *name)
{
  GtkWidget *w = GTK_WIDGET (win);
  gtk_container_check_resize (GTK_CONTAINER (win));
  const char *keep = g_getenv ("TL_TEST_PICTURES");
  g_autofree char *path = NULL;
  if (keep != NULL && name != NULL)
    {
      g_autofree char *file = g_strdup_printf ("%s-%dx%d.png", name, gtk_widget_get_allocated_width (w),
                                               gtk_widget_get_allocated_height (w));
      path = g_build_filename (keep, file, NULL);
    }
  return gui_test_widget_texts_kept (w, path);
}


static void
assert_blocks_show_plan (const TlPlanView *plan, const char *shot)
{
  TlBlocksPage *blocks = TL_BLOCKS_PAGE (tl_window_get_page (win, "blocks"));
  tl_window_show_view (win, "blocks");
  tl_blocks_page_show_kernels (blocks, "gemm-17-simt-tma", NULL);
  gui_test_pump (0.3);
  g_autoptr (TlPaintTextBoxes) boxes = painted_texts_shot (shot);
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, plan->name));
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "of the last wave"));
  g_autofree char *tiles = g_strdup_printf ("%u rows × %u columns of %u×%u tiles", plan->tiles_m,
                                            plan->tiles_n, plan->tile_m, plan->tile_n);
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, tiles));
  /* the sentence of why starts on the page */
  g_autofree char *why_start = g_strndup (plan->why, 20);
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, why_start));
}

/* The Blocks page: a planned rung's tiles with its plan, with and without
 * block timings, in the window and in presentation */
static void
test_blocks (void)
{
  g_autoptr (TlPlanView) timed = NULL, untimed = NULL;
  open_planned ("planned.json", TRUE, &timed);
  assert_blocks_show_plan (timed, "blocks-plan");
  tl_window_set_presentation (win, TRUE);
  gui_test_pump (0.3);
  assert_blocks_show_plan (timed, "blocks-plan-presentation");
  tl_window_set_presentation (win, FALSE);

  open_planned ("planned-untimed.json", FALSE, &untimed);
  assert_blocks_show_plan (untimed, "blocks-plan-untimed");
}

static gboolean
label_contains (GtkWidget *w, const char *needle)
{
  if (GTK_IS_LABEL (w) && strstr (gtk_label_get_text (GTK_LABEL (w)), needle) != NULL)
    return gtk_widget_is_drawable (w);
  if (!GTK_IS_CONTAINER (w))
    return FALSE;
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (w));
  for (GList *l = children; l; l = l->next)
    if (label_contains (l->data, needle))
      return TRUE;
  return FALSE;
}

/* The Source page: the planned rung's header says what its plan chose and why */
static void
test_source (void)
{
  g_autoptr (TlPlanView) plan = NULL;
  open_planned ("planned-source.json", TRUE, &plan);
  GtkWidget *source = GTK_WIDGET (tl_window_get_page (win, "source"));
  tl_window_show_view (win, "source");
  tl_source_page_show_kernel (TL_SOURCE_PAGE (source), "gemm-17-simt-tma");
  gui_test_pump (0.3);
  g_autofree char *chosen = g_strdup_printf ("This run's plan, %s", plan->name);
  g_assert_true (label_contains (source, chosen));
  g_assert_true (label_contains (source, "The cost model"));
  g_assert_true (label_contains (source, plan->why));
  /* a rung without a plan says none */
  tl_source_page_show_kernel (TL_SOURCE_PAGE (source), "gemm-03-smem16");
  gui_test_pump (0.3);
  g_assert_false (label_contains (source, "The cost model"));
}

static gboolean
history_has (gpointer data)
{
  TlSession *session = tl_window_get_session (win);
  return !tl_session_is_running (session)
         && tl_session_get_history (session)->len >= GPOINTER_TO_UINT (data);
}

/* The size sweep on the CPU: every ticked kernel and its vendor at each
 * size of the list, from the window's action */
static void
test_sweep_cpu (void)
{
  static const char *const ticked[] = { "cpu-blocked", NULL };
  TlSession *session = tl_window_get_session (win);
  tl_window_generate_from_option (win, "random-uniform:64", NULL);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 60));
  gui_test_only_kernels (win, ticked);
  guint before = tl_session_get_history (session)->len;

  /* Compare's size list: a wrong item is marked and said, the last good list kept */
  GtkWidget *compare = GTK_WIDGET (tl_window_get_page (win, "compare"));
  tl_window_show_view (win, "compare");
  GtkWidget *entry = gui_test_find_widget_exact (compare, GTK_TYPE_ENTRY);
  g_assert_nonnull (entry);
  g_assert_cmpstr (gtk_entry_get_text (GTK_ENTRY (entry)), ==, TL_SWEEP_SIZES_DEFAULT);
  gtk_entry_set_text (GTK_ENTRY (entry), "64, 0");
  g_assert_true (gtk_style_context_has_class (gtk_widget_get_style_context (entry), GTK_STYLE_CLASS_ERROR));
  g_autofree char *tip = gtk_widget_get_tooltip_text (entry);
  g_assert_nonnull (strstr (tip, "“0”"));
  g_autofree char *kept = tl_session_get_sweep_sizes (session);
  g_assert_cmpstr (kept, ==, TL_SWEEP_SIZES_DEFAULT);
  gtk_entry_set_text (GTK_ENTRY (entry), "64, 96x80x112");
  g_assert_false (gtk_style_context_has_class (gtk_widget_get_style_context (entry), GTK_STYLE_CLASS_ERROR));
  g_autofree char *sizes = tl_session_get_sweep_sizes (session);
  g_assert_cmpstr (sizes, ==, "64, 96×80×112");

  g_action_group_activate_action (G_ACTION_GROUP (win), "sweep", NULL);
  g_assert_true (tl_session_is_running (session));
  g_assert_true (gui_test_wait_until (history_has, GUINT_TO_POINTER (before + 2), 120));

  GPtrArray *history = tl_session_get_history (session);
  const TlKernelInfo *blocked = tl_kernel_find ("cpu-blocked");
  const TlKernelInfo *vendor = tl_kernel_reference (blocked, TL_DTYPE_FLOAT32);
  const gsize want[2][3] = { { 64, 64, 64 }, { 96, 80, 112 } };
  for (guint i = 0; i < 2; i++)
    {
      const TlRunRecord *rec = history->pdata[before + i];
      /* the sizes run one after the other, in the list's order */
      g_assert_cmpuint (rec->job->m, ==, want[i][0]);
      g_assert_cmpuint (rec->job->k, ==, want[i][1]);
      g_assert_cmpuint (rec->job->n, ==, want[i][2]);
      const TlKernelRun *mine = tl_run_record_find_run (rec, "cpu-blocked");
      g_assert_nonnull (mine);
      g_assert_cmpint (mine->status, ==, TL_RUN_OK);
      g_assert_true (mine->passed);
      if (vendor != NULL)
        {
          const TlKernelRun *v = tl_run_record_find_run (rec, vendor->id);
          g_assert_nonnull (v);
          g_assert_cmpint (v->status, ==, TL_RUN_OK);
          g_assert_cmpfloat (mine->percent_of_reference, >, 0);
        }
      else
        g_assert_cmpuint (rec->runs->len, ==, 1);
    }

  /* the sweep as % of the vendor: its own axis, and the vendor at 100%
   * (the Bars | Sweep radio buttons, check buttons too, come first) */
  GtkWidget *percent = gui_test_find_widget_exact (compare, GTK_TYPE_CHECK_BUTTON);
  g_assert_nonnull (percent);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (percent), TRUE);
  gui_test_pump (0.3);
  g_autoptr (TlPaintTextBoxes) boxes = painted_texts_shot ("sweep-percent");
  g_assert_nonnull (tl_paint_text_boxes_find (boxes, "% of the vendor, log scale"));
  /* the vendor's line ends in its tag, which the chart keeps a copy of */
  if (vendor != NULL)
    g_assert_true (has_text (boxes, "OpenBLAS"));
  tl_window_set_presentation (win, TRUE);
  gui_test_pump (0.3);
  g_autoptr (TlPaintTextBoxes) shown = painted_texts_shot ("sweep-percent-presentation");
  tl_window_set_presentation (win, FALSE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (percent), FALSE);
}

/* Cancel: Escape's action stops the sweep; what finished stays */
static void
test_sweep_cancel (void)
{
  static const char *const ticked[] = { "cpu-naive", NULL };
  TlSession *session = tl_window_get_session (win);
  gui_test_only_kernels (win, ticked);
  g_assert_true (tl_session_set_sweep_sizes (session, "64, 1500, 1600, 1700", NULL));
  g_action_group_activate_action (G_ACTION_GROUP (win), "sweep", NULL);
  g_assert_true (tl_session_is_running (session));
  gui_test_pump (0.5);
  gint64 t0 = g_get_monotonic_time ();
  g_action_group_activate_action (G_ACTION_GROUP (win), "cancel", NULL);
  g_assert_true (gui_test_wait_until (is_idle, NULL, 60));
  g_assert_false (tl_session_is_running (session));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 30 * G_USEC_PER_SEC);
  g_assert_nonnull (tl_window_get_info_message (win));
  g_assert_true (tl_session_set_sweep_sizes (session, TL_SWEEP_SIZES_DEFAULT, NULL));
}

static void
add_tests (void)
{
  g_autoptr (GError) error = NULL;
  dir = g_dir_make_tmp ("tilelab-plan-XXXXXX", &error);
  g_assert_no_error (error);
  if (g_getenv ("TL_TEST_PICTURES"))
    gui_test_fill_screen (win, 1920, 1080);
  else
    gtk_window_resize (GTK_WINDOW (win), 1400, 900);
  g_test_add_func ("/gui-plan/blocks", test_blocks);
  g_test_add_func ("/gui-plan/source", test_source);
  g_test_add_func ("/gui-plan/sweep-cpu", test_sweep_cpu);
  g_test_add_func ("/gui-plan/sweep-cancel", test_sweep_cancel);
}

static void
after_tests (void)
{
  gui_test_remove_folder (dir);
}

int
main (int argc, char **argv)
{
  const GuiTestApp test = { .add_tests = add_tests, .after_tests = after_tests };
  return gui_test_run_app (argc, argv, &test, &win);
}
