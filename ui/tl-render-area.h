/* tl-render-area.h — a drawing area that shows one view of tl-render:
 * the block-time grid, the SM timeline or a Gauss step of a record. */
#pragma once

#include <gtk/gtk.h>
#include "paint/tl-render.h"

G_BEGIN_DECLS

#define TL_TYPE_RENDER_AREA (tl_render_area_get_type ())
G_DECLARE_FINAL_TYPE (TlRenderArea, tl_render_area, TL, RENDER_AREA, GtkDrawingArea)

GtkWidget *tl_render_area_new (TlRenderView view);

/* Borrows record and lu (the owner keeps them alive while shown); NULL clears. */
void  tl_render_area_set_input   (TlRenderArea *self, TlRunRecord *record, TlLuRecorder *lu);
/* kernels, color: copied; NULL for the default */
void  tl_render_area_set_kernels (TlRenderArea *self, const char *kernels);
void  tl_render_area_set_color   (TlRenderArea *self, const char *color);
void  tl_render_area_set_step    (TlRenderArea *self, guint step);
void  tl_render_area_set_empty_text (TlRenderArea *self, const char *text);
void  tl_render_area_set_presentation (TlRenderArea *self, gboolean on, gboolean high_contrast);
/* Gauss view: one colour range for the whole record (TRUE) or each step's
 * own (FALSE, the default). */
void  tl_render_area_set_gauss_record_range (TlRenderArea *self, gboolean record_range);
gboolean tl_render_area_get_gauss_record_range (TlRenderArea *self);
/* Timeline of several kernels: each on its own time scale (TRUE) or one
 * scale for all (FALSE, the default); the picture says which. */
void  tl_render_area_set_own_time_scale (TlRenderArea *self, gboolean own);
gboolean tl_render_area_get_own_time_scale (TlRenderArea *self);
/* the options as drawn (for export) */
void  tl_render_area_get_options (TlRenderArea *self, TlRenderOptions *out);
void  tl_render_area_set_tile   (TlRenderArea *self, gint tile_x, gint tile_y); /* -1: none */
/* the style the area draws with (as last drawn, theme colours included) */
void  tl_render_area_get_style  (TlRenderArea *self, TlPaintStyle *out);

G_END_DECLS
