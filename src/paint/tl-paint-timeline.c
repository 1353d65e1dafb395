/* tl-paint-timeline.c — lanes of SMs (or threads), bars of blocks, waves and the tail. */
#include "paint/tl-paint-timeline.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include "view/tl-colormap.h"
#include "paint/tl-kernel-colors.h"
#include "paint/tl-paint-colorbar.h"
#include "paint/tl-paint-util.h"

#define MAX_TICKS 64

gboolean
tl_timeline_color_from_name (const char *name, TlTimelineColor *out)
{
  static const char *const names[] = { [TL_TIMELINE_COLOR_DURATION] = "duration", [TL_TIMELINE_COLOR_WAVE] = "wave", NULL };
  guint i;
  if (!tl_paint_choice_from_name (name, names, &i))
    return FALSE;
  *out = (TlTimelineColor) i;
  return TRUE;
}

void
tl_timeline_model_init (TlTimelineModel *model)
{
  g_return_if_fail (model != NULL);
  *model = (TlTimelineModel) {0};
  model->highlight_track = -1;
  model->highlight_block = -1;
  model->show_summary = TRUE;
  model->show_waves = TRUE;
}

static guint
n_tracks (const TlTimelineModel *model)
{
  return MIN (model->n_tracks, TL_TIMELINE_MAX_TRACKS);
}

/* the duration scale shared by all tracks, in µs */
static void
duration_scale (const TlTimelineModel *model, TlColorScale *scale)
{
  double lo = INFINITY, hi = -INFINITY;
  for (guint t = 0; t < n_tracks (model); t++)
    {
      const TlBlockStats *s = model->tracks[t].stats;
      if (s == NULL || s->n_blocks == 0)
        continue;
      lo = MIN (lo, s->min_ns / 1e3);
      hi = MAX (hi, s->max_ns / 1e3);
    }
  if (!isfinite (lo))
    lo = 0, hi = 1;
  if (hi <= lo)
    hi = lo + MAX (lo * 0.01, 1e-3);
  /* one straggler 30× slower than the rest would flatten a linear scale */
  tl_color_scale_init (scale, TL_COLORMAP_VIRIDIS,
                       lo > 0 && hi / lo > 30 ? TL_SCALE_LOG : TL_SCALE_LINEAR, lo, hi);
}

/* µs below 2 ms, ms above */
static double
time_unit (double t_max_ns, const char **name)
{
  if (t_max_ns < 2e6)
    {
      *name = "µs";
      return 1e3;
    }
  *name = "ms";
  return 1e6;
}

/* a track's title and its summary lines above its lanes */
static double
header_height (const TlPaintStyle *style, guint summary_lines)
{
  double font = TL_PX (style, style->font_size);
  return font * 1.5 + summary_lines * font * 1.35 + font * 0.3;
}

/* the time axis under a track: ticks, their numbers, its title */
static double
axis_height (const TlPaintStyle *style)
{
  return TL_PX (style, 5) + TL_PX (style, style->font_size) * 2.65;
}

/* Lanes this tall hold the wave names along their top and the tail's
 * label along their bottom, the label a third of them at most (below,
 * track_has_room_for_labels and paint_tail_label). */
static double
readable_track_height (const TlPaintStyle *style)
{
  return TL_PX (style, style->font_size) * 5.0;
}

double
tl_paint_timeline_min_height (const TlPaintStyle *style, guint n_tracks, gboolean title)
{
  g_return_val_if_fail (style != NULL, 0);
  double font = TL_PX (style, style->font_size);
  guint nt = CLAMP (n_tracks, 1, TL_TIMELINE_MAX_TRACKS);
  double top = font * 0.4 + (title ? TL_PX (style, style->title_font_size) * 1.4 : 0);
  return ceil (top + nt * (header_height (style, 2) + readable_track_height (style) + axis_height (style))
               + (nt - 1) * font * 0.8);
}

