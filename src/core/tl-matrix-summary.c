/* tl-matrix-summary.c — stats and norms in one pass (see the header). */
#include "core/tl-matrix-summary.h"
#include "core/tl-memory.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

/* Blue's thresholds and scales for float64 (LAPACK's dnrm2): values below
 * TSML are summed scaled up by SSML, above TBIG scaled down by SBIG. */
#define TSML 0x1p-511
#define TBIG 0x1p486
#define SSML 0x1p537
#define SBIG 0x1p-538
/* The sum for the mean, scaled down beside the plain one: n values of at
 * most DBL_MAX add up to at most n·2⁻⁶⁴·DBL_MAX, within range for any
 * matrix (n < 2⁶²); exact for every |value| ≥ 2⁻⁹⁵⁸, and where the plain
 * sum overflows the smaller ones do not count. */
#define SUM_SCALE 0x1p-64

void
tl_summary_pass_begin (TlSummaryPass *pass, gsize rows, gsize cols)
{
  memset (pass, 0, sizeof *pass);
  pass->rows = rows;
  pass->cols = cols;
  pass->lo = INFINITY;
  pass->hi = -INFINITY;
  pass->has_one = rows <= 1 || cols <= TL_SUMMARY_MAX_COLS;
  if (rows > 1 && pass->has_one && cols > 0)
    pass->col_sums = g_try_new0 (double, cols);
  if (rows > 1 && cols > 0 && pass->col_sums == NULL)
    pass->has_one = FALSE;
}

/* v into the figures that do not depend on its place: the counts, the
 * sum, min and max, the max-norm and Blue's accumulators; |v| returned. */
static inline double
add_value (TlSummaryPass *p, double v)
{
  double a = fabs (v);
  if (isnan (v))
    p->st.n_nan++;
  else if (isinf (v))
    p->st.n_inf++;
  else
    {
      p->st.n_finite++;
      p->sum += v;
      p->sum_scaled += v * SUM_SCALE;
      p->lo = MIN (p->lo, v);
      p->hi = MAX (p->hi, v);
    }
  if (a > p->max_abs) /* NaN never is */
    p->max_abs = a;
  if (a > TBIG)
    p->big += (a * SBIG) * (a * SBIG);
  else if (a < TSML)
    p->small += (a * SSML) * (a * SSML);
  else
    p->middle += a * a; /* NaN lands here */
  return a;
}

void
tl_summary_pass_add (TlSummaryPass *pass, const double *values, gsize n)
{
  TlSummaryPass p = *pass; /* in registers for the loop */
  for (gsize k = 0; k < n; k++)
    {
      double a = add_value (&p, values[k]);
      p.row_sum += a;
      if (p.col_sums)
        p.col_sums[p.j] += a;
      if (++p.j == p.cols)
        {
          p.inf = fmax (p.inf, p.row_sum);
          p.row_sum = 0;
          p.j = 0;
        }
    }
  *pass = p;
}

gboolean
tl_summary_pass_begin_cells (TlSummaryPass *pass, gsize rows, gsize cols, GError **error)
{
  /* no cells: the empty matrix's figures, as tl_matrix_summarize's */
  if (rows == 0 || cols == 0)
    rows = cols = 0;
  tl_summary_pass_begin (pass, 0, 0);
  pass->rows = rows;
  pass->cols = cols;
  pass->has_one = TRUE;
  pass->row_sums = tl_memory_new0 (double, rows, _("the sums per row"), error);
  if (pass->row_sums != NULL)
    pass->col_sums = tl_memory_new0 (double, cols, _("the sums per column"), error);
  if (pass->col_sums == NULL)
    g_clear_pointer (&pass->row_sums, g_free);
  return pass->col_sums != NULL;
}

void
tl_summary_pass_add_cell (TlSummaryPass *pass, gsize i, gsize j, double v)
{
  g_assert (i < pass->rows && j < pass->cols);
  double a = add_value (pass, v);
  pass->row_sums[i] += a;
  pass->col_sums[j] += a;
  guint64 index = (guint64) i * pass->cols + j;
  if (v == 0 && index + 1 > pass->last_zero)
    {
      pass->last_zero = index + 1;
      pass->last_zero_negative = signbit (v) != 0;
    }
}

