/* tl-paint-text-boxes.h — where the painters put their words, for tests and scripts.
 *
 * A collector attached to a cairo context receives a box for every text the
 * painters draw through tl-paint-util's text helpers: the text, its box in
 * device pixels (ink width × font height, rotation included) and the area
 * it had to fit — the clip in force when it was drawn (the whole surface
 * when there was none).  The collector lives on the cairo_t rather than in
 * a painter's style so that anything drawing onto that context reports:
 * a painter in a test, `tilelab-cli render --check-text`, or a whole GTK
 * window drawn with gtk_widget_draw() into an image surface.
 *
 * tl_paint_text_boxes_check() then says what a reader would notice: two
 * texts on top of each other ("0 200400"), a text cut by its clip, a text
 * running off the picture, two texts cut to the same words ("cuBLA…"
 * twice), and a matrix drawn out of proportion — the painters of matrices
 * report their plots too (the data's shape and where it was drawn).
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *text;
  double x, y, w, h;                     /* the text, device pixels */
  double area_x, area_y, area_w, area_h; /* where it had to fit, device pixels */
  double corner_x[4], corner_y[4];       /* the text's own corners: a turned text's box
                                          * above is larger than the text */
} TlPaintTextBox;

typedef struct _TlPaintTextBoxes TlPaintTextBoxes;

TlPaintTextBoxes *tl_paint_text_boxes_new    (void);
void              tl_paint_text_boxes_free   (TlPaintTextBoxes *boxes);
void              tl_paint_text_boxes_clear  (TlPaintTextBoxes *boxes);
/* Leaves out text box i (a window's checks: a text scrolled out of view). */
void              tl_paint_text_boxes_remove (TlPaintTextBoxes *boxes, guint i);
/* Texts drawn on cr from now on are added to boxes (which must outlive
 * the attachment); NULL detaches. */
void              tl_paint_text_boxes_attach (cairo_t *cr, TlPaintTextBoxes *boxes);
TlPaintTextBoxes *tl_paint_text_boxes_get    (cairo_t *cr);
guint             tl_paint_text_boxes_len    (const TlPaintTextBoxes *boxes);
const TlPaintTextBox *tl_paint_text_boxes_index (const TlPaintTextBoxes *boxes, guint i);
/* The first box whose text contains needle, or NULL. */
const TlPaintTextBox *tl_paint_text_boxes_find  (const TlPaintTextBoxes *boxes,
                                                 const char *needle);

/* For the text helpers: the rectangle (x, y, w, h) in cr's user space holds
 * text; adds its device-space box and the current clip when a collector is
 * attached to cr (does nothing otherwise). */
void              tl_paint_text_boxes_record (cairo_t *cr, const char *text, double x, double y,
                                              double w, double h);

/* For the painters of matrices: data of rows × cols drawn in the
 * rectangle (x, y, w, h) of cr's user space, in proportion or stretched. */
void              tl_paint_text_boxes_record_plot (cairo_t *cr, double rows, double cols,
                                                   gboolean keeps_shape, double x, double y,
                                                   double w, double h);

/* Problems a reader would see on a width × height picture: overlapping
 * texts, texts beyond their area, texts beyond the picture (a tolerance of
 * half a pixel), texts cut to the same words, plots that should keep their
 * data's proportions and do not (a matrix thinner than 1:8 may be
 * widened to a strip).  Each is described on its own line in report (when
 * not NULL); returns how many there are. */
guint             tl_paint_text_boxes_check  (const TlPaintTextBoxes *boxes, double width,
                                              double height, GString *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlPaintTextBoxes, tl_paint_text_boxes_free)

G_END_DECLS