void
tl_paint_timeline_layout (const TlTimelineModel *model, const TlPaintStyle *style,
                          double width, double height, TlTimelineLayout *out)
{
  g_return_if_fail (model != NULL && style != NULL && out != NULL);

  double font = TL_PX (style, style->font_size);
  double tick = TL_PX (style, 5);
  guint nt = n_tracks (model);
  double top = font * 0.4;
  guint max_units = 1;

  *out = (TlTimelineLayout) {0};
  out->n_tracks = nt;
  out->t_max_ns = model->t_max_ns;
  for (guint t = 0; t < nt; t++)
    {
      const TlBlockStats *s = model->tracks[t].stats;
      if (s == NULL)
        continue;
      max_units = MAX (max_units, s->n_units);
      if (model->t_max_ns <= 0)
        out->t_max_ns = MAX (out->t_max_ns, (double) s->t1_ns);
    }
  if (out->t_max_ns <= 0)
    out->t_max_ns = 1;

  if (model->title)
    top += TL_PX (style, style->title_font_size) * 1.4;

  double left = font * 1.6 + font * 0.62 * tl_paint_digits (max_units) + tick + TL_PX (style, 4);
  double right = font * 1.0;
  /* the colorbar, or in wave mode the wave legend */
  out->cb_w = tl_paint_colorbar_preferred_width (style);
  right += out->cb_w + font * 0.6;

  double axis = axis_height (style);
  double gap = font * 0.8;
  double header = 0, track_h = 0;
  /* the summary's two lines under each title give way, the block times
   * first, before the tracks get shorter than two and a half lines (two
   * timelines on a 1024×768 screen in high contrast) */
  for (int lines = model->show_summary ? 2 : 0; lines >= 0; lines--)
    {
      out->summary_lines = (guint) lines;
      header = header_height (style, (guint) lines);
      double avail = height - top - nt * (header + axis) - (nt > 1 ? (nt - 1) * gap : 0);
      track_h = MAX (avail / MAX (nt, 1), TL_PX (style, 8));
      if (track_h >= font * 2.5)
        break;
    }

  double y = top;
  for (guint t = 0; t < nt; t++)
    {
      const TlBlockStats *s = model->tracks[t].stats;
      TlTimelineTrackLayout *tl = &out->track[t];
      y += header;
      tl->x = left;
      tl->w = MAX (width - left - right, 1.0);
      tl->y = y;
      tl->h = track_h;
      tl->n_lanes = s ? MAX (s->n_units, 1) : 1;
      tl->slots = s ? MAX (s->max_slot, 1) : 1;
      tl->lane_h = track_h / tl->n_lanes;
      tl->t_max_ns = out->t_max_ns;
      if (model->own_time_scale && s != NULL && s->t1_ns > 0)
        tl->t_max_ns = (double) s->t1_ns;
      tl->px_per_ns = tl->w / tl->t_max_ns;
      y += track_h + axis + gap;
    }
  out->px_per_ns = out->track[0].w / out->t_max_ns;

  if (out->cb_w > 0 && nt > 0)
    {
      out->cb_x = width - right + font * 0.6;
      out->cb_y = out->track[0].y;
      out->cb_h = out->track[nt - 1].y + out->track[nt - 1].h - out->cb_y;
    }
}

void
tl_timeline_layout_bar (const TlTimelineLayout *layout, const TlTimelineModel *model,
                        guint track, gsize block, double *x, double *y, double *w, double *h)
{
  const TlTimelineTrackLayout *tl = &layout->track[track];
  const TlTimelineTrack *tr = &model->tracks[track];
  const TlBlockRecord *b = &tr->blocks[block];
  double sub = tl->lane_h / tl->slots;
  double pad = sub >= 4 ? sub * 0.12 : 0;
  guint slot = tr->stats && tr->stats->slot[block] != G_MAXUINT ? tr->stats->slot[block] : 0;

  *x = tl->x + b->start_ns * tl->px_per_ns;
  *w = MAX ((double) (b->end_ns - MIN (b->start_ns, b->end_ns)) * tl->px_per_ns, 1.0);
  *y = tl->y + b->unit * tl->lane_h + slot * sub + pad;
  *h = MAX (sub - 2 * pad, 1.0);
}

