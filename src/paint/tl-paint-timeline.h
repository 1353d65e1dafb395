/* tl-paint-timeline.h — the SM timeline: which block ran where and when.
 *
 * One lane per SM (GPU) or thread (CPU runs), one bar per block from its
 * start to its end.  Blocks that ran at the same time on one SM sit in
 * sub-lanes (TlBlockStats' slots).  Bars are coloured by duration (µs,
 * with a colorbar) or by wave (alternating colours); dashed lines mark
 * where each wave began; the blocks of the last, partial wave are
 * outlined and the tail is shaded — the tail effect.  Under the title a
 * summary: blocks, waves, blocks per SM, tail share, min / median / max
 * block time.  Several tracks (kernels) are stacked, on one time scale so
 * they can be compared by eye, or each on its own (own_time_scale: a
 * 26 µs kernel under a 2 ms one is then more than a sliver); the time
 * axes say which.
 */
#pragma once

#include <cairo.h>
#include "view/tl-block-stats.h"
#include "paint/tl-paint-style.h"

G_BEGIN_DECLS

typedef enum
{
  TL_TIMELINE_COLOR_DURATION = 0,
  TL_TIMELINE_COLOR_WAVE,
} TlTimelineColor;

gboolean    tl_timeline_color_from_name (const char *name, TlTimelineColor *out);

typedef struct
{
  const char *label;            /* the kernel, e.g. "gemm-03-smem16"; shorter wordings
                                   after it a line each (tl_paint_text_fit_choice) */
  const char *kernel_id;        /* its colour swatch (tl-kernel-colors.h); NULL: none */
  const TlBlockRecord *blocks;
  gsize n_blocks;
  const TlBlockStats *stats;    /* for these blocks (waves, slots, summary) */
  const char *unit_label;       /* "SM" or "thread" */
} TlTimelineTrack;

typedef struct
{
  const TlTimelineTrack *tracks;
  guint n_tracks;
  TlTimelineColor color;
  const char *title;
  double t_max_ns;              /* the shared time axis ends here; ≤ 0: the longest track */
  gboolean own_time_scale;      /* each track on its own time axis (to its own end) */
  gint highlight_track;         /* with highlight_block: a bar to outline, -1: none */
  gssize highlight_block;
  gboolean show_summary;
  gboolean show_waves;          /* wave boundaries and the tail */
} TlTimelineModel;

typedef struct
{
  double x, y, w, h;            /* the lanes */
  double lane_h;                /* per unit */
  guint n_lanes;                /* units shown */
  guint slots;                  /* sub-lanes per lane */
  double t_max_ns;              /* this track's time axis ends here */
  double px_per_ns;
} TlTimelineTrackLayout;

#define TL_TIMELINE_MAX_TRACKS 4

typedef struct
{
  double t_max_ns;                /* the first track's (the shared) axis */
  double px_per_ns;
  double cb_x, cb_y, cb_w, cb_h;  /* colorbar (w = 0 when none) */
  guint n_tracks;
  guint summary_lines;            /* 2, or fewer when the tracks would be too short */
  TlTimelineTrackLayout track[TL_TIMELINE_MAX_TRACKS];
} TlTimelineLayout;

void     tl_timeline_model_init   (TlTimelineModel *model);
void     tl_paint_timeline_layout (const TlTimelineModel *model, const TlPaintStyle *style,
                                   double width, double height, TlTimelineLayout *out);
/* The height that gives each of n_tracks tracks its two summary lines and
 * lanes tall enough for the wave names and the tail's label (with a title
 * above when title): less, and the painter drops words to keep the bars. */
double   tl_paint_timeline_min_height (const TlPaintStyle *style, guint n_tracks, gboolean title);
/* The rectangle of block i of track t, in device pixels. */
void     tl_timeline_layout_bar   (const TlTimelineLayout *layout, const TlTimelineModel *model,
                                   guint track, gsize block, double *x, double *y,
                                   double *w, double *h);
/* The block under (x, y): TRUE with its track and index. */
gboolean tl_timeline_layout_block_at (const TlTimelineLayout *layout, const TlTimelineModel *model,
                                      double x, double y, guint *out_track, gsize *out_block);
void     tl_paint_timeline        (cairo_t *cr, const TlTimelineModel *model,
                                   const TlPaintStyle *style, double width, double height);

G_END_DECLS
