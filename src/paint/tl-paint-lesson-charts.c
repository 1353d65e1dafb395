/* tl-paint-lesson-charts.c — the lesson's pictures: the two rungs on the
 * roofline joined by an arrow, their SM timelines on one time scale. */
#include "paint/tl-paint-lesson-charts.h"

#include <math.h>
#include <string.h>

#include "paint/tl-paint-util.h"
#include "view/tl-block-stats.h"

/* The roofline's style in the lesson: over the page's background, its
 * title at the table's heading size (the page's question is the title;
 * "Roofline — NVIDIA H100 80GB HBM3" on one line, the plot a line
 * taller). */
static void
roofline_style (const TlPaintStyle *style, TlPaintStyle *sub)
{
  *sub = *style;
  sub->transparent = TRUE;
  sub->title_font_size = MIN (style->title_font_size, style->font_size * 1.1);
}

void
tl_paint_lesson_roofline_layout (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style,
                                 double w, double h, TlRooflineLayout *out)
{
  TlPaintStyle sub;
  roofline_style (style, &sub);
  tl_paint_roofline_layout (l->roofline, &sub, cr, w, h, out);
}

void
tl_paint_lesson_roofline (cairo_t *cr, const TlLesson *l, const TlPaintStyle *style, double x,
                          double y, double w, double h)
{
  TlPaintStyle sub;
  roofline_style (style, &sub);
  cairo_save (cr);
  cairo_translate (cr, x, y);
  /* the arrow from the rung below to the rung, clear of every label */
  tl_paint_roofline_arrow (cr, l->roofline, 1, 0, 1, &sub, w, h);
  cairo_restore (cr);
}

/* the two rungs' timelines on one time scale */
typedef struct
{
  TlBlockStats *stats[2];
  char *labels[2]; /* the rung's name, then its short one ("10 BF16") */
  TlTimelineTrack tracks[2];
  TlTimelineModel model;
} Timelines;

static void
timelines_clear (Timelines *t)
{
  tl_block_stats_free (t->stats[0]);
  tl_block_stats_free (t->stats[1]);
  t->stats[0] = t->stats[1] = NULL;
  g_clear_pointer (&t->labels[0], g_free);
  g_clear_pointer (&t->labels[1], g_free);
}

/* FALSE (and nothing to clear) when a rung has no block records */
static gboolean
timelines_init (Timelines *t, const TlLesson *l, const TlRunRecord *record)
{
  memset (t, 0, sizeof *t);
  const TlKernelRun *runs[2] = { tl_run_record_find_run (record, l->lower_id),
                                 tl_run_record_find_run (record, l->upper_id) };
  const char *names[2] = { l->lower_name, l->upper_name }, *short_names[2] = { l->lower_short, l->upper_short };
  for (guint i = 0; i < 2; i++)
    {
      if (runs[i] == NULL || (t->stats[i] = tl_block_stats_new_for_run (record, runs[i], -1, NULL)) == NULL)
        {
          timelines_clear (t);
          return FALSE;
        }
      t->labels[i] = g_strjoin ("\n", names[i], short_names[i], NULL);
      t->tracks[i].label = t->labels[i];
      t->tracks[i].kernel_id = runs[i]->kernel_id;
      t->tracks[i].blocks = runs[i]->blocks;
      t->tracks[i].n_blocks = runs[i]->n_blocks;
      t->tracks[i].stats = t->stats[i];
      t->tracks[i].unit_label = tl_block_unit_label (runs[i]->block_unit);
    }
  tl_timeline_model_init (&t->model);
  t->model.tracks = t->tracks;
  t->model.n_tracks = 2;
  t->model.color = TL_TIMELINE_COLOR_WAVE;
  t->model.show_summary = FALSE;
  return TRUE;
}

/* A chart column too narrow for the tail's label (a window of 1024 px
 * beside the sidebar) leaves out the waves and the tail: the table's
 * "last partial wave" says it, and two labels cut alike ("tail: 232/2…"
 * twice) say nothing. */
static void
timelines_fit (Timelines *t, const TlPaintStyle *style, double width)
{
  t->model.show_waves = width >= TL_PX (style, style->font_size) * 26;
}

void
tl_paint_lesson_timelines (cairo_t *cr, const TlLesson *l, const TlRunRecord *record,
                           const TlPaintStyle *style, double x, double y, double w, double h)
{
  Timelines t;
  if (!timelines_init (&t, l, record))
    return;
  timelines_fit (&t, style, w);
  TlPaintStyle sub = *style;
  sub.transparent = TRUE;
  cairo_save (cr);
  cairo_translate (cr, x, y);
  tl_paint_timeline (cr, &t.model, &sub, w, h);
  cairo_restore (cr);
  timelines_clear (&t);
}

gboolean
tl_paint_lesson_timelines_layout (const TlLesson *l, const TlRunRecord *record,
                                  const TlPaintStyle *style, double x, double y, double w,
                                  double h, TlTimelineLayout *out)
{
  Timelines t;
  if (w <= 0 || !timelines_init (&t, l, record))
    return FALSE;
  timelines_fit (&t, style, w);
  tl_paint_timeline_layout (&t.model, style, w, h, out);
  for (guint i = 0; i < out->n_tracks; i++)
    {
      out->track[i].x += x;
      out->track[i].y += y;
    }
  timelines_clear (&t);
  return TRUE;
}