gboolean
tl_timeline_layout_block_at (const TlTimelineLayout *layout, const TlTimelineModel *model,
                             double x, double y, guint *out_track, gsize *out_block)
{
  g_return_val_if_fail (layout != NULL && model != NULL, FALSE);

  for (guint t = 0; t < layout->n_tracks; t++)
    {
      const TlTimelineTrackLayout *tl = &layout->track[t];
      const TlTimelineTrack *tr = &model->tracks[t];
      if (y < tl->y || y >= tl->y + tl->h || x < tl->x || x >= tl->x + tl->w || !tr->stats)
        continue;
      /* the nearest bar in the lane under the pointer, within 2 px */
      gssize best = -1;
      double best_d = 2.5;
      for (gsize i = 0; i < tr->n_blocks; i++)
        {
          if (!tl_block_stats_selected (tr->stats, i))
            continue;
          double bx, by, bw, bh;
          tl_timeline_layout_bar (layout, model, t, i, &bx, &by, &bw, &bh);
          double sub = tl->lane_h / tl->slots;
          double sy = tl->y + tr->blocks[i].unit * tl->lane_h + tr->stats->slot[i] * sub;
          if (y < sy || y >= sy + sub)
            continue;
          double d = x < bx ? bx - x : x >= bx + bw ? x - (bx + bw) + 1 : 0;
          if (d < best_d)
            {
              best_d = d;
              best = (gssize) i;
            }
        }
      if (best >= 0)
        {
          if (out_track)
            *out_track = t;
          if (out_block)
            *out_block = (gsize) best;
          return TRUE;
        }
    }
  return FALSE;
}

static void
wave_rgb (guint wave, double rgb[3])
{
  /* alternating blue, orange, green, vermillion: neighbours always differ */
  static const guint order[4] = { 0, 1, 2, 4 };
  tl_paint_series_rgb (order[wave % 4], rgb);
}

static void
paint_time_axis (cairo_t *cr, const TlTimelineModel *model, const TlTimelineTrackLayout *tl,
                 const TlPaintStyle *style)
{
  const char *unit;
  double div = time_unit (tl->t_max_ns, &unit);
  double font = TL_PX (style, style->font_size);
  double tick = TL_PX (style, 5);
  double ticks[MAX_TICKS];
  double y0 = tl->y + tl->h;
  char buf[64];

  tl_paint_set_fg (cr, style);
  cairo_set_line_width (cr, TL_LINE (style, style->line_width));
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  guint n = tl_paint_axis_ticks (cr, 0, tl->t_max_ns / div, tl->px_per_ns * div, FALSE, FALSE,
                                 tl_format_value, ticks, MAX_TICKS);
  for (guint i = 0; i < n; i++)
    {
      double x = round (tl->x + ticks[i] * div * tl->px_per_ns) + 0.5;
      cairo_move_to (cr, x, y0);
      cairo_line_to (cr, x, y0 + tick);
      cairo_stroke (cr);
      tl_format_value (ticks[i], buf, sizeof buf);
      tl_paint_text (cr, x, y0 + tick + TL_PX (style, 1), 0.5, 0.0, buf);
    }
  g_autofree char *label = NULL;
  /* with several kernels, say whether their times can be compared by eye */
  if (n_tracks (model) > 1)
    label = g_strdup_printf (model->own_time_scale
                               ? _("time since the first block started (%s) · each kernel on its own time scale")
                               : _("time since the first block started (%s) · one time scale for all kernels"),
                             unit);
  else
    label = g_strdup_printf (_("time since the first block started (%s)"), unit);
  /* under the plot, not into the legend beside it: shorter words where
   * the plot is narrow */
  if (tl_paint_text_width (cr, label) > tl->w && n_tracks (model) > 1)
    {
      g_free (label);
      label = g_strdup_printf (model->own_time_scale ? _("time (%s) · each kernel on its own time scale")
                                                     : _("time (%s) · one time scale for all kernels"),
                               unit);
    }
  if (tl_paint_text_width (cr, label) > tl->w && n_tracks (model) > 1)
    {
      /* narrower still: the scale said in two words */
      g_free (label);
      label = g_strdup_printf (model->own_time_scale ? _("time (%s), own scale") : _("time (%s), shared scale"),
                               unit);
    }
  if (tl_paint_text_width (cr, label) > tl->w)
    {
      /* narrowest: the unit alone, whole, rather than the scale cut */
      g_free (label);
      /* TRANSLATORS: a time axis' title, %s is its unit: "time (µs)" */
      label = g_strdup_printf (_("time (%s)"), unit);
    }
  if (tl_paint_text_width (cr, label) > tl->w)
    {
      /* a plot narrower still (a window's page beside the sidebar): the unit */
      g_free (label);
      label = g_strdup (unit);
    }
  tl_paint_text_fit (cr, tl->x + tl->w / 2, y0 + tick + font * 1.3, 0.5, 0.0, tl->w, label);
}

