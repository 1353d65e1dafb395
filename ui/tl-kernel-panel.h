/* tl-kernel-panel.h — the sidebar's kernels: where they run (a GPU or the
 * CPU, here or on another machine; Hosts… beside it adds machines), the list (every rung of the registry, each with its lesson), the
 * data type and the timed repeats.  "changed" when any of them changes. */
#pragma once

#include <gtk/gtk.h>
#include "core/tl-matrix.h"
#include "gemm/tl-kernels.h"
#include "tl-session.h"

G_BEGIN_DECLS

#define TL_TYPE_KERNEL_PANEL (tl_kernel_panel_get_type ())
G_DECLARE_FINAL_TYPE (TlKernelPanel, tl_kernel_panel, TL, KERNEL_PANEL, GtkBox)

void     tl_kernel_panel_set_active (TlKernelPanel *self, const char *kernel_id, gboolean active);
/* a user's kernel (gemm/tl-user-kernel.h), listed under "Yours" */
void     tl_kernel_panel_add_kernel (TlKernelPanel *self, const TlKernelInfo *info);
/* lists every user kernel registered since, ticking the ones it adds */
void     tl_kernel_panel_add_user_kernels (TlKernelPanel *self);
/* the ticked kernels that can run now (free with g_strfreev) */
char   **tl_kernel_panel_get_active (TlKernelPanel *self);
/* Ticks the kernels ticked last time (with settings bound), else a small
 * ladder: the CPU kernels, or the lowest and highest rung gpu runs (NULL:
 * no GPU) beside the CPU loop and cuBLAS. */
void     tl_kernel_panel_tick_defaults (TlKernelPanel *self, const TlGpuFacts *gpu);
/* the GPUs to offer (TlGpuFacts; the CPU is always offered, last); the
 * first is chosen */
void     tl_kernel_panel_set_gpus (TlKernelPanel *self, GArray *gpus);
/* Other machines to offer after this computer's GPUs and CPU: each
 * host's GPUs and CPU from its probe, or one entry while it is not known
 * (connecting, not reachable, or a launcher's host: asked when it runs). */
void     tl_kernel_panel_set_hosts (TlKernelPanel *self, TlSession *session);
/* the chosen GPU's ordinal; 0 on the CPU */
int      tl_kernel_panel_get_device (TlKernelPanel *self);
/* the chosen host (an index of the session's hosts), -1 for this computer */
int      tl_kernel_panel_get_host   (TlKernelPanel *self);
gboolean tl_kernel_panel_is_cpu     (TlKernelPanel *self);
TlDtype  tl_kernel_panel_get_dtype   (TlKernelPanel *self);
guint    tl_kernel_panel_get_repeats (TlKernelPanel *self);
/* "Count hardware events": GPU runs also count (docs/counters.md) */
gboolean tl_kernel_panel_get_counters (TlKernelPanel *self);
/* remembers the ticks, the data type and the repeats */
void     tl_kernel_panel_bind_settings (TlKernelPanel *self, GSettings *settings);

G_END_DECLS
