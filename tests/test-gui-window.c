/* test-gui-window.c — the one application and window test-gui drives, and
 * waiting on them. */
#include "test-gui-window.h"
#include "json-parse-count.h"

TlApplication *app;
TlWindow *win;

gboolean
wait_until (Cond cond, gpointer data, double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (!cond (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (win));
}

gboolean
is_idle (gpointer data)
{
  return !tl_window_is_busy (win);
}

gboolean
heatmaps_pooled (gpointer data)
{
  static const char *const names[] = { "C", "error" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      TlHeatmapView *v = TL_HEATMAP_VIEW (gui_test_heatmap (win, names[i]));
      TlHeatmapModel m;
      tl_heatmap_view_get_model (v, &m);
      if (tl_heatmap_view_is_busy (v) || m.grid == NULL)
        return FALSE;
    }
  return TRUE;
}

gboolean
is_running (gpointer data)
{
  return tl_window_is_running (win);
}

void
pump (double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

char *
record_path (const char *name)
{
  return g_build_filename (g_getenv ("TL_SOURCE_DIR"), "docs", "records", name, NULL);
}

void
count_json_parses (void)
{
  json_parse_count_install ();
}

guint
json_parses_so_far (void)
{
  return json_parse_count ();
}