static void
paint_lane_axis (cairo_t *cr, const TlTimelineTrack *tr, const TlTimelineTrackLayout *tl,
                 const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  double tick = TL_PX (style, 5);
  double ticks[MAX_TICKS];
  char buf[32];
  double label_left = tl->x;

  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  cairo_set_line_width (cr, TL_LINE (style, style->line_width));
  /* whole lanes, as many as their labels leave room for */
  guint n = tl_paint_axis_ticks (cr, 0, tl->n_lanes - 1, tl->lane_h, TRUE, TRUE,
                                 tl_format_index, ticks, MAX_TICKS);
  for (guint i = 0; i < n; i++)
    {
      double y = tl->y + (ticks[i] + 0.5) * tl->lane_h;
      cairo_move_to (cr, tl->x, y);
      cairo_line_to (cr, tl->x - tick, y);
      cairo_stroke (cr);
      tl_format_index (ticks[i], buf, sizeof buf);
      /* thin lanes: the label stays beside the track, not in the header above */
      double half = tl_paint_text_height (cr) / 2;
      double ly = tl->h > 2 * half ? CLAMP (y, tl->y + half, tl->y + tl->h - half) : y;
      double w = tl_paint_text (cr, tl->x - tick - TL_PX (style, 2), ly, 1.0, 0.5, buf);
      label_left = MIN (label_left, tl->x - tick - TL_PX (style, 2) - w);
    }
  /* the lanes' title up the left edge, whole or not at all: a track of two
   * CPU threads is too short for "thread", and the headline above already
   * says "on 2 threads" */
  const char *title = tr->unit_label ? tr->unit_label : _("SM");
  if (tl_paint_text_width (cr, title) > tl->h)
    return;
  cairo_save (cr);
  cairo_translate (cr, label_left - font * 0.3, tl->y + tl->h / 2);
  cairo_rotate (cr, -G_PI / 2);
  tl_paint_text (cr, 0, 0, 0.5, 1.0, title);
  cairo_restore (cr);
}

/* The first summary line where even its short form does not fit (two
 * kernels presented beside the tile grid): "3969 blocks · 132 SMs · 4
 * waves · tail 40%" */
static char *
headline_shortest (const TlBlockStats *s, const char *unit_label)
{
  g_autofree char *units = tl_block_count_units (s->n_units, unit_label ? unit_label : _("SM"));
  g_autofree char *blocks = g_strdup_printf (ngettext ("%zu block", "%zu blocks", s->n_blocks), s->n_blocks);
  g_autofree char *waves = g_strdup_printf (ngettext ("%u wave", "%u waves", s->n_waves), s->n_waves);
  char pct[32];
  tl_format_percent (100.0 * s->tail_share, pct, sizeof pct);
  /* TRANSLATORS: the share of the time the last, partial wave took: "tail 40%" */
  g_autofree char *tail = s->tail_share > 0 ? g_strdup_printf (_("tail %s"), pct) : g_strdup (_("no tail"));
  /* TRANSLATORS: "3969 blocks · 132 SMs · 4 waves · tail 40%" */
  return g_strdup_printf (_("%s · %s · %s · %s"), blocks, units, waves, tail);
}

