/* tl-lecture-pages.h — the lecture views: per-block timing, the Gauss step
 * player and the kernel source.  Each page hosts tl-render's painters. */
#pragma once

#include <gtk/gtk.h>
#include "lu/tl-lu-recorder.h"
#include "record/tl-record.h"
#include "run/tl-runner.h"

G_BEGIN_DECLS

#define TL_TYPE_BLOCKS_PAGE (tl_blocks_page_get_type ())
G_DECLARE_FINAL_TYPE (TlBlocksPage, tl_blocks_page, TL, BLOCKS_PAGE, GtkBox)
GtkWidget *tl_blocks_page_new (void);
/* borrowed: the owner keeps the record alive while it is shown */
void       tl_blocks_page_set_record (TlBlocksPage *self, TlRunRecord *record);
void       tl_blocks_page_set_presentation (TlBlocksPage *self, gboolean on, gboolean high_contrast);
/* the next (+1) or previous (−1) kernel with block records; TRUE when it moved */
gboolean   tl_blocks_page_step_kernel (TlBlocksPage *self, int direction);
/* selects the kernel (and optionally a second one beside it, NULL: none) */
void       tl_blocks_page_show_kernels (TlBlocksPage *self, const char *kernel_id, const char *beside_id);
GtkWidget *tl_blocks_page_get_area (TlBlocksPage *self, gboolean timeline);
/* as if the pointer were over tile (x, y) of the grid; −1 clears */
void       tl_blocks_page_hover_tile (TlBlocksPage *self, gint tile_x, gint tile_y);

#define TL_TYPE_GAUSS_PAGE (tl_gauss_page_get_type ())
G_DECLARE_FINAL_TYPE (TlGaussPage, tl_gauss_page, TL, GAUSS_PAGE, GtkBox)
GtkWidget *tl_gauss_page_new (TlRunner *runner);
/* the matrix "Factor A" uses (borrowed reference is taken) */
void       tl_gauss_page_set_matrix (TlGaussPage *self, TlMatrix *a);
/* takes ownership of a finished recording */
void       tl_gauss_page_take_record (TlGaussPage *self, TlLuRecorder *lu);
TlLuRecorder *tl_gauss_page_get_record (TlGaussPage *self);
void       tl_gauss_page_factor (TlGaussPage *self);
gboolean   tl_gauss_page_is_busy (TlGaussPage *self);
guint      tl_gauss_page_get_step (TlGaussPage *self);
/* ← → PgUp PgDn Home End Space; TRUE when used */
gboolean   tl_gauss_page_key (TlGaussPage *self, guint keyval, GdkModifierType state);
void       tl_gauss_page_set_presentation (TlGaussPage *self, gboolean on, gboolean high_contrast);
GtkWidget *tl_gauss_page_get_area (TlGaussPage *self);

#define TL_TYPE_SOURCE_PAGE (tl_source_page_get_type ())
G_DECLARE_FINAL_TYPE (TlSourcePage, tl_source_page, TL, SOURCE_PAGE, GtkBox)
GtkWidget *tl_source_page_new (void);
void       tl_source_page_set_record (TlSourcePage *self, TlRunRecord *record);
void       tl_source_page_show_kernel (TlSourcePage *self, const char *kernel_id);
/* characters of source shown (0 when the source is not bundled) */
gsize      tl_source_page_get_source_length (TlSourcePage *self);

G_END_DECLS
