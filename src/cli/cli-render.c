/* tilelab-cli render — a view of a run record (or Gauss record) as PNG, SVG or PDF,
 * drawn by the same painters as the app, without a display. */
#include "tl-cli.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>

#include "core/tl-error.h"
#include "paint/tl-render.h"
#include "record/tl-record-file.h"

/* The first file (a run record, a Gauss record or both), then the run
 * records stacked under it. */
static gboolean
load_input (TlRenderInput *input, char **paths, GError **error)
{
  TlRecordFile file;
  if (!tl_record_file_load (&file, paths[0], TL_RECORD_LOAD_DEFAULT, error))
    return FALSE;
  input->record = file.record;
  input->lu = file.lu;
  for (guint i = 1; paths[i]; i++)
    {
      if (!tl_record_file_load (&file, paths[i], TL_RECORD_LOAD_DEFAULT, error))
        return FALSE;
      if (file.record == NULL)
        {
          tl_record_file_clear (&file);
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("%s: a Gauss record cannot be stacked on a timeline; give a run record"),
                       paths[i]);
          return FALSE;
        }
      g_clear_pointer (&file.lu, tl_lu_recorder_free);
      if (!tl_render_input_add_run (input, file.record, error))
        return FALSE;
    }
  return TRUE;
}

typedef struct
{
  const TlRenderInput *input;
  const TlRenderOptions *options;
  const char *output;
  TlPaintTextBoxes *text_boxes; /* --check-text: the texts drawn; NULL: none */
} Render;

static gboolean
render_work (gpointer data, GCancellable *cancellable, GError **error)
{
  Render *r = data;
  return tl_render_to_file_with (r->input, r->options, r->output, r->text_boxes, cancellable, error);
}

/* What the command line asked for, before it is checked. */
typedef struct
{
  char *view, *kernel, *matrix, *output;
  char **runs;
  char *color, *timeline_color, *tile, *value_scale, *pool, *range, *time_scale, *counter;
  int step, launch;
  double width, height, scale;
  gboolean presentation, high_contrast, quiet, check_text, stretch;
} RenderArgs;

static void
render_args_clear (RenderArgs *a)
{
  g_free (a->view);
  g_free (a->kernel);
  g_free (a->matrix);
  g_free (a->output);
  g_strfreev (a->runs);
  g_free (a->color);
  g_free (a->timeline_color);
  g_free (a->tile);
  g_free (a->value_scale);
  g_free (a->pool);
  g_free (a->range);
  g_free (a->time_scale);
  g_free (a->counter);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RenderArgs, render_args_clear)

