/* tl-kernel-panel.h — the sidebar's kernel list (every rung of the
 * registry, each with its lesson), the data type and the timed repeats.
 * "changed" when a tick or the data type changes. */
#pragma once

#include <gtk/gtk.h>
#include "core/tl-matrix.h"

G_BEGIN_DECLS

#define TL_TYPE_KERNEL_PANEL (tl_kernel_panel_get_type ())
G_DECLARE_FINAL_TYPE (TlKernelPanel, tl_kernel_panel, TL, KERNEL_PANEL, GtkBox)

void     tl_kernel_panel_set_active (TlKernelPanel *self, const char *kernel_id, gboolean active);
/* the ticked kernels that can run now (free with g_strfreev) */
char   **tl_kernel_panel_get_active (TlKernelPanel *self);
/* Unticks all, then ticks a small ladder: the CPU kernels, or a GPU
 * rung from each end of the ladder beside the CPU loop and cuBLAS. */
void     tl_kernel_panel_tick_defaults (TlKernelPanel *self, gboolean have_gpu);
/* GPU kernels cannot run on the CPU backend */
void     tl_kernel_panel_set_cpu_only (TlKernelPanel *self, gboolean cpu_only);
TlDtype  tl_kernel_panel_get_dtype   (TlKernelPanel *self);
guint    tl_kernel_panel_get_repeats (TlKernelPanel *self);
/* "Count hardware events": GPU runs also count (docs/counters.md) */
gboolean tl_kernel_panel_get_counters (TlKernelPanel *self);
/* remembers the data type and repeats */
void     tl_kernel_panel_bind_settings (TlKernelPanel *self, GSettings *settings);

G_END_DECLS
