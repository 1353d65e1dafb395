/* tl-device-page.h — the GPU's facts (this machine's, or the run
 * record's) and one kernel's launch: registers, shared memory, spills,
 * occupancy, waves. */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_DEVICE_PAGE (tl_device_page_get_type ())
G_DECLARE_FINAL_TYPE (TlDevicePage, tl_device_page, TL, DEVICE_PAGE, GtkScrolledWindow)

/* The GPU shown when no record names one is the session's choice
 * (tl_session_get_device). */
void        tl_device_page_show_kernel (TlDevicePage *self, const char *kernel_id);
/* the kernel whose launch is shown, or NULL */
const char *tl_device_page_get_shown_kernel (TlDevicePage *self);

G_END_DECLS