/* The command's options, written into a, with its help. */
static GOptionContext *
render_context (RenderArgs *a)
{
  GOptionEntry entries[] = {
    { "view", 'v', 0, G_OPTION_ARG_STRING, &a->view,
      N_("heatmap, blocks, timeline, blocks-and-timeline, compare, gauss, sweep, roofline or lesson"), "VIEW" },
    { "run", 'r', 0, G_OPTION_ARG_FILENAME_ARRAY, &a->runs,
      N_("The run record (tilelab-cli gemm --record) or Gauss record (tilelab-cli lu --record); "
      "timeline, compare, sweep: up to 4"), "FILE.json" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &a->output, N_("The picture: .png, .svg or .pdf"), "FILE" },
    { "kernel", 'k', 0, G_OPTION_ARG_STRING, &a->kernel,
      N_("Kernel id (timeline, blocks-and-timeline, compare: ids separated by commas; timelines are stacked "
         "on one time scale)"), "ID" },
    { "matrix", 'm', 0, G_OPTION_ARG_STRING, &a->matrix, N_("heatmap: A, B, C, ref or error (default C)"), "WHICH" },
    { "step", 's', 0, G_OPTION_ARG_INT, &a->step,
      N_("gauss: the frame, 0 … steps (step k before its pivot search; the last is the finished L\\U)"), "N" },
    { "color", 'c', 0, G_OPTION_ARG_STRING, &a->color,
      N_("blocks: duration or start; timeline: duration or wave; compare: gflops or time; "
      "heatmap: viridis, cividis, rdbu or gray"), "BY" },
    { "counter", 0, 0, G_OPTION_ARG_STRING, &a->counter,
      N_("compare: colour the bars by a counter of their runs (dram_bytes, l2_hit_rate, …), "
         "as the Compare page's colour choice"), "KEY" },
    { "timeline-color", 0, 0, G_OPTION_ARG_STRING, &a->timeline_color,
      N_("blocks-and-timeline: the timeline's colours, duration or wave (--color is the grid's)"), "BY" },
    { "value-scale", 0, 0, G_OPTION_ARG_STRING, &a->value_scale,
      N_("heatmap: linear, log (values ≤ 0 masked, as the colour bar says) or symlog"), "SCALE" },
    { "pool", 0, 0, G_OPTION_ARG_STRING, &a->pool,
      N_("heatmap: what a cell of a large matrix shows: mean, max or max-abs "
      "(default mean; the error map max-abs)"), "MODE" },
    { "stretch", 0, 0, G_OPTION_ARG_NONE, &a->stretch,
      N_("heatmap: fill the picture, cells no longer square (by default the matrix keeps its proportions)"),
      NULL },
    { "range", 0, 0, G_OPTION_ARG_STRING, &a->range,
      N_("gauss: colour range of each step (step, default) or one for the whole record (record)"), "R" },
    { "time-scale", 0, 0, G_OPTION_ARG_STRING, &a->time_scale,
      N_("timeline with several kernels: one time scale for all (shared, default) "
      "or each kernel on its own (own)"), "S" },
    { "launch", 'l', 0, G_OPTION_ARG_INT, &a->launch,
      N_("blocks, timeline: only this launch of a multi-launch kernel (default: all)"), "N" },
    { "tile", 't', 0, G_OPTION_ARG_STRING, &a->tile,
      N_("blocks, timeline: point at the tile in column X, row Y (blockIdx.x, blockIdx.y) and its block"), "X,Y" },
    { "width", 'W', 0, G_OPTION_ARG_DOUBLE, &a->width, N_("Width in pixels at scale 1 / points (default 1600)"), "W" },
    { "height", 'H', 0, G_OPTION_ARG_DOUBLE, &a->height, N_("Height (default 900; compare over several records 1500)"), "H" },
    { "scale", 'S', 0, G_OPTION_ARG_DOUBLE, &a->scale, N_("PNG: pixels per unit, e.g. 2 for HiDPI (default 1)"), "S" },
    { "presentation", 'p', 0, G_OPTION_ARG_NONE, &a->presentation,
      N_("Larger type and lines, for projectors"), NULL },
    { "high-contrast", 0, 0, G_OPTION_ARG_NONE, &a->high_contrast, N_("Black on white, thicker lines"), NULL },
    { "check-text", 0, 0, G_OPTION_ARG_NONE, &a->check_text,
      N_("Check the picture's text: overlapping, clipped or off-picture labels are listed "
      "and make the command fail (exit 1)"), NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, N_("Print nothing on success"), NULL },
    { NULL },
  };

  GOptionContext *ctx = g_option_context_new (N_("— draw a view of a record as PNG, SVG or PDF"));
  g_option_context_add_main_entries (ctx, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (ctx,
    N_("Views:\n"
    "  heatmap   a matrix kept beside the record (gemm --save-matrices)\n"
    "  blocks    C's tiles coloured by their block's time (gemm --instrument)\n"
    "  timeline  one lane per SM (CPU: thread), one bar per block, waves and tail\n"
    "  blocks-and-timeline  the Blocks page: the tiles of the first two kernels side by\n"
    "            side (one colour scale) over their timelines (one time scale)\n"
    "  compare   the kernels' GFLOP/s (or times) as bars; with several --run records\n"
    "            the first one's bars over the size sweep of them all\n"
    "  gauss     one step of Gauss elimination (lu --record)\n"
    "  sweep     GFLOP/s against the problem size, one line per kernel and machine\n"
    "  roofline  every GPU kernel under the device's roofs (gemm --counters); --kernel\n"
    "            rings one and names what limits it\n"
    "  lesson    a rung beside the rung below it: why is it faster? The kernels as a\n"
    "            diff, the counters before and after, the roofline, the timelines;\n"
    "            --kernel names the rung (default: the top one)\n\n"
    "Examples:\n"
    "  tilelab-cli gemm --kernel cpu-blocked --size 1000x500x1000 --instrument --record r.json\n"
    "  tilelab-cli render --view timeline --run r.json -o timeline.svg\n"
    "  tilelab-cli render --view blocks --kernel gemm-03-smem16 --run gpu.json -o blocks.png --scale 2\n"
    "  tilelab-cli render --view timeline --run gpu.json --run cpu.json --kernel gemm-05-seed3k,cpu-blocked -o both.pdf\n"
    "  tilelab-cli render --view timeline --run gpu.json --kernel gemm-03-smem16,gemm-11-wgmma --time-scale own -o own.png\n"
    "  tilelab-cli render --view heatmap --matrix error --run r.json --value-scale log -o err.svg --check-text\n"
    "  tilelab-cli lu --gen random-uniform --size 64 --block-size 16 --record lu.json\n"
    "  tilelab-cli render --view gauss --step 20 --run lu.json -o step20.pdf --presentation\n"
    "  tilelab-cli gemm --kernel gpu --size 4096 --counters --record ladder.json\n"
    "  tilelab-cli render --view roofline --run ladder.json --kernel gemm-09-warptile -o roofline.png --presentation\n"
    "  tilelab-cli render --view lesson --run ladder.json --kernel gemm-08-vectorized -o why-08.png --presentation\n"
    "  tilelab-cli render --view compare --run ladder.json --run odd.json --counter dram_bytes -o compare.png\n"));

  return ctx;
}

/* The options checked and turned into o (and the picture's format):
 * TL_CLI_OK, or the exit code of the usage error said. */
static int
render_options (RenderArgs *a, TlRenderOptions *o, TlRenderFormat *format)
{
  tl_render_options_init (o);
  if (a->view == NULL)
    return tl_cli_usage_error ("render", _("--view is required (%s)"), tl_render_view_names ());
  if (!tl_render_view_from_name (a->view, &o->view))
    return tl_cli_usage_error ("render", _("unknown view “%s” (%s)"), a->view, tl_render_view_names ());
  if (a->runs == NULL || a->runs[0] == NULL)
    return tl_cli_usage_error ("render", _("--run FILE.json is required"));
  if (a->runs[1] != NULL && o->view != TL_RENDER_TIMELINE && o->view != TL_RENDER_SWEEP
      && o->view != TL_RENDER_BLOCKS_AND_TIMELINE && o->view != TL_RENDER_COMPARE)
    return tl_cli_usage_error ("render", _("only the timeline, blocks-and-timeline, compare and sweep views take several --run records"));
  if (g_strv_length (a->runs) > 4)
    return tl_cli_usage_error ("render", _("at most 4 --run records can be stacked"));
  /* compare over several records: the first one's bars over the size
   * sweep of them all, as the app's Compare page, a slide's height each */
  o->charts = a->runs[1] != NULL ? TL_RENDER_CHARTS_BARS_OVER_SWEEP : TL_RENDER_CHARTS_BARS;
  if (a->height == 0)
    a->height = tl_render_default_height (o);
  if (a->output == NULL)
    return tl_cli_usage_error ("render", _("-o FILE.png|svg|pdf is required"));
  if (!tl_render_format_for_path (a->output, format))
    return tl_cli_usage_error ("render", _("“%s”: the picture's name must end in .png, .svg or .pdf"), a->output);
  if (a->step < 0)
    return tl_cli_usage_error ("render", _("--step must be 0 or more, not %d"), a->step);
  if (a->launch < -1)
    return tl_cli_usage_error ("render", _("--launch must be 0 or more (or -1 for all), not %d"),
                               a->launch);
  if (!(a->width >= 64 && a->width <= 16384 && a->height >= 64 && a->height <= 16384))
    return tl_cli_usage_error ("render", _("--width and --height must be between 64 and 16384"));
  if (!(a->scale > 0 && a->scale <= 8))
    return tl_cli_usage_error ("render", _("--scale must be above 0 and at most 8"));

  if (a->tile)
    {
      g_auto (GStrv) xy = g_strsplit (a->tile, ",", -1);
      char *end1 = NULL, *end2 = NULL;
      gint64 x = xy[0] ? g_ascii_strtoll (xy[0], &end1, 10) : -1;
      gint64 y = xy[0] && xy[1] ? g_ascii_strtoll (xy[1], &end2, 10) : -1;
      if (g_strv_length (xy) != 2 || !end1 || *end1 || !end2 || *end2 || x < 0 || y < 0
          || x > G_MAXINT || y > G_MAXINT || xy[0][0] == '\0' || xy[1][0] == '\0')
        return tl_cli_usage_error ("render", _("--tile wants X,Y (two whole numbers ≥ 0), not “%s”"), a->tile);
      o->tile_x = (gint) x;
      o->tile_y = (gint) y;
    }
  if (a->range && g_strcmp0 (a->range, "step") != 0 && g_strcmp0 (a->range, "record") != 0)
    return tl_cli_usage_error ("render", _("--range is step or record, not “%s”"), a->range);
  if (a->time_scale && g_strcmp0 (a->time_scale, "own") != 0 && g_strcmp0 (a->time_scale, "shared") != 0)
    return tl_cli_usage_error ("render", _("--time-scale is own or shared, not “%s”"), a->time_scale);
  o->gauss_record_range = g_strcmp0 (a->range, "record") == 0;
  o->own_time_scale = g_strcmp0 (a->time_scale, "own") == 0;
  o->value_scale = a->value_scale;
  o->pool = a->pool;
  o->kernels = a->kernel;
  o->matrix = a->matrix;
  o->step = (guint) a->step;
  o->color = a->color;
  o->timeline_color = a->timeline_color;
  o->stretch = a->stretch;
  o->launch = a->launch;
  o->width = a->width;
  o->height = a->height;
  o->scale = a->scale;
  o->presentation = a->presentation;
  o->high_contrast = a->high_contrast;
  o->counter = a->counter;
  return TL_CLI_OK;
}

/* --check-text: the picture's text boxes, each problem listed. */
static int
report_text_check (TlPaintTextBoxes *boxes, const RenderArgs *a, TlRenderFormat format)
{
  double pw = a->width * (format == TL_RENDER_PNG ? a->scale : 1);
  double ph = a->height * (format == TL_RENDER_PNG ? a->scale : 1);
  g_autoptr (GString) report = g_string_new (NULL);
  guint problems = tl_paint_text_boxes_check (boxes, pw, ph, report);
  if (problems > 0)
    {
      fprintf (stderr, "%s", report->str);
      fprintf (stderr, ngettext ("tilelab-cli render: %s: %u problem with the text\n",
                                 "tilelab-cli render: %s: %u problems with the text\n", problems),
               a->output, problems);
      return TL_CLI_FAILURE;
    }
  if (!a->quiet)
    printf (ngettext ("%s: %u text checked: no overlaps, nothing clipped\n",
                      "%s: %u texts checked: no overlaps, nothing clipped\n",
                      tl_paint_text_boxes_len (boxes)),
            a->output, tl_paint_text_boxes_len (boxes));
  return TL_CLI_OK;
}

int
tl_cli_render (int argc, char **argv)
{
  g_auto (RenderArgs) a = { .launch = -1, .width = 1600, .height = 0, .scale = 1 };
  g_autoptr (GOptionContext) ctx = render_context (&a);
  if (!tl_cli_parse (ctx, &argc, &argv))
    return TL_CLI_USAGE;
  if (argc > 1)
    return tl_cli_usage_error ("render", _("unexpected argument “%s”"), argv[1]);

  TlRenderOptions o;
  TlRenderFormat format;
  int code = render_options (&a, &o, &format);
  if (code != TL_CLI_OK)
    return code;

  g_autoptr (GError) error = NULL;
  TlRenderInput input = { 0 };
  if (!load_input (&input, a.runs, &error))
    {
      tl_render_input_clear (&input);
      return tl_cli_fail ("render", error);
    }
  g_autoptr (TlPaintTextBoxes) boxes = a.check_text ? tl_paint_text_boxes_new () : NULL;
  /* drawn and written off the main thread: Ctrl+C or SIGTERM stops it,
   * and nothing is left behind */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  Render r = { &input, &o, a.output, boxes };
  gboolean ok = tl_cli_run_work (render_work, &r, cancellable, &error);
  tl_render_input_clear (&input);
  if (!ok)
    return tl_cli_fail ("render", error);
  if (boxes && (code = report_text_check (boxes, &a, format)) != TL_CLI_OK)
    return code;
  if (!a.quiet)
    printf (_("%s: %s view, %.0f×%.0f%s\n"), a.output, a.view,
            a.width * (format == TL_RENDER_PNG ? a.scale : 1), a.height * (format == TL_RENDER_PNG ? a.scale : 1),
            format == TL_RENDER_PNG ? _(" pixels") : _(" points"));
  return TL_CLI_OK;
}
