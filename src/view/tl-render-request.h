/* tl-render-request.h — what a picture of a record is asked with.
 *
 * The views a record can be drawn as (heatmap, blocks, timeline, …), the
 * picture formats, the options a view reads and the input it reads: run
 * records and a Gauss record.  Nothing here draws: the painters
 * (paint/tl-render.h) take a request and draw it onto a Cairo surface;
 * `tilelab-cli render`, the app's Export and its render areas fill one in.
 *
 * Sizes are in style units: pixels at scale 1 for PNG (the PNG is
 * width·scale × height·scale pixels), points for SVG and PDF.
 */
#pragma once

#include <glib.h>
#include "lu/tl-lu-recorder.h"
#include "record/tl-record.h"
#include "view/tl-sheet.h"

G_BEGIN_DECLS

typedef enum
{
  TL_RENDER_HEATMAP = 0, /* a matrix of the record: A, B, C, ref or error */
  TL_RENDER_BLOCKS,      /* the block-time grid over C's tiles */
  TL_RENDER_TIMELINE,    /* the SM (thread) timeline, kernels stacked */
  TL_RENDER_COMPARE,     /* the kernels' times as bars */
  TL_RENDER_GAUSS,       /* one step of Gauss elimination */
  TL_RENDER_SWEEP,       /* GFLOP/s against the problem size over the records given */
  TL_RENDER_ROOFLINE,    /* the kernels under the device's roofs (a record with --counters) */
  TL_RENDER_BLOCKS_AND_TIMELINE, /* the Blocks page: the first kernel's grid over the timeline */
  TL_RENDER_LESSON,      /* a rung beside the rung below it (tl-lesson.h): why it is faster */
  TL_RENDER_SHEET,       /* a page's text (the options' sheet): the Source page's listing,
                            the Device page's facts; the app's only, not a name render takes */
} TlRenderView;

/* a picture's size when the options give none (style units) */
#define TL_RENDER_DEFAULT_WIDTH 1600.0
#define TL_RENDER_DEFAULT_HEIGHT 900.0

/* compare: which of the Compare page's charts the picture shows */
typedef enum
{
  TL_RENDER_CHARTS_BARS = 0,       /* the bars per kernel */
  TL_RENDER_CHARTS_BARS_OVER_SWEEP, /* the bars over the size sweep (a window's page) */
  TL_RENDER_CHARTS_SWEEP,          /* the size sweep alone (presenting, past the last bar) */
} TlRenderCharts;

typedef enum
{
  TL_RENDER_PNG = 0,
  TL_RENDER_SVG,
  TL_RENDER_PDF,
} TlRenderFormat;

const char *tl_render_view_name      (TlRenderView view);
/* every view's name, "heatmap, blocks, …" (for messages) */
const char *tl_render_view_names     (void);
gboolean    tl_render_view_from_name (const char *name, TlRenderView *out);
/* From the file name's extension (.png, .svg, .pdf; any case). */
gboolean    tl_render_format_for_path (const char *path, TlRenderFormat *out);

typedef struct
{
  TlRenderView view;
  const char *kernels;   /* a kernel id, or ids separated by commas (timeline,
                            compare); roofline: the point to ring and explain; lesson: the
                            rung (NULL: the record's top rung); NULL: blocks/timeline the first kernel
                            with block records, compare all, heatmap C of the first.
                            Timeline over several records: one id for all, or
                            one id per record in order */
  const char *matrix;    /* heatmap: "A", "B", "C", "ref", "error" (NULL: "C") */
  const char *selected;  /* compare: the kernel whose bar is marked, as a picked row (NULL: none) */
  guint step;            /* gauss: the frame (tl-gauss-frame.h) */
  const char *timeline_color; /* blocks-and-timeline: the timeline's colour (color is the grid's) */
  const char *color;     /* blocks: "duration" | "start"; timeline: "duration" | "wave";
                            compare: "gflops" | "time"; heatmap: a colormap ("viridis",
                            "cividis", "rdbu", "gray"); NULL: the view's default */
  const char *value_scale; /* heatmap: "linear" | "log" | "symlog"; NULL: linear */
  const char *pool;      /* heatmap: "mean" | "max" | "max-abs"; NULL: mean, for the error
                            map max-abs (mean would average its peaks away) */
  gboolean stretch;      /* heatmap: fill the picture, cells no longer square (by default
                            the matrix keeps its proportions) */
  gboolean gauss_record_range; /* gauss: one colour range for every step of the record;
                                  FALSE: each step's own range */
  gboolean own_time_scale; /* timeline: each kernel on its own time scale; FALSE: one */
  gint launch;           /* blocks, timeline: one launch of a multi-launch rung, -1: all */
  gint tile_x, tile_y;   /* blocks, timeline: a tile to point at (its block in every
                            track), -1: none */
  double width, height;  /* style units; ≤ 0: 1600 × 900 */
  double scale;          /* PNG: pixels per unit; ≤ 0: 1 */
  gboolean presentation;
  gboolean high_contrast;
  const TlSheet *sheet;  /* sheet: what to draw (borrowed) */
  TlRenderCharts charts; /* compare: the bars, and the size sweep where the records
                            have two sizes or more (else the bars alone) */
  const char *counter;   /* compare: the bars coloured by this counter view
                            (tl-compare-counters.h) with its legend line; NULL or
                            "kernel": by kernel */
  gboolean sweep_percent; /* compare's sweep: % of the vendor rather than GFLOP/s */
} TlRenderOptions;

void     tl_render_options_init (TlRenderOptions *options);
/* The picture's height when the options give none: a slide's, but for
 * Compare's bars over its size sweep, which get about a slide's height
 * each, as a window's page stacks them. */
double   tl_render_default_height (const TlRenderOptions *options);

/* What a render reads: a run record, a Gauss record, or both (a run record
 * may carry a Gauss record in its extensions as "lu"). */
typedef struct
{
  TlRunRecord *record;   /* may be NULL */
  TlLuRecorder *lu;      /* may be NULL */
  /* timeline: further run records, stacked under the first (a GPU run over
   * a CPU run, two sizes, two machines); sweep: further records to plot */
  TlRunRecord *more[3];
  guint n_more;
  /* compare's size sweep: every record of the session (TlRunRecord *,
   * borrowed, oldest first); NULL: record and more */
  GPtrArray *sweep;
} TlRenderInput;

/* Adds a further run record (timeline, sweep) and takes it; TL_ERROR_INVALID
 * beyond 3 (the record is then dropped).  Record files are opened with
 * record/tl-record-file.h. */
gboolean tl_render_input_add_run (TlRenderInput *input, TlRunRecord *record, GError **error);
void     tl_render_input_clear (TlRenderInput *input);

G_END_DECLS