static void
paint_header (cairo_t *cr, const TlTimelineModel *model, const TlTimelineLayout *lay,
              const TlTimelineTrack *tr, const TlTimelineTrackLayout *tl, const TlPaintStyle *style,
              double width)
{
  double font = TL_PX (style, style->font_size);
  double y = tl->y - font * 0.3 - lay->summary_lines * font * 1.35 - font * 1.5;
  double x = TL_PX (style, 4);
  /* up to the right end of the lanes: the colour bar beside them spans the
   * headers of the tracks below the first; the first's, above the colour
   * bar, may run on to the picture's edge */
  double right = tl == &lay->track[0] ? width - TL_PX (style, 4) : tl->x + tl->w;
  double room = right - x;
  const TlBlockStats *s = tr->stats;

  if (tr->kernel_id)
    {
      /* the kernel's colour, as in the Compare chart and the sweep */
      TlKernelLook look;
      tl_kernel_look (tr->kernel_id, &look);
      double side = font * 0.95;
      cairo_set_source_rgb (cr, look.rgb[0], look.rgb[1], look.rgb[2]);
      cairo_rectangle (cr, x, y + font * 0.25, side, side);
      cairo_fill (cr);
      x += side + font * 0.5;
      room -= side + font * 0.5;
    }
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size * 1.15, TRUE);
  tl_paint_text_fit_choice (cr, x, y, 0, 0, room, tr->label ? tr->label : _("kernel"));
  if (lay->summary_lines == 0 || s == NULL)
    return;

  TlBlockStatsText t;
  tl_block_stats_text (s, &t);
  /* each line whole, or its short form: a number cut to "6.47…" would
   * read as another number */
  g_autofree char *l1 = tl_block_stats_headline (s, tr->unit_label);
  g_autofree char *l1_short = tl_block_stats_headline_short (s, tr->unit_label);
  g_autofree char *l2 = g_strdup_printf (
    _("block time: min %s · median %s · max %s      kernel span %s"), t.min, t.median, t.max,
    t.span);
  g_autofree char *l2_short = g_strdup_printf (_("min %s · median %s · max %s · span %s"), t.min,
                                               t.median, t.max, t.span);
  g_autofree char *l1_shortest = headline_shortest (s, tr->unit_label);
  /* TRANSLATORS: the timeline's block times where the track is narrow (two kernels beside the tile grid) */
  g_autofree char *l2_shortest = g_strdup_printf (_("median %s · max %s · span %s"), t.median, t.max, t.span);
  g_autofree char *l1_choices = g_strconcat (l1, "\n", l1_short, "\n", l1_shortest, NULL);
  g_autofree char *l2_choices = g_strconcat (l2, "\n", l2_short, "\n", l2_shortest, NULL);

  x = TL_PX (style, 4);
  room = right - x;
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  y += font * 1.5;
  tl_paint_text_fit_choice (cr, x, y, 0, 0, room, l1_choices);
  if (lay->summary_lines > 1)
    tl_paint_text_fit_choice (cr, x, y + font * 1.35, 0, 0, room, l2_choices);
}

/* Room in a track for the wave names along its top and the tail's sentence
 * along its bottom without the two touching: a short track (two timelines
 * on a small screen) keeps its bars, the tail's shading and the wave
 * boundaries, and loses those words rather than lay them over each other. */
static gboolean
track_has_room_for_labels (const TlTimelineTrackLayout *tl, const TlPaintStyle *style)
{
  return tl->h >= TL_PX (style, style->font_size) * 3.6;
}

/* Before the bars (labels FALSE): the tail band and the wave boundaries;
 * after them (labels TRUE): the boundaries' names, on top. */
static void
paint_waves (cairo_t *cr, const TlTimelineModel *model, const TlTimelineLayout *lay,
             guint t, const TlPaintStyle *style, gboolean labels)
{
  const TlTimelineTrack *tr = &model->tracks[t];
  const TlTimelineTrackLayout *tl = &lay->track[t];
  const TlBlockStats *s = tr->stats;
  double font = TL_PX (style, style->font_size);

  /* the tail: shaded from the last partial wave's start to the end */
  if (!labels && s->last_wave_partial && s->n_waves > 0)
    {
      double x0 = tl->x + s->tail_start_ns * tl->px_per_ns;
      double x1 = tl->x + s->t1_ns * tl->px_per_ns;
      cairo_save (cr);
      cairo_rectangle (cr, x0, tl->y, MAX (x1 - x0, 1.0), tl->h);
      cairo_set_source_rgba (cr, style->error[0], style->error[1], style->error[2],
                             style->high_contrast ? 0.22 : 0.12);
      cairo_fill (cr);
      cairo_restore (cr);
    }

  /* with dozens of waves the lines would hide the bars: the summary counts them */
  if (s->n_waves < 2 || s->n_waves > 24 || (labels && !track_has_room_for_labels (tl, style)))
    return;
  double *start = g_new (double, s->n_waves);
  guint *launch = g_new0 (guint, s->n_waves);
  for (guint w = 0; w < s->n_waves; w++)
    start[w] = INFINITY;
  for (gsize i = 0; i < tr->n_blocks; i++)
    if (tl_block_stats_selected (s, i) && s->wave[i] < s->n_waves
        && tr->blocks[i].start_ns < start[s->wave[i]])
      {
        start[s->wave[i]] = (double) tr->blocks[i].start_ns;
        launch[s->wave[i]] = tr->blocks[i].launch;
      }

  /* boundaries only where they are far enough apart to read */
  double last_x = -INFINITY, last_label = -INFINITY;
  cairo_save (cr);
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint w = 1; w < s->n_waves; w++)
    {
      if (!isfinite (start[w]))
        continue;
      double x = round (tl->x + start[w] * tl->px_per_ns) + 0.5;
      if (x - last_x < TL_PX (style, 6))
        continue;
      last_x = x;
      if (!labels)
        {
          cairo_move_to (cr, x, tl->y);
          cairo_line_to (cr, x, tl->y + tl->h);
          double dash = TL_PX (style, 4);
          cairo_set_dash (cr, &dash, 1, 0);
          cairo_set_line_width (cr, TL_LINE (style, style->line_width));
          tl_paint_set_fg (cr, style);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
          continue;
        }
      char buf[48];
      if (s->n_launches > 1 && launch[w] != launch[w - 1])
        g_snprintf (buf, sizeof buf, _("launch %u · wave %u"), launch[w], w + 1);
      else
        g_snprintf (buf, sizeof buf, _("wave %u"), w + 1);
      double tw = tl_paint_text_width (cr, buf);
      if (x - last_label > tw + font * 0.6 && x + tw + font * 0.3 < tl->x + tl->w)
        {
          /* on a background patch, above the bars */
          tl_paint_label_on_patch (cr, style, x + TL_PX (style, 4), tl->y + TL_PX (style, 2), 0, 0,
                                   NULL, buf);
          last_label = x + TL_PX (style, 4) + tw;
        }
    }
  cairo_restore (cr);
  g_free (start);
  g_free (launch);
}

