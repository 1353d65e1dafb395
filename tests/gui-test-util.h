/* gui-test-util.h — shared by the tests and the probes that drive the
 * window: choosing which kernels run, waiting on a real main loop. */
#pragma once

#include "tl-window.h"

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

typedef gboolean (*GuiTestCond) (gpointer data);

static inline gboolean
gui_test_wake_cb (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop (blocking iterations, woken at least every 20 ms)
 * until cond holds; FALSE when `seconds` passed first. */
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

/* Runs the main loop for `seconds`. */
static inline void
gui_test_pump (double seconds)
{
  gui_test_wait_until (gui_test_never, NULL, seconds);
}
