/* tl-gfp.c — exact elimination modulo a prime. */
#include "lu/tl-gfp.h"
#include "core/tl-error.h"
#include "lu/tl-lu-recorder.h"

#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

guint32
tl_gfp_pow (guint32 a, guint64 e, guint32 p)
{
  guint32 r = 1 % p;
  a %= p;
  while (e)
    {
      if (e & 1)
        r = tl_gfp_mul (r, a, p);
      a = tl_gfp_mul (a, a, p);
      e >>= 1;
    }
  return r;
}

guint32
tl_gfp_inv (guint32 a, guint32 p)
{
  g_assert (a % p != 0);
  return tl_gfp_pow (a, p - 2, p);
}

/* Deterministic Miller–Rabin: bases 2, 3, 5, 7, 11 decide every n below
 * 2.15·10¹² (2, 3, 5, 7 alone are fooled by 3215031751). */
gboolean
tl_gfp_is_prime (guint64 n)
{
  if (n < 2)
    return FALSE;
  static const guint32 small[] = { 2, 3, 5, 7, 11, 13 };
  for (guint i = 0; i < G_N_ELEMENTS (small); i++)
    if (n % small[i] == 0)
      return n == small[i];
  if (n >= ((guint64) 1 << 32))
    {
      for (guint64 d = 17; d * d <= n; d += 2)
        if (n % d == 0)
          return FALSE;
      return TRUE;
    }
  guint32 p = (guint32) n, d = p - 1;
  int s = 0;
  while ((d & 1) == 0)
    {
      d >>= 1;
      s++;
    }
  static const guint32 bases[] = { 2, 3, 5, 7, 11 };
  for (guint i = 0; i < G_N_ELEMENTS (bases); i++)
    {
      guint32 x = tl_gfp_pow (bases[i], d, p);
      if (x == 1 || x == p - 1)
        continue;
      gboolean composite = TRUE;
      for (int r = 1; r < s; r++)
        {
          x = tl_gfp_mul (x, x, p);
          if (x == p - 1)
            {
              composite = FALSE;
              break;
            }
        }
      if (composite)
        return FALSE;
    }
  return TRUE;
}

gboolean
tl_gfp_check_modulus (guint64 p, GError **error)
{
  if (p < 2 || p > TL_GFP_MAX_PRIME || !tl_gfp_is_prime (p))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("The modulus %" PRIu64 " is not a prime below 2³¹ (try 2147483647 or 1000003)"),
                   p);
      return FALSE;
    }
  return TRUE;
}

guint32
tl_gfp_from_int (gint64 v, guint32 p)
{
  gint64 r = v % (gint64) p;
  return (guint32) (r < 0 ? r + p : r);
}

gint64
tl_gfp_centered (guint32 r, guint32 p)
{
  return r > p / 2 ? (gint64) r - p : (gint64) r;
}

TlGfpMatrix *
tl_gfp_matrix_new (gsize rows, gsize cols, guint32 p, GError **error)
{
  if (!tl_matrix_check_size (TL_DTYPE_INT32, rows, cols, NULL, error))
    return NULL;
  TlGfpMatrix *self = g_new0 (TlGfpMatrix, 1);
  self->rows = rows;
  self->cols = cols;
  self->p = p;
  self->data = g_new0 (guint32, MAX (rows * cols, 1));
  return self;
}

void
tl_gfp_matrix_free (TlGfpMatrix *self)
{
  if (self == NULL)
    return;
  g_free (self->data);
  g_free (self);
}

TlGfpMatrix *
tl_gfp_matrix_copy (const TlGfpMatrix *self)
{
  TlGfpMatrix *c = g_new0 (TlGfpMatrix, 1);
  *c = *self;
  c->data = g_memdup2 (self->data, sizeof (guint32) * MAX (self->rows * self->cols, 1));
  return c;
}

