/* tl-gauss-frame.c — the working matrix at step N, replayed from a snapshot. */
#include "view/tl-gauss-frame.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include "core/tl-error.h"

guint
tl_gauss_record_n_frames (const TlLuRecorder *record)
{
  g_return_val_if_fail (record != NULL, 0);
  return record->steps->len + 1;
}

gint
tl_gauss_record_block_of (const TlLuRecorder *record, guint k)
{
  g_return_val_if_fail (record != NULL, -1);
  for (guint b = 0; b < record->blocks->len; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (record->blocks, TlLuBlockStep, b);
      if (k >= bs->k0 && k < bs->k0 + bs->kb)
        return (gint) b;
    }
  return -1;
}

guint
tl_gauss_record_block_start (const TlLuRecorder *record, guint block)
{
  g_return_val_if_fail (record != NULL, 0);
  if (block >= record->blocks->len)
    return record->steps->len;
  return g_array_index (record->blocks, TlLuBlockStep, block).k0;
}

/* a snapshot the replay may start from: every column up to date */
static gboolean
clean_state (const TlLuRecorder *rec, guint after)
{
  if (after == 0 || after >= rec->steps->len || rec->blocks->len == 0)
    return TRUE;
  for (guint b = 0; b < rec->blocks->len; b++)
    {
      const TlLuBlockStep *bs = &g_array_index (rec->blocks, TlLuBlockStep, b);
      if (after == bs->k0)
        return TRUE;
      /* inside the last panel there is nothing right of it left stale */
      if (after > bs->k0 && after < bs->k0 + bs->kb && bs->k0 + bs->kb >= rec->cols)
        return TRUE;
    }
  return FALSE;
}

static guint64
inv_mod (guint64 a, guint64 p)
{
  gint64 t = 0, nt = 1, r = (gint64) p, nr = (gint64) (a % p);
  while (nr != 0)
    {
      gint64 q = r / nr, tmp;
      tmp = t - q * nt, t = nt, nt = tmp;
      tmp = r - q * nr, r = nr, nr = tmp;
    }
  if (t < 0)
    t += (gint64) p;
  return (guint64) t;
}

static void
replay_step (const TlLuRecorder *rec, double *a, guint k)
{
  const TlLuStep *st = &g_array_index (rec->steps, TlLuStep, k);
  guint m = rec->rows, n = rec->cols;
  guint64 p = rec->modulus;

  if (k >= m || k >= n)
    return;
  if (st->pivot_row >= 0 && (guint) st->pivot_row != k && (guint) st->pivot_row < m)
    {
      double *r0 = a + (gsize) k * n, *r1 = a + (gsize) st->pivot_row * n;
      for (guint j = 0; j < n; j++)
        {
          double t = r0[j];
          r0[j] = r1[j];
          r1[j] = t;
        }
    }
  double piv = a[(gsize) k * n + k];
  if (st->zero_pivot || piv == 0)
    return;

  const double *rk = a + (gsize) k * n;
  if (p > 0)
    {
      guint64 inv = inv_mod ((guint64) piv, p);
      for (guint i = k + 1; i < m; i++)
        {
          double *ri = a + (gsize) i * n;
          guint64 l = ((guint64) ri[k] % p) * inv % p;
          ri[k] = (double) l;
          for (guint j = k + 1; j < n; j++)
            {
              guint64 prod = l * ((guint64) rk[j] % p) % p;
              ri[j] = (double) (((guint64) ri[j] + p - prod) % p);
            }
        }
      return;
    }
  for (guint i = k + 1; i < m; i++)
    {
      double *ri = a + (gsize) i * n;
      double l = ri[k] / piv;
      ri[k] = l;
      for (guint j = k + 1; j < n; j++)
        ri[j] -= l * rk[j];
    }
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y ? 1 : 0;
}

/* the colour range of a record (floating point): see value_range */
static double
record_value_range (const TlLuRecorder *rec)
{
  const TlLuSnapshot *last = &g_array_index (rec->snapshots, TlLuSnapshot, rec->snapshots->len - 1);
  gsize n = (gsize) last->rows * last->cols, m = 0;
  double *v = g_new (double, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    if (isfinite (last->data[i]))
      v[m++] = fabs (last->data[i]);
  double p98 = 0;
  if (m > 0)
    {
      qsort (v, m, sizeof *v, cmp_double);
      p98 = v[(gsize) floor (0.98 * (m - 1))];
    }
  g_free (v);
  double r = MAX (isfinite (rec->max_abs_a) ? rec->max_abs_a : 0, p98);
  return r > 0 ? r : 1.0;
}

TlGaussFrame *
tl_gauss_frame_new (const TlLuRecorder *rec, guint step, GError **error)
{
  g_return_val_if_fail (rec != NULL, NULL);

  guint n_steps = rec->steps->len;
  if (step > n_steps)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("step %u is out of range: the record has steps 0…%u (%u is the finished L\\U)"),
                   step, n_steps, n_steps);
      return NULL;
    }
  if (rec->snapshots->len == 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("the Gauss record has no snapshot of the matrix"));
      return NULL;
    }

  /* the latest snapshot at or before step; clean ones for replay */
  const TlLuSnapshot *best = NULL, *nearest = NULL;
  for (guint i = 0; i < rec->snapshots->len; i++)
    {
      const TlLuSnapshot *s = &g_array_index (rec->snapshots, TlLuSnapshot, i);
      if (s->after_steps > step)
        continue;
      if (nearest == NULL || s->after_steps > nearest->after_steps)
        nearest = s;
      if (s->pool_r == 1 && s->pool_c == 1 && clean_state (rec, s->after_steps)
          && (best == NULL || s->after_steps > best->after_steps))
        best = s;
    }
  if (nearest == NULL)
    nearest = &g_array_index (rec->snapshots, TlLuSnapshot, 0);

  TlGaussFrame *f = g_new0 (TlGaussFrame, 1);
  f->record = rec;
  f->step = step;
  f->n_steps = n_steps;
  f->current = step < n_steps ? &g_array_index (rec->steps, TlLuStep, step) : NULL;
  f->block = step < n_steps ? tl_gauss_record_block_of (rec, step) : -1;
  for (guint k = 0; k < MIN (step, n_steps); k++)
    f->swaps_so_far += g_array_index (rec->steps, TlLuStep, k).swapped ? 1 : 0;

  if (best != NULL && best->rows == rec->rows && best->cols == rec->cols)
    {
      gsize cells = (gsize) best->rows * best->cols;
      double *a = g_memdup2 (best->data, cells * sizeof (double));
      for (guint k = best->after_steps; k < step; k++)
        replay_step (rec, a, k);
      f->matrix = tl_pooled_grid_new_from_values (rec->rows, rec->cols, best->rows, best->cols,
                                                  1, 1, TL_POOL_MAX_ABS, a);
      f->matrix_steps = step;
      f->exact = TRUE;
      g_free (a);
    }
  else
    {
      f->matrix = tl_pooled_grid_new_from_values (rec->rows, rec->cols, nearest->rows,
                                                  nearest->cols, MAX (nearest->pool_r, 1),
                                                  MAX (nearest->pool_c, 1), TL_POOL_MAX_ABS,
                                                  nearest->data);
      f->matrix_steps = nearest->after_steps;
      f->exact = nearest->after_steps == step;
    }
  f->value_range = rec->modulus > 0 ? (double) rec->modulus - 1 : record_value_range (rec);
  return f;
}

void
tl_gauss_frame_free (TlGaussFrame *frame)
{
  if (frame == NULL)
    return;
  g_clear_pointer (&frame->matrix, tl_pooled_grid_unref);
  g_free (frame);
}