/* The tail's label in the words that fit max_w (cr in its type), longest
 * first: the sentence, the numbers with "slots", with "tail", the numbers
 * alone (in the tail's red frame, on its shading); FALSE where not even
 * those fit (a narrow track, German): the track's summary says the tail,
 * and a label cut to "tail: 64/264, 10…" says less. */
static gboolean
tail_label_text (cairo_t *cr, const TlPaintStyle *style, const TlBlockStats *s, double max_w,
                 char *buf, gsize size, double *bw, double *bh)
{
  char pct[32];
  tl_format_percent (100.0 * s->tail_share, pct, sizeof pct);
  for (guint form = 0; form < 4; form++)
    {
      if (form == 0)
        g_snprintf (buf, size, _("tail: last wave %u of %u slots busy, %s of the time"),
                    s->last_wave_blocks, s->capacity, pct);
      else if (form == 1)
        /* a narrow track (two side by side, presenting): the numbers, cut
         * last, not the words that tell one track's tail from another's */
        g_snprintf (buf, size, _("tail: %u/%u slots, %s"), s->last_wave_blocks, s->capacity, pct);
      else if (form == 2)
        g_snprintf (buf, size, _("tail: %u/%u, %s"), s->last_wave_blocks, s->capacity, pct);
      else
        /* TRANSLATORS: the tail's label where no word fits: blocks of the last wave / its
           slots, the share of the time ("64/264, 10%") */
        g_snprintf (buf, size, _("%u/%u, %s"), s->last_wave_blocks, s->capacity, pct);
      tl_paint_label_boxed_size (cr, style, buf, bw, bh);
      if (*bw <= max_w)
        return TRUE;
    }
  return FALSE;
}

static void
paint_tail_label (cairo_t *cr, const TlTimelineModel *model, const TlTimelineLayout *lay,
                  guint t, const TlPaintStyle *style)
{
  const TlBlockStats *s = model->tracks[t].stats;
  const TlTimelineTrackLayout *tl = &lay->track[t];
  if (!s->last_wave_partial || s->n_blocks == 0 || !track_has_room_for_labels (tl, style))
    return;

  char buf[160];
  double font = TL_PX (style, style->font_size);
  double x1 = tl->x + s->t1_ns * tl->px_per_ns;
  cairo_save (cr);
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  /* in a box framed in the tail's colour, ending where the kernel ends,
   * along the bottom of the track: the words in fg, which read on a
   * projector in every theme, where the error red itself does not */
  double bw, bh;
  /* on a short track (two kernels beside the tile grid) a box over more
   * than a third of the lanes hides the bars it labels: the summary says
   * the tail there */
  if (tail_label_text (cr, style, s, tl->w - font * 0.4, buf, sizeof buf, &bw, &bh)
      && bh <= tl->h / 3)
    {
      double x = CLAMP (x1 - bw, tl->x + font * 0.2, tl->x + tl->w - bw - font * 0.2);
      double y = tl->y + tl->h - bh - font * 0.3;
      tl_paint_label_boxed (cr, style, x, y, bw, style->error, buf);
    }
  cairo_restore (cr);
}

