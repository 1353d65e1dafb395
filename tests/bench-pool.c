/* bench-pool.c — how long the heatmaps wait for pooling after a load.
 *
 *   bench-pool [N] [REPEATS]      (default 8192 and 5)
 *
 * Not a test: the numbers for docs/perf (the aim: an N² pair shows a first
 * heatmap ≤ 0.5 s after load and the full one ≤ 1.5 s).  A fresh
 * random float32 N×N matrix (never zeros) is pooled as the app's heatmap
 * view pools it: to at most 1024×1024 cells for a heatmap, 256×256 for a
 * thumbnail, gathering the range of every element on the way.
 *
 * 1. one pool, each mode: median, min and max of REPEATS after a warm-up;
 * 2. what a load of A and B starts: four pooling tasks at once (A's and
 *    B's heatmap — a preview from every 8th row, then the full grid — and
 *    thumbnail) on GLib's thread pool, as the views' GTasks run; the time
 *    until the first preview and until both full grids are ready.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "view/tl-pool.h"
#include "paint/tl-paint-heatmap.h"

typedef struct
{
  TlMatrix *matrix;
  gboolean thumbnail;
  gint64 t0;
  gint64 first_us, done_us; /* the first picture (a preview, or the grid), the final grid */
} Job;

static void
colour (const TlPooledGrid *g)
{
  /* what the view also does off the main loop: the colours */
  TlColorScale scale;
  tl_color_scale_init_for_range (&scale, -1, TL_SCALE_LINEAR, &g->range);
  cairo_surface_destroy (tl_pooled_grid_colorize (g, &scale));
}

/* What one heatmap view's pooling task does after a load (ui/tl-heatmap-view.c):
 * a thumbnail from every 4th row; a heatmap a preview from every 8th row
 * (256² cells), then the full grid (1024² cells, every element). */
static void
pool_job (gpointer data, gpointer user_data)
{
  Job *job = data;
  TlPooledGrid *g;
  if (job->thumbnail)
    {
      g = tl_pool_matrix_preview (job->matrix, 256, 256, 4, TL_POOL_MEAN, NULL, NULL);
      colour (g);
      tl_pooled_grid_unref (g);
      job->first_us = job->done_us = g_get_monotonic_time () - job->t0;
      return;
    }
  g = tl_pool_matrix_preview (job->matrix, 256, 256, 8, TL_POOL_MEAN, NULL, NULL);
  colour (g);
  tl_pooled_grid_unref (g);
  job->first_us = g_get_monotonic_time () - job->t0;
  g = tl_pool_matrix (job->matrix, 0, 0, 0, 0, 1024, 1024, TL_POOL_MEAN, NULL, NULL);
  colour (g);
  tl_pooled_grid_unref (g);
  job->done_us = g_get_monotonic_time () - job->t0;
}

/* CPU time of the calling thread: what the work costs on an idle core,
 * whatever else the machine runs meanwhile */
static double
thread_cpu_s (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static TlMatrix *
random_matrix (gsize n, guint32 seed)
{
  TlMatrix *m = tl_matrix_new (TL_DTYPE_FLOAT32, n, n, NULL);
  GRand *rand = g_rand_new_with_seed (seed);
  for (gsize i = 0; i < n; i++)
    {
      float *row = tl_matrix_row (m, i);
      for (gsize j = 0; j < n; j++)
        row[j] = (float) g_rand_double_range (rand, -1.0, 1.0);
    }
  g_rand_free (rand);
  return m;
}

int
main (int argc, char **argv)
{
  gsize n = argc > 1 ? (gsize) g_ascii_strtoull (argv[1], NULL, 10) : 8192;
  guint repeats = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 5;
  if (n == 0 || repeats == 0)
    {
      fprintf (stderr, "usage: bench-pool [N] [REPEATS]\n");
      return 2;
    }
  g_autoptr (TlMatrix) a = random_matrix (n, 1);
  g_autoptr (TlMatrix) b = random_matrix (n, 2);
  printf ("matrix: %zu×%zu float32, random in [-1, 1); %u repeats after a warm-up; %u CPUs\n\n",
          n, n, repeats, g_get_num_processors ());

  printf ("| one pool of A | wall median s | wall min–max s | CPU median s |\n|---|---|---|---|\n");
  for (int mode = -2; mode < TL_POOL_MODE_COUNT; mode++)
    {
      double t[64], c[64];
      guint k = MIN (repeats, 63);
      for (guint r = 0; r <= k; r++)
        {
          gint64 t0 = g_get_monotonic_time ();
          double c0 = thread_cpu_s ();
          /* -2: the preview (256², every 8th row), -1: a thumbnail (256², every 4th row) */
          TlPooledGrid *g = mode == -2 ? tl_pool_matrix_preview (a, 256, 256, 8, TL_POOL_MEAN, NULL, NULL)
                            : mode == -1 ? tl_pool_matrix_preview (a, 256, 256, 4, TL_POOL_MEAN, NULL, NULL)
                                         : tl_pool_matrix (a, 0, 0, 0, 0, 1024, 1024, mode, NULL, NULL);
          double s = (g_get_monotonic_time () - t0) / 1e6, cs = thread_cpu_s () - c0;
          tl_pooled_grid_unref (g);
          if (r > 0)
            t[r - 1] = s, c[r - 1] = cs;
        }
      qsort (t, k, sizeof t[0], cmp_double);
      qsort (c, k, sizeof c[0], cmp_double);
      g_autofree char *what = mode == -2 ? g_strdup ("preview: 256² cells, mean, 1 row in 8")
                              : mode == -1 ? g_strdup ("thumbnail: 256² cells, mean, 1 row in 4")
                                           : g_strdup_printf ("full: 1024² cells, %s",
                                                              mode == TL_POOL_MAX_ABS ? "max \\|a\\|"
                                                                                      : tl_pool_mode_name (mode));
      printf ("| %s | %.3f | %.3f–%.3f | %.3f |\n", what, t[k / 2], t[0], t[k - 1], c[k / 2]);
    }

  printf ("\n| after loading A and B: 4 pooling tasks at once (heatmaps: preview, then full; "
          "thumbnails) | first heatmap preview s | both full heatmaps s |\n|---|---|---|\n");
  double first[64], last[64];
  guint k = MIN (repeats, 63);
  for (guint r = 0; r < k; r++)
    {
      Job jobs[4] = { { a, FALSE }, { b, FALSE }, { a, TRUE }, { b, TRUE } };
      GThreadPool *pool = g_thread_pool_new (pool_job, NULL, 4, FALSE, NULL);
      gint64 t0 = g_get_monotonic_time ();
      for (int j = 0; j < 4; j++)
        {
          jobs[j].t0 = t0;
          g_thread_pool_push (pool, &jobs[j], NULL);
        }
      g_thread_pool_free (pool, FALSE, TRUE);
      first[r] = MIN (jobs[0].first_us, jobs[1].first_us) / 1e6;
      last[r] = MAX (jobs[0].done_us, jobs[1].done_us) / 1e6;
    }
  qsort (first, k, sizeof first[0], cmp_double);
  qsort (last, k, sizeof last[0], cmp_double);
  printf ("| median of %u (min–max) | %.3f (%.3f–%.3f) | %.3f (%.3f–%.3f) |\n", k, first[k / 2],
          first[0], first[k - 1], last[k / 2], last[0], last[k - 1]);
  return 0;
}