gboolean
tl_summary_pass_begin_blocks (TlSummaryPass *pass, gsize rows, gsize cols, GError **error)
{
  g_return_val_if_fail (rows > 1, FALSE);
  tl_summary_pass_begin (pass, 0, 0);
  pass->rows = rows;
  pass->cols = cols;
  pass->has_one = pass->blocks = TRUE;
  pass->row_sums = tl_memory_new0 (double, rows, _("the sums per row"), error);
  return pass->row_sums != NULL;
}

void
tl_summary_pass_add_block (TlSummaryPass *pass, gsize j0, gsize n, const double *values)
{
  g_assert (pass->blocks && j0 + n <= pass->cols);
  g_autofree double *col_sums = g_new0 (double, n);
  TlSummaryPass p = *pass; /* in registers for the loop */
  for (gsize i = 0; i < p.rows; i++)
    for (gsize c = 0; c < n; c++)
      {
        double v = values[i * n + c], a = add_value (&p, v);
        p.row_sums[i] += a;
        col_sums[c] += a;
        guint64 index = (guint64) i * p.cols + j0 + c;
        if (v == 0 && index + 1 > p.last_zero)
          {
            p.last_zero = index + 1;
            p.last_zero_negative = signbit (v) != 0;
          }
      }
  for (gsize c = 0; c < n; c++)
    p.one = fmax (p.one, col_sums[c]); /* never a NaN sum */
  *pass = p;
}

gboolean
tl_summary_pass_zero_sign_open (const TlSummaryPass *pass, guint64 *index)
{
  *index = pass->last_zero > 0 ? pass->last_zero - 1 : 0;
  /* (a min or max of 0 is one when no value below or above was given) */
  return pass->last_zero_negative && (pass->lo >= 0 || pass->hi <= 0);
}

void
tl_summary_pass_add_zeros (TlSummaryPass *pass, guint64 n, gboolean after)
{
  if (n == 0)
    return;
  pass->st.n_finite += n;
  pass->lo = MIN (pass->lo, 0.0);
  pass->hi = MAX (pass->hi, 0.0);
  pass->zeros_after = after || pass->last_zero == 0;
}

/* A min or max of 0: the last zero's sign, as a row-major pass leaves it
 * (MIN and MAX keep the later of two equal values). */
static void
sign_zero_bounds (const TlSummaryPass *pass, TlMatrixStats *st)
{
  double last = pass->last_zero_negative && !pass->zeros_after ? -0.0 : 0.0;
  if (st->min == 0)
    st->min = last;
  if (st->max == 0)
    st->max = last;
}

/* Blue's accumulators combined (dnrm2's ending). */
static double
frobenius (const TlSummaryPass *p)
{
  if (isnan (p->middle) || isnan (p->big) || isnan (p->small))
    return NAN;
  if (p->big > 0)
    return sqrt (p->big + (p->middle * SBIG) * SBIG) / SBIG;
  if (p->small > 0)
    {
      if (p->middle <= 0)
        return sqrt (p->small) / SSML;
      double lo = sqrt (p->small) / SSML, hi = sqrt (p->middle);
      if (lo > hi)
        {
          double t = lo;
          lo = hi;
          hi = t;
        }
      return hi * sqrt (1 + (lo / hi) * (lo / hi));
    }
  return sqrt (p->middle);
}

gboolean
tl_summary_pass_end (TlSummaryPass *pass, TlMatrixSummary *out)
{
  memset (out, 0, sizeof *out);
  out->stats = pass->st;
  if (pass->st.n_finite > 0)
    {
      out->stats.min = pass->lo;
      out->stats.max = pass->hi;
      double n = (double) pass->st.n_finite;
      /* a sum beyond float64 (1e308 + 1e308 − 1e308) is taken scaled */
      out->stats.mean = isfinite (pass->sum) ? pass->sum / n : pass->sum_scaled / n / SUM_SCALE;
      if (pass->row_sums != NULL)
        sign_zero_bounds (pass, &out->stats);
    }
  out->norm_max = pass->max_abs;
  out->norm_inf = pass->inf;
  for (gsize i = 0; pass->row_sums && i < pass->rows; i++)
    out->norm_inf = fmax (out->norm_inf, pass->row_sums[i]);
  g_clear_pointer (&pass->row_sums, g_free);
  out->norm_frobenius = frobenius (pass);
  if (pass->rows <= 1)
    out->norm_one = pass->max_abs; /* each column's sum is its one |value| */
  else if (pass->blocks)
    out->norm_one = pass->one;
  else if (pass->col_sums)
    for (gsize j = 0; j < pass->cols; j++)
      out->norm_one = fmax (out->norm_one, pass->col_sums[j]);
  else if (pass->cols > 0)
    out->norm_one = NAN;
  g_clear_pointer (&pass->col_sums, g_free);
  return !isnan (out->norm_one); /* fmax never keeps a NaN sum */
}

