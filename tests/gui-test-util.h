/* gui-test-util.h — shared by the tests and the probe that drive the
 * window: choosing which kernels run, letting the main loop run. */
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

/* Runs the main loop for a while (the window's workers post to it). */
static inline void
gui_test_pump (double seconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);
  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}
