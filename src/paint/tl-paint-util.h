/* tl-paint-util.h — small helpers the painters share: text, ticks, numbers. */
#pragma once

#include <cairo.h>
#include <glib.h>
#include "paint/tl-paint-style.h"
#include "view/tl-format.h"

G_BEGIN_DECLS

/* Does cr draw onto a vector surface (SVG, PDF, PostScript, recording)? */
gboolean tl_paint_is_vector (cairo_t *cr);
void  tl_paint_background (cairo_t *cr, const TlPaintStyle *style, double width, double height);
void  tl_paint_set_fg     (cairo_t *cr, const TlPaintStyle *style);
/* fg at alpha (opaque in high contrast, where nothing is translucent) */
void  tl_paint_set_fg_alpha (cairo_t *cr, const TlPaintStyle *style, double alpha);
/* Outlines a rectangle in the foreground colour at the style's line width
 * (and leaves both set). */
void  tl_paint_frame      (cairo_t *cr, const TlPaintStyle *style, double x, double y, double w,
                           double h);
/* Selects the style's font at size (style units); bold in high contrast. */
void  tl_paint_set_font   (cairo_t *cr, const TlPaintStyle *style, double size, gboolean bold);
/* Draws text with its anchor at (x, y): halign 0 left … 1 right, valign 0
 * top … 1 bottom (of the font's height).  Returns the advance width.
 * Reports its box to a collector attached to cr (tl-paint-text-boxes.h). */
double tl_paint_text      (cairo_t *cr, double x, double y, double halign, double valign,
                           const char *text);
double tl_paint_text_width (cairo_t *cr, const char *text);
/* Height of a line of text in the current font (ascent + descent). */
double tl_paint_text_height (cairo_t *cr);
/* text as it fits max_w in cr's current font: whole, or its longest start
 * followed by "…" (empty when not even that fits). */
char  *tl_paint_fit_string (cairo_t *cr, const char *text, double max_w);
/* As tl_paint_text, but a text wider than max_w loses its end to "…". */
double tl_paint_text_fit  (cairo_t *cr, double x, double y, double halign, double valign,
                           double max_w, const char *text);
/* Text left-aligned from (x, y) down, wrapped at spaces to max_w, lines
 * line_h apart, at most max_lines (the last one ellipsized); returns the
 * number of lines drawn. */
guint tl_paint_text_wrap (cairo_t *cr, double x, double y, double max_w, double line_h,
                          guint max_lines, const char *text);
/* The lines tl_paint_text_wrap needs for all of text at max_w in cr's
 * font (0 for NULL or ""). */
guint tl_paint_text_wrap_count (cairo_t *cr, double max_w, const char *text);
/* The largest size ≤ size (style units, down to min_size) at which text
 * fits max_w in the style's font; leaves that font selected. */
double tl_paint_fit_font  (cairo_t *cr, const TlPaintStyle *style, double size, double min_size,
                           gboolean bold, double max_w, const char *text);
/* A label on a patch of the background colour (so it reads over data),
 * in colour rgb (NULL: fg). */
void  tl_paint_label_on_patch (cairo_t *cr, const TlPaintStyle *style, double x, double y,
                               double halign, double valign, const double *rgb,
                               const char *text);
/* A warning over data that must read from the back of the hall in every
 * theme (the tail's sentence on a timeline): fg text on an opaque box of
 * the background tinted with rgb, framed in rgb — as tilelab.css does the
 * info bars — rather than text in rgb itself, which a dark theme's red
 * leaves unreadable.  The box's left edge at x, its top at y; the text
 * loses its end to "…" beyond max_w (the box included).  Opaque, so its
 * colours do not change with what lies under it or with the scale.
 * Returns the box's width (0 when nothing fit). */
double tl_paint_label_boxed (cairo_t *cr, const TlPaintStyle *style, double x, double y,
                             double max_w, const double *rgb, const char *text);
/* The size of that box around text in cr's current font. */
void  tl_paint_label_boxed_size (cairo_t *cr, const TlPaintStyle *style, const char *text,
                                 double *w, double *h);

/* One tick of a plot's axis: a faint grid line across the plot at x (or
 * y, already snapped to a pixel) and its label under (or left of) it. */
void  tl_paint_x_tick (cairo_t *cr, const TlPaintStyle *style, double x, double plot_y,
                       double plot_h, const char *label);
void  tl_paint_y_tick (cairo_t *cr, const TlPaintStyle *style, double y, double plot_x,
                       double plot_w, const char *label);

/* A text with shorter wordings after it, one a line ("time per multiply,
 * ms (lower is better), log scale\ntime, ms (log)"): draws the first that
 * fits max_w whole, else the last cut to fit (tl_paint_text_fit); returns
 * its width.  An axis title says less rather than ending in "…". */
double tl_paint_text_fit_choice (cairo_t *cr, double x, double y, double halign, double valign,
                                 double max_w, const char *choices);

/* A plot's frame and its axis titles: the x title centred under the tick
 * labels (fitted to x_title_w), the y title turned up the left edge; each
 * may hold shorter wordings, one a line (tl_paint_text_fit_choice). */
void  tl_paint_plot_frame_titles (cairo_t *cr, const TlPaintStyle *style, double x, double y,
                                  double w, double h, double x_title_w, const char *x_title,
                                  const char *y_title);