/* Elements (i, j0) … (i, j0 + n − 1) as doubles. */
static void
read_chunk (const TlMatrix *m, gsize i, gsize j0, gsize n, double *out)
{
  const void *row = tl_matrix_row (m, i);
  switch (m->dtype)
    {
    case TL_DTYPE_INT32:
      for (gsize j = 0; j < n; j++)
        out[j] = ((const gint32 *) row)[j0 + j];
      return;
    case TL_DTYPE_FLOAT32:
      for (gsize j = 0; j < n; j++)
        out[j] = ((const float *) row)[j0 + j];
      return;
    case TL_DTYPE_FLOAT64:
      memcpy (out, (const double *) row + j0, n * sizeof (double));
      return;
    }
}

enum { CHUNK = 512 };

/* max column sum of |a|, a block of columns at a time: no vector as long
 * as a row (a 2×350000000 matrix would need 2.6 GiB of sums) */
static double
norm_one_by_blocks (const TlMatrix *self)
{
  double result = 0.0, col[CHUNK], buf[CHUNK];
  for (gsize j0 = 0; j0 < self->cols; j0 += CHUNK)
    {
      gsize nb = MIN ((gsize) CHUNK, self->cols - j0);
      memset (col, 0, sizeof col);
      for (gsize i = 0; i < self->rows; i++)
        {
          read_chunk (self, i, j0, nb, buf);
          for (gsize j = 0; j < nb; j++)
            col[j] += fabs (buf[j]);
        }
      for (gsize j = 0; j < nb; j++)
        result = fmax (result, col[j]);
    }
  return result;
}

void
tl_matrix_summarize (const TlMatrix *matrix, TlMatrixSummary *out)
{
  gsize rows = matrix->cols == 0 ? 0 : matrix->rows, cols = rows == 0 ? 0 : matrix->cols;
  TlSummaryPass pass;
  tl_summary_pass_begin (&pass, rows, cols);
  double buf[CHUNK];
  if (matrix->dtype == TL_DTYPE_FLOAT64)
    for (gsize i = 0; i < rows; i++)
      tl_summary_pass_add (&pass, tl_matrix_row (matrix, i), cols);
  else
    for (gsize i = 0; i < rows; i++)
      for (gsize j0 = 0; j0 < cols; j0 += CHUNK)
        {
          gsize nb = MIN ((gsize) CHUNK, cols - j0);
          read_chunk (matrix, i, j0, nb, buf);
          tl_summary_pass_add (&pass, buf, nb);
        }
  if (!tl_summary_pass_end (&pass, out))
    out->norm_one = norm_one_by_blocks (matrix);
}

/* core/tl-matrix.h's stats and norms: the summary's, which `info` makes once. */
void
tl_matrix_stats (const TlMatrix *self, TlMatrixStats *out)
{
  TlMatrixSummary summary;
  tl_matrix_summarize (self, &summary);
  *out = summary.stats;
}

double
tl_matrix_norm (const TlMatrix *self, TlNorm norm)
{
  TlMatrixSummary s;
  tl_matrix_summarize (self, &s);
  switch (norm)
    {
    case TL_NORM_ONE:       return s.norm_one;
    case TL_NORM_INF:       return s.norm_inf;
    case TL_NORM_FROBENIUS: return s.norm_frobenius;
    case TL_NORM_MAX:       return s.norm_max;
    }
  g_return_val_if_reached (NAN);
}