static void
paint_bars (cairo_t *cr, const TlTimelineModel *model, const TlTimelineLayout *lay, guint t,
            const TlColorScale *scale, const TlPaintStyle *style)
{
  const TlTimelineTrack *tr = &model->tracks[t];
  const TlBlockStats *s = tr->stats;
  const TlTimelineTrackLayout *tl = &lay->track[t];

  cairo_save (cr);
  cairo_rectangle (cr, tl->x, tl->y, tl->w, tl->h);
  cairo_clip (cr);
  for (gsize i = 0; i < tr->n_blocks; i++)
    {
      if (!tl_block_stats_selected (s, i))
        continue;
      const TlBlockRecord *b = &tr->blocks[i];
      double x, y, w, h;
      tl_timeline_layout_bar (lay, model, t, i, &x, &y, &w, &h);
      if (model->color == TL_TIMELINE_COLOR_WAVE)
        {
          double rgb[3];
          wave_rgb (s->wave[i], rgb);
          cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
        }
      else
        {
          guint8 rgb[3];
          tl_color_scale_rgb (scale, (b->end_ns - MIN (b->start_ns, b->end_ns)) / 1e3, rgb);
          cairo_set_source_rgb (cr, rgb[0] / 255.0, rgb[1] / 255.0, rgb[2] / 255.0);
        }
      /* a hairline gap between neighbours, where bars are wide enough to spare it */
      cairo_rectangle (cr, x, y, w >= 5 ? w - 1 : w, h);
      cairo_fill (cr);
    }

  /* the last, partial wave: outlined so the tail's blocks stand out (when
   * bars are tall enough to keep their colour inside the outline) */
  if (model->show_waves && s->last_wave_partial && tl->lane_h / tl->slots >= TL_PX (style, 7))
    {
      double lw = MIN (TL_LINE (style, 2), tl->lane_h / tl->slots / 3);
      cairo_set_line_width (cr, MAX (lw, 1.0));
      cairo_set_source_rgb (cr, style->error[0], style->error[1], style->error[2]);
      for (gsize i = 0; i < tr->n_blocks; i++)
        if (tl_block_stats_selected (s, i) && s->wave[i] == s->tail_wave)
          {
            double x, y, w, h;
            tl_timeline_layout_bar (lay, model, t, i, &x, &y, &w, &h);
            cairo_rectangle (cr, x + lw / 2, y + lw / 2, MAX (w - lw, 1.0), MAX (h - lw, 1.0));
          }
      cairo_stroke (cr);
    }
  cairo_restore (cr);

  if ((guint) model->highlight_track == t && model->highlight_block >= 0
      && (gsize) model->highlight_block < tr->n_blocks)
    {
      double x, y, w, h, lw = TL_PX (style, 2.5);
      double minw = TL_PX (style, 8);
      tl_timeline_layout_bar (lay, model, t, model->highlight_block, &x, &y, &w, &h);
      if (w < minw)
        x -= (minw - w) / 2, w = minw;
      if (h < minw)
        y -= (minw - h) / 2, h = minw;
      cairo_save (cr);
      cairo_rectangle (cr, x, y, w, h);
      cairo_set_line_width (cr, lw * 2);
      cairo_set_source_rgb (cr, 0, 0, 0);
      cairo_stroke_preserve (cr);
      cairo_set_line_width (cr, lw);
      cairo_set_source_rgb (cr, TL_PAINT_HIGHLIGHT_RGB);
      cairo_stroke (cr);
      cairo_restore (cr);
    }
}

