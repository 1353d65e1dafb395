/* tl-sources-panel.h — the sidebar's A and B: a thumbnail, Open and
 * Generate, and the matrix's facts. */
#pragma once

#include <gtk/gtk.h>
#include "tl-session.h"

G_BEGIN_DECLS

#define TL_TYPE_SOURCES_PANEL (tl_sources_panel_get_type ())
G_DECLARE_FINAL_TYPE (TlSourcesPanel, tl_sources_panel, TL, SOURCES_PANEL, GtkBox)

void tl_sources_panel_set_session (TlSourcesPanel *self, TlSession *session);

G_END_DECLS