TlGfpMatrix *
tl_gfp_from_matrix (const TlMatrix *a, guint32 p, GError **error)
{
  g_return_val_if_fail (a != NULL, NULL);
  if (!tl_gfp_check_modulus (p, error))
    return NULL;
  g_autoptr (TlGfpMatrix) g = tl_gfp_matrix_new (a->rows, a->cols, p, error);
  if (g == NULL)
    return NULL;
  for (gsize i = 0; i < a->rows; i++)
    for (gsize j = 0; j < a->cols; j++)
      {
        double v = tl_matrix_get (a, i, j);
        if (!isfinite (v) || v != floor (v) || fabs (v) > 9007199254740992.0)
          {
            g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                         _("--mod needs integers; row %zu, column %zu holds %g"), i + 1, j + 1, v);
            return NULL;
          }
        g->data[i * a->cols + j] = tl_gfp_from_int ((gint64) v, p);
      }
  return g_steal_pointer (&g);
}

void
tl_gfp_lu_free (TlGfpLu *lu)
{
  if (lu == NULL)
    return;
  tl_gfp_matrix_free (lu->lu);
  g_free (lu->ipiv);
  g_free (lu);
}

static double
gfp_get_cb (gconstpointer data, gsize i, gsize j)
{
  return tl_gfp_get (data, i, j);
}

/* Step k recorded as done: the block below and right of the pivot
 * eliminated (rows × cols of it), row k of U final. */
static void
record_step_done (TlLuRecorder *rec, const TlGfpMatrix *lu, gsize k, gsize rows, gsize cols)
{
  tl_lu_recorder_step_eliminated (rec, k, gfp_get_cb, lu, k + 1, rows, k + 1, cols);
  tl_lu_recorder_step_u_row (rec, k, gfp_get_cb, lu);
  tl_lu_recorder_snapshot (rec, k + 1, gfp_get_cb, lu);
}

/* Below the nonzero pivot w(k,k) of the m×n matrix w: the multipliers
 * l(i,k) = w(i,k)/w(k,k), stored in place, and the rank-1 update, mod p. */
static void
eliminate_below (guint32 *w, gsize m, gsize n, gsize k, guint32 p)
{
  guint32 inv = tl_gfp_inv (w[k * n + k], p);
  for (gsize i = k + 1; i < m; i++)
    {
      guint32 l = tl_gfp_mul (w[i * n + k], inv, p);
      w[i * n + k] = l;
      if (l == 0)
        continue;
      for (gsize j = k + 1; j < n; j++)
        w[i * n + j] = tl_gfp_sub (w[i * n + j], tl_gfp_mul (l, w[k * n + j], p), p);
    }
}

/* After the last step: the determinant (square only; its sign from the
 * row swaps) and the end of the recording. */
static void
gfp_lu_finish (TlGfpLu *r, TlLuRecorder *rec)
{
  const gsize m = r->lu->rows, n = r->lu->cols, mn = MIN (m, n);
  const guint32 p = r->lu->p;
  const guint32 *w = r->lu->data;
  r->det = 0;
  if (m == n)
    {
      guint32 d = 1 % p;
      for (gsize k = 0; k < n; k++)
        d = tl_gfp_mul (d, w[k * n + k], p);
      if (r->n_swaps % 2 && d != 0)
        d = p - d;
      r->det = d;
    }
  if (rec == NULL)
    return;
  gsize rank = 0;
  for (gsize k = 0; k < mn; k++)
    rank += w[k * n + k] != 0;
  tl_lu_recorder_snapshot (rec, mn, gfp_get_cb, r->lu);
  tl_lu_recorder_finish (rec, r->ipiv, mn, r->info, FALSE, rank,
                         m == n ? (r->det == 0 ? 0 : (r->n_swaps % 2 ? -1 : 1)) : 0,
                         r->det == 0 ? -INFINITY : NAN, 1.0);
}

