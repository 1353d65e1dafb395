/* test-gui.c — the window under Xvfb: launch, generate, run, cancel, bad input.
 *
 * One application and one window for all cases, as a user would go
 * through them.  Exits 77 (skip) without a display.  The cases live in
 * test-gui-{run,cancel,files,blocks,keys}.c; main adds them in the order
 * they run (each starts from the window the one before left).
 */
#include "test-gui-window.h"

int
main (int argc, char **argv)
{
  count_json_parses ();
  if (!gui_test_init_check (&argc, &argv))
    return 77;

  /* Own the main context for the whole test, as a running GMainLoop does:
   * the runner's worker then always posts to it instead of calling in. */
  g_assert_true (g_main_context_acquire (g_main_context_default ()));

  app = tl_application_new ();
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  g_application_hold (G_APPLICATION (app));

  g_test_add_func ("/gui/launch", test_launch);
  g_test_add_func ("/gui/status-hint", test_status_hint);
  g_test_add_func ("/gui/bar-tooltip", test_bar_tooltip);
  g_test_add_func ("/gui/open-files", test_open_files);
  g_test_add_func ("/gui/generate", test_generate);
  g_test_add_func ("/gui/run-cpu", test_run_cpu);
  g_test_add_func ("/gui/lecture-views", test_lecture_views);
  g_test_add_func ("/gui/cancel", test_cancel);
  g_test_add_func ("/gui/cancel-keeps-finished", test_cancel_keeps_finished);
  g_test_add_func ("/gui/cancel-factor", test_cancel_factor);
  g_test_add_func ("/gui/malformed-file", test_malformed);
  g_test_add_func ("/gui/size-mismatch", test_size_mismatch);
  g_test_add_func ("/gui/open-record", test_open_record);
  g_test_add_func ("/gui/records-side-by-side", test_records_side_by_side);
  g_test_add_func ("/gui/blocks-time-scale", test_blocks_time_scale);
  g_test_add_func ("/gui/blocks-toolbar-rows", test_blocks_toolbar_rows);
  g_test_add_func ("/gui/blocks-other-record", test_blocks_other_record);
  g_test_add_func ("/gui/blocks-record-choice", test_blocks_record_choice);
  g_test_add_func ("/gui/blocks-record-named-presenting", test_blocks_record_named_presenting);
  g_test_add_func ("/gui/blocks-grid-share", test_blocks_grid_share);
  g_test_add_func ("/gui/blocks-grid-as-painted", test_blocks_grid_as_painted);
  g_test_add_func ("/gui/blocks-two-grids", test_blocks_two_grids);
  g_test_add_func ("/gui/fresh-results", test_fresh_results);
  g_test_add_func ("/gui/menu-and-sidebar-keys", test_menu_and_sidebar_keys);
  g_test_add_func ("/gui/high-contrast-follows", test_high_contrast_follows);
  g_test_add_func ("/gui/shortcuts-window", test_shortcuts_window_lists_the_keys);
  g_test_add_func ("/gui/shortcuts-window-fits", test_shortcuts_window_fits);
  g_test_add_func ("/gui/remembers-kernels", test_remembers_kernels);
  int rc = g_test_run ();

  if (win)
    gtk_widget_destroy (GTK_WIDGET (win));
  g_application_release (G_APPLICATION (app));
  g_object_unref (app);
  return rc;
}