/* A legend of n entries in columns beside a plot: rows 1.45 lines apart
 * filling avail_h, as many columns as that needs, each a swatch of
 * swatch_em ems and the widest label (label_w device pixels, at most
 * label_cap_em ems) wide — all columns together at most max_w, where
 * labels then lose their ends. */
#define TL_LEGEND_MAX_COLS 16
typedef struct
{
  guint rows, cols;
  double col_w, row_h;                     /* col_w: the widest column */
  double col_left[TL_LEGEND_MAX_COLS];     /* each column's left end from the grid's */
  double col_width[TL_LEGEND_MAX_COLS];    /* and its width (swatch, label, gap) */
} TlLegendGrid;

void  tl_paint_legend_grid (const TlPaintStyle *style, guint n, double label_w, double swatch_em,
                            double label_cap_em, double avail_h, double max_w, TlLegendGrid *out);
/* Where entry i of a legend grid whose top left is (x0, y0) goes: the
 * left end of its column (x) and the middle of its row (y); the entries
 * fill a column, then the next. */
/* tl_paint_legend_grid_fit's rows are 1.25 lines apart, as text is set:
 * at 1.45 a 26-name legend under a sweep at 1920×1080 presenting took
 * four columns and cut six names */
#define TL_LEGEND_FIT_ROW_EM 1.25
/* The same with each column as wide as its own longest label (label_w[i]
 * for entry i, each capped at label_cap_em ems): of 1 to max_rows rows, the
 * rows that cut the fewest labels in max_w (then the narrowest grid, or
 * with fewest_rows the shortest); where labels must be cut, the narrow
 * columns keep their width and the wide ones share what is left, down to
 * label_least_em ems a label.  Returns how many labels are cut (n + 1:
 * not even that fits). */
guint tl_paint_legend_grid_fit (const TlPaintStyle *style, guint n, const double *label_w,
                                double swatch_em, double label_cap_em, double label_least_em,
                                guint max_rows, double max_w, gboolean fewest_rows, TlLegendGrid *out);
/* The grid's width: all its columns together. */
double tl_paint_legend_grid_width (const TlLegendGrid *grid);
/* The width of the column that entry i of the grid goes in. */
double tl_paint_legend_entry_width (const TlLegendGrid *grid, guint i);
void  tl_paint_legend_entry_at (const TlLegendGrid *grid, double x0, double y0, guint i, double *x,
                                double *y);

/* The index in names (NULL-terminated, as a command line or a setting
 * spells the choices) of name; FALSE when it is none of them. */
gboolean tl_paint_choice_from_name (const char *name, const char *const *names, guint *out);

/* A hint in the middle of an empty picture ("press Run"): the style's
 * type (so presentation mode enlarges it too), wrapped at words to fit
 * the width, lines separated by \n kept. */
void  tl_paint_hint (cairo_t *cr, const TlPaintStyle *style, double width, double height,
                     const char *text);
/* The same in a framed box on the background colour, centred on centre_y:
 * a note over a plot's lines (an empty roofline says why). */
void  tl_paint_hint_boxed (cairo_t *cr, const TlPaintStyle *style, double width, double centre_y,
                           const char *text);

/* How many decimal digits n has (1 for 0). */
int   tl_paint_digits     (guint64 n);
/* "Nice" values (1, 2, 5 × 10^k) covering [lo, hi], at most max_out. */
guint tl_paint_nice_ticks (double lo, double hi, guint target, double *out, guint max_out);

/* Ticks for an axis from lo to hi drawn at px_per_unit device pixels per
 * unit: the finest step of 1, 2, 5 × 10^k (whole numbers only when
 * integers) whose labels — formatted with format, measured in cr's current
 * font — keep clear of each other: a gap of most of an em between
 * neighbours along a horizontal axis, a line's height plus a quarter along
 * a vertical one.  Returns how many were written to out (≤ max_out). */
guint tl_paint_axis_ticks (cairo_t *cr, double lo, double hi, double px_per_unit,
                           gboolean vertical, gboolean integers, TlTickFormat format,
                           double *out, guint max_out);
/* The same for a logarithmic axis: powers base^e between lo and hi (> 0),
 * every stride-th exponent for the smallest stride whose labels fit;
 * px_per_power is the length of one factor of base. */
guint tl_paint_power_ticks (cairo_t *cr, double base, double lo, double hi, double px_per_power,
                            gboolean vertical, TlTickFormat format, double *out, guint max_out);

/* Index ticks for a grid of cells: whole numbers from lo to hi, each at its
 * cell's centre, plot_x + (i + 0.5 − origin) · cell_px, along the top edge
 * of the plot, as dense as their labels allow.  Draws in the current
 * source and font. */
void  tl_paint_index_ticks_top  (cairo_t *cr, const TlPaintStyle *style, double plot_x,
                                 double plot_y, double origin, double cell_px, double lo,
                                 double hi);
/* The same down the left edge (rows); returns the left end of the labels
 * (plot_x when none were drawn). */
double tl_paint_index_ticks_left (cairo_t *cr, const TlPaintStyle *style, double plot_x,
                                  double plot_y, double origin, double cell_px, double lo,
                                  double hi);

/* Colour-blind-safe qualitative palette (Okabe–Ito), index wraps. */
void  tl_paint_series_rgb (guint index, double out_rgb[3]);

G_END_DECLS