TlGfpLu *
tl_gfp_lu (const TlGfpMatrix *a, TlLuRecorder *rec, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (a != NULL, NULL);
  const gsize m = a->rows, n = a->cols, mn = MIN (m, n);
  const guint32 p = a->p;
  g_autoptr (TlGfpLu) r = g_new0 (TlGfpLu, 1);
  r->lu = tl_gfp_matrix_copy (a);
  r->n_ipiv = mn;
  r->ipiv = g_new0 (gint32, MAX (mn, 1));
  guint32 *w = r->lu->data;

  if (rec)
    {
      tl_lu_recorder_begin (rec, "gfp-unblocked", "gfp", p, m, n, 0, TL_PIVOTING_PARTIAL, p - 1);
      tl_lu_recorder_snapshot (rec, 0, gfp_get_cb, r->lu);
    }
  for (gsize k = 0; k < mn; k++)
    {
      if ((k & 15) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (rec)
        tl_lu_recorder_step_search (rec, k, 0, gfp_get_cb, r->lu);
      /* exact arithmetic: any nonzero is a pivot, the first will do */
      gsize piv = k;
      while (piv < m && w[piv * n + k] == 0)
        piv++;
      if (piv == m)
        {
          /* a zero column: as LAPACK, note it and go on */
          r->ipiv[k] = (gint32) k;
          if (r->info == 0)
            r->info = k + 1;
          if (rec)
            {
              tl_lu_recorder_step_pivot (rec, k, k, 0, TRUE);
              record_step_done (rec, r->lu, k, 0, 0);
            }
          continue;
        }
      r->ipiv[k] = (gint32) piv;
      if (piv != k)
        {
          r->n_swaps++;
          for (gsize j = 0; j < n; j++)
            {
              guint32 t = w[k * n + j];
              w[k * n + j] = w[piv * n + j];
              w[piv * n + j] = t;
            }
        }
      if (rec)
        tl_lu_recorder_step_pivot (rec, k, piv, w[k * n + k], FALSE);
      eliminate_below (w, m, n, k, p);
      if (rec)
        record_step_done (rec, r->lu, k, m - k - 1, n - k - 1);
    }
  gfp_lu_finish (r, rec);
  return g_steal_pointer (&r);
}

guint32
tl_gfp_det (const TlGfpMatrix *a)
{
  g_return_val_if_fail (a != NULL && a->rows == a->cols, 0);
  g_autoptr (TlGfpLu) lu = tl_gfp_lu (a, NULL, NULL, NULL);
  return lu->det;
}

/* Gauss–Jordan over GF(p) on the first n columns of w (m × nc). */
static gsize
gfp_gauss_jordan (TlGfpMatrix *w, gsize n, gsize *pivots)
{
  const gsize m = w->rows, nc = w->cols;
  const guint32 p = w->p;
  guint32 *d = w->data;
  gsize row = 0;
  for (gsize col = 0; col < n && row < m; col++)
    {
      gsize piv = row;
      while (piv < m && d[piv * nc + col] == 0)
        piv++;
      if (piv == m)
        continue;
      if (piv != row)
        for (gsize j = 0; j < nc; j++)
          {
            guint32 t = d[row * nc + j];
            d[row * nc + j] = d[piv * nc + j];
            d[piv * nc + j] = t;
          }
      guint32 inv = tl_gfp_inv (d[row * nc + col], p);
      for (gsize j = col; j < nc; j++)
        d[row * nc + j] = tl_gfp_mul (d[row * nc + j], inv, p);
      for (gsize i = 0; i < m; i++)
        {
          guint32 f = d[i * nc + col];
          if (i == row || f == 0)
            continue;
          for (gsize j = col; j < nc; j++)
            d[i * nc + j] = tl_gfp_sub (d[i * nc + j], tl_gfp_mul (f, d[row * nc + j], p), p);
        }
      pivots[row++] = col;
    }
  return row;
}

TlGfpMatrix *
tl_gfp_rref (const TlGfpMatrix *a, gsize **out_pivot_cols, gsize *out_rank)
{
  TlGfpMatrix *r = tl_gfp_matrix_copy (a);
  gsize *pivots = g_new0 (gsize, MAX (MIN (a->rows, a->cols), 1));
  gsize rank = gfp_gauss_jordan (r, a->cols, pivots);
  if (out_rank)
    *out_rank = rank;
  if (out_pivot_cols)
    *out_pivot_cols = pivots;
  else
    g_free (pivots);
  return r;
}

gsize
tl_gfp_rank (const TlGfpMatrix *a)
{
  gsize rank = 0;
  g_autoptr (TlGfpMatrix) r = tl_gfp_rref (a, NULL, &rank);
  return rank;
}

static TlGfpMatrix *
gfp_null_from_rref (const TlGfpMatrix *r, gsize n, const gsize *pivots, gsize rank)
{
  TlGfpMatrix *basis = tl_gfp_matrix_new (n, n - rank, r->p, NULL);
  gsize col = 0, next = 0, nb = n - rank;
  for (gsize f = 0; f < n; f++)
    {
      if (next < rank && pivots[next] == f)
        {
          next++;
          continue;
        }
      basis->data[f * nb + col] = 1 % r->p;
      for (gsize i = 0; i < rank; i++)
        basis->data[pivots[i] * nb + col] = tl_gfp_sub (0, r->data[i * r->cols + f], r->p);
      col++;
    }
  return basis;
}

TlGfpMatrix *
tl_gfp_null_space (const TlGfpMatrix *a)
{
  g_autofree gsize *pivots = NULL;
  gsize rank = 0;
  g_autoptr (TlGfpMatrix) r = tl_gfp_rref (a, &pivots, &rank);
  return gfp_null_from_rref (r, a->cols, pivots, rank);
}

void
tl_gfp_solution_free (TlGfpSolution *s)
{
  if (s == NULL)
    return;
  g_free (s->pivot_cols);
  tl_gfp_matrix_free (s->particular);
  tl_gfp_matrix_free (s->null_basis);
  g_free (s);
}

TlGfpSolution *
tl_gfp_solve_space (const TlGfpMatrix *a, const TlGfpMatrix *b, GError **error)
{
  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  const gsize m = a->rows, n = a->cols, k = b->cols;
  if (b->rows != m)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("The right-hand side has %zu rows but the matrix has %zu: they must match"),
                   b->rows, m);
      return NULL;
    }
  g_autoptr (TlGfpMatrix) w = tl_gfp_matrix_new (m, n + k, a->p, error);
  if (w == NULL)
    return NULL;
  for (gsize i = 0; i < m; i++)
    {
      memcpy (w->data + i * (n + k), a->data + i * n, n * sizeof (guint32));
      for (gsize j = 0; j < k; j++)
        w->data[i * (n + k) + n + j] = b->data[i * k + j] % a->p;
    }
  g_autoptr (TlGfpSolution) s = g_new0 (TlGfpSolution, 1);
  s->pivot_cols = g_new0 (gsize, MAX (MIN (m, n), 1));
  s->rank = gfp_gauss_jordan (w, n, s->pivot_cols);
  s->kind = s->rank == n ? TL_SOLUTION_UNIQUE : TL_SOLUTION_INFINITE;
  for (gsize c = 0; c < k && s->kind != TL_SOLUTION_NONE; c++)
    for (gsize i = s->rank; i < m; i++)
      if (w->data[i * (n + k) + n + c] != 0)
        {
          s->kind = TL_SOLUTION_NONE;
          s->inconsistent_column = c;
          break;
        }
  if (s->kind == TL_SOLUTION_NONE)
    return g_steal_pointer (&s);
  s->particular = tl_gfp_matrix_new (n, k, a->p, NULL);
  for (gsize i = 0; i < s->rank; i++)
    for (gsize c = 0; c < k; c++)
      s->particular->data[s->pivot_cols[i] * k + c] = w->data[i * (n + k) + n + c];
  if (s->rank < n)
    s->null_basis = gfp_null_from_rref (w, n, s->pivot_cols, s->rank);
  return g_steal_pointer (&s);
}
