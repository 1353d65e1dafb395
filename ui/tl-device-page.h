/* tl-device-page.h — the GPU's facts (this machine's, or the run
 * record's) and one kernel's launch: registers, shared memory, spills,
 * occupancy, waves. */
#pragma once

#include <gtk/gtk.h>
#include "tl-page.h"

G_BEGIN_DECLS

#define TL_TYPE_DEVICE_PAGE (tl_device_page_get_type ())
G_DECLARE_FINAL_TYPE (TlDevicePage, tl_device_page, TL, DEVICE_PAGE, GtkScrolledWindow)

/* the ordinal of the GPU the app runs on (shown when no record names one) */
void tl_device_page_set_device  (TlDevicePage *self, int ordinal);
void tl_device_page_show_kernel (TlDevicePage *self, const char *kernel_id);

G_END_DECLS