static void
paint_wave_legend (cairo_t *cr, const TlTimelineModel *model, const TlTimelineLayout *lay,
                   const TlPaintStyle *style)
{
  double font = TL_PX (style, style->font_size);
  guint max_waves = 0;
  for (guint t = 0; t < lay->n_tracks; t++)
    if (model->tracks[t].stats)
      max_waves = MAX (max_waves, model->tracks[t].stats->n_waves);

  double x = lay->cb_x, y = lay->cb_y;
  cairo_save (cr);
  tl_paint_set_fg (cr, style);
  tl_paint_set_font (cr, style, style->font_size, TRUE);
  tl_paint_text (cr, x, y, 0, 0, _("colour"));
  y += font * 1.5;
  tl_paint_set_font (cr, style, style->font_size, FALSE);
  for (guint w = 0; w < MIN (max_waves, 4u); w++)
    {
      double rgb[3];
      char buf[32];
      wave_rgb (w, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, x, y + font * 0.1, font * 1.0, font * 1.0);
      cairo_fill (cr);
      tl_paint_set_fg (cr, style);
      g_snprintf (buf, sizeof buf, _("wave %u"), w + 1);
      tl_paint_text (cr, x + font * 1.4, y, 0, 0, buf);
      y += font * 1.45;
    }
  if (max_waves > 4)
    {
      tl_paint_text (cr, x, y, 0, 0, _("… repeating"));
      y += font * 1.45;
    }
  y += font * 0.6;
  cairo_set_source_rgba (cr, style->error[0], style->error[1], style->error[2],
                         style->high_contrast ? 0.22 : 0.12);
  cairo_rectangle (cr, x, y + font * 0.1, font * 1.0, font * 1.0);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, style->error[0], style->error[1], style->error[2]);
  cairo_set_line_width (cr, TL_LINE (style, 2));
  cairo_rectangle (cr, x, y + font * 0.1, font * 1.0, font * 1.0);
  cairo_stroke (cr);
  tl_paint_set_fg (cr, style);
  tl_paint_text (cr, x + font * 1.4, y, 0, 0, _("tail"));
  cairo_restore (cr);
}

/* The colour bar's words, or on a short bar (a grid above it, presenting)
 * the unit alone: the summary above names the block time. */
static char *
colorbar_label (void)
{
  return g_strconcat (_("block time (µs)"), "\nµs", NULL);
}

void
tl_paint_timeline (cairo_t *cr, const TlTimelineModel *model, const TlPaintStyle *style,
                   double width, double height)
{
  g_return_if_fail (cr != NULL && model != NULL && style != NULL);

  TlTimelineLayout lay;
  TlColorScale scale;
  guint nt = n_tracks (model);

  cairo_save (cr);
  tl_paint_background (cr, style, width, height);
  if (nt == 0)
    {
      tl_paint_hint (cr, style, width, height, _("No block records: run the kernel instrumented"));
      cairo_restore (cr);
      return;
    }

  tl_paint_timeline_layout (model, style, width, height, &lay);
  duration_scale (model, &scale);

  if (model->title)
    {
      tl_paint_set_fg (cr, style);
      tl_paint_set_font (cr, style, style->title_font_size, TRUE);
      tl_paint_text_fit (cr, TL_PX (style, 4), TL_PX (style, style->font_size) * 0.4, 0, 0,
                         width - TL_PX (style, 8), model->title);
    }

  for (guint t = 0; t < nt; t++)
    {
      const TlTimelineTrack *tr = &model->tracks[t];
      const TlTimelineTrackLayout *tl = &lay.track[t];

      paint_header (cr, model, &lay, tr, tl, style, width);
      if (tr->stats == NULL || tr->n_blocks == 0)
        continue;

      /* lanes: alternate shading so a lane can be followed across */
      cairo_save (cr);
      for (guint u = 0; u < tl->n_lanes; u++)
        if (u % 2 == 1 && tl->lane_h >= TL_PX (style, 6))
          cairo_rectangle (cr, tl->x, tl->y + u * tl->lane_h, tl->w, tl->lane_h);
      tl_paint_set_fg_alpha (cr, style, 0.05);
      cairo_fill (cr);
      cairo_restore (cr);

      if (model->show_waves)
        paint_waves (cr, model, &lay, t, style, FALSE);
      paint_bars (cr, model, &lay, t, &scale, style);
      if (model->show_waves)
        paint_waves (cr, model, &lay, t, style, TRUE);

      tl_paint_frame (cr, style, tl->x, tl->y, tl->w, tl->h);
      paint_lane_axis (cr, tr, tl, style);
      paint_time_axis (cr, model, tl, style);
      if (model->show_waves)
        paint_tail_label (cr, model, &lay, t, style);
    }

  if (lay.cb_w > 0 && model->color == TL_TIMELINE_COLOR_WAVE)
    paint_wave_legend (cr, model, &lay, style);
  else if (lay.cb_w > 0)
    {
      g_autofree char *label = colorbar_label ();
      TlColorbarModel cb = { .scale = scale, .label = label };
      cairo_save (cr);
      cairo_translate (cr, lay.cb_x, lay.cb_y);
      tl_paint_colorbar (cr, &cb, style, lay.cb_w, lay.cb_h);
      cairo_restore (cr);
    }
  cairo_restore (cr);
}
