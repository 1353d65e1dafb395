/* tl-solve.c — getrs, Gauss–Jordan, rank, null space, solution space. */
#include "lu/tl-solve.h"
#include "core/tl-error.h"
#include "lu/tl-lu-private.h"
#include "lu/tl-rank.h"

#include <glib/gi18n-lib.h>
#include <cblas.h>
#include <lapacke.h>
#include <float.h>
#include <math.h>

void
tl_solution_free (TlSolution *s)
{
  if (s == NULL)
    return;
  g_free (s->pivot_cols);
  g_clear_pointer (&s->particular, tl_matrix_unref);
  g_clear_pointer (&s->null_basis, tl_matrix_unref);
  g_free (s);
}

TlMatrix *
tl_lu_solve (const TlLuResult *lu, const TlMatrix *b, GError **error)
{
  g_return_val_if_fail (lu != NULL && lu->lu != NULL, NULL);
  g_return_val_if_fail (b != NULL, NULL);
  const TlMatrix *f = lu->lu;
  gsize n = f->rows;
  if (f->rows != f->cols)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("Solving needs a square matrix; this one is %zu×%zu (use the solution space instead)"),
                   f->rows, f->cols);
      return NULL;
    }
  if (b->rows != n)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("The right-hand side has %zu rows but the matrix has %zu: they must match"),
                   b->rows, n);
      return NULL;
    }
  if (lu->breakdown || lu->info > 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SINGULAR,
                   _("The matrix is singular (pivot %zu is zero): there is no unique solution"),
                   lu->info);
      return NULL;
    }
  if (!tl_lu_check_finite (b, error))
    return NULL;
  TlMatrix *x = tl_matrix_convert (b, f->dtype, error);
  if (x == NULL)
    return NULL;
  gsize k = x->cols;
  if (n == 0 || k == 0)
    return x;
  /* a GPU factorisation is solved on the GPU: swaps, then two TRSMs */
  const TlLuKernelInfo *info = tl_lu_kernel_find (lu->kernel_id);
  if (info && info->backend == TL_BACKEND_GPU)
    {
      if (!tl_lu_solve_gpu (lu, x, error))
        {
          tl_matrix_unref (x);
          return NULL;
        }
      return x;
    }
  /* P·B, then L·Y = P·B (unit lower), then U·X = Y */
  tl_lu_apply_pivots (x, lu->ipiv, lu->n_ipiv, FALSE);
  if (f->dtype == TL_DTYPE_FLOAT32)
    {
      cblas_strsm (CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, (int) n, (int) k,
                   1.0f, f->data, (int) f->stride, x->data, (int) x->stride);
      cblas_strsm (CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, (int) n,
                   (int) k, 1.0f, f->data, (int) f->stride, x->data, (int) x->stride);
    }
  else
    {
      cblas_dtrsm (CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, (int) n, (int) k,
                   1.0, f->data, (int) f->stride, x->data, (int) x->stride);
      cblas_dtrsm (CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, (int) n,
                   (int) k, 1.0, f->data, (int) f->stride, x->data, (int) x->stride);
    }
  return x;
}

static double
dtype_eps (TlDtype dtype)
{
  return dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
}

/* The numerical rank from the singular values, as numpy's matrix_rank:
 * σ_k > max(m,n)·ε·σ_1.  Partial-pivoting elimination alone is not rank
 * revealing: the remainder of a dependent column can come out a hundred
 * times above ε·‖A‖, so the default tolerance of the elimination is put
 * geometrically in the middle of the gap between the last kept and the
 * first dropped singular value, where neither side can reach it. */
/* A as a contiguous float64 matrix (LAPACK overwrites it). */
static TlMatrix *
float64_copy (const TlMatrix *a)
{
  g_autoptr (TlMatrix) w = tl_matrix_convert (a, TL_DTYPE_FLOAT64, NULL);
  return w ? tl_matrix_copy (w, NULL) : NULL;
}

/* The singular values of A, largest first (min(m,n) of them), and the
 * rank by the rule above; NULL when LAPACK fails or A is empty. */
static double *
singular_values (const TlMatrix *a, gsize *out_rank, double *out_cut)
{
  gsize m = a->rows, n = a->cols, mn = MIN (m, n);
  if (mn == 0)
    return NULL;
  g_autoptr (TlMatrix) c = float64_copy (a);
  if (c == NULL)
    return NULL;
  g_autofree double *sv = g_new0 (double, mn);
  if (LAPACKE_dgesdd (LAPACK_ROW_MAJOR, 'N', (lapack_int) m, (lapack_int) n, c->data,
                      (lapack_int) c->stride, sv, NULL, (lapack_int) MAX (m, 1), NULL,
                      (lapack_int) MAX (n, 1)) != 0)
    return NULL;
  double cut = (double) MAX (m, n) * dtype_eps (a->dtype) * sv[0];
  gsize r = 0;
  while (r < mn && sv[r] > cut)
    r++;
  *out_rank = r;
  *out_cut = cut;
  return g_steal_pointer (&sv);
}

/* The elimination's tolerance from the singular values (sv NULL: none). */
static double
tol_from_singular_values (const TlMatrix *a, const double *sv, gsize r, double cut)
{
  gsize m = a->rows, n = a->cols, mn = MIN (m, n);
  double fallback = (double) MAX (m, n) * dtype_eps (a->dtype) * tl_matrix_norm (a, TL_NORM_INF);
  if (sv == NULL)
    return fallback;
  if (r == 0)
    return fmax (fallback, cut);
  if (r == mn)
    return fmin (fallback, 0.5 * sv[mn - 1]);
  return sqrt (sv[r - 1] * fmax (sv[r], cut));
}

double
tl_rref_default_tol (const TlMatrix *a)
{
  g_return_val_if_fail (a != NULL, 0.0);
  gsize r = 0;
  double cut = 0;
  g_autofree double *sv = singular_values (a, &r, &cut);
  return tol_from_singular_values (a, sv, r, cut);
}

/* Gauss–Jordan on r (m × ncols, float64), choosing pivots in the first
 * n columns only (the rest is the augmented right-hand side).  Partial
 * pivoting by magnitude; a column whose candidates are all ≤ tol is
 * skipped — a free variable — and its small remainders set to zero. */
static gsize
gauss_jordan (TlMatrix *r, gsize n, double tol, gsize *pivots)
{
  gsize m = r->rows, nc = r->cols, row = 0;
  for (gsize col = 0; col < n && row < m; col++)
    {
      gsize p = row;
      double best = 0.0;
      for (gsize i = row; i < m; i++)
        {
          double v = fabs (((double *) tl_matrix_row (r, i))[col]);
          if (v > best)
            {
              best = v;
              p = i;
            }
        }
      if (best <= tol)
        {
          for (gsize i = row; i < m; i++)
            ((double *) tl_matrix_row (r, i))[col] = 0.0;
          continue;
        }
      double *pr = tl_matrix_row (r, p), *rr = tl_matrix_row (r, row);
      if (p != row)
        for (gsize j = 0; j < nc; j++)
          {
            double t = pr[j];
            pr[j] = rr[j];
            rr[j] = t;
          }
      double piv = rr[col];
      for (gsize j = col; j < nc; j++)
        rr[j] /= piv;
      rr[col] = 1.0;
      for (gsize i = 0; i < m; i++)
        {
          if (i == row)
            continue;
          double *ri = tl_matrix_row (r, i);
          double f = ri[col];
          if (f == 0.0)
            continue;
          for (gsize j = col; j < nc; j++)
            ri[j] -= f * rr[j];
          ri[col] = 0.0;
        }
      pivots[row++] = col;
    }
  return row;
}

TlMatrix *
tl_rref (const TlMatrix *a, double tol, gsize **out_pivot_cols, gsize *out_rank, GError **error)
{
  g_return_val_if_fail (a != NULL, NULL);
  if (!tl_lu_check_finite (a, error))
    return NULL;
  if (tol < 0)
    tol = tl_rref_default_tol (a);
  g_autoptr (TlMatrix) r = tl_matrix_convert (a, TL_DTYPE_FLOAT64, error);
  if (r == NULL)
    return NULL;
  gsize *pivots = g_new0 (gsize, MAX (MIN (a->rows, a->cols), 1));
  gsize rank = gauss_jordan (r, a->cols, tol, pivots);
  if (out_rank)
    *out_rank = rank;
  if (out_pivot_cols)
    *out_pivot_cols = pivots;
  else
    g_free (pivots);
  return g_steal_pointer (&r);
}

gsize
tl_rank (const TlMatrix *a, double tol)
{
  g_return_val_if_fail (a != NULL, 0);
  gsize rank = 0;
  g_autoptr (TlMatrix) r = tl_rref (a, tol, NULL, &rank, NULL);
  return rank;
}

/* Null-space basis from an RREF: one vector per free column f, with
 * x_f = 1, the other free variables 0, and x_{pivot i} = −R(i, f). */
static TlMatrix *
null_from_rref (const TlMatrix *r, gsize n, const gsize *pivots, gsize rank, GError **error)
{
  TlMatrix *basis = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, n, n - rank, error);
  if (basis == NULL)
    return NULL;
  gsize col = 0, next = 0;
  for (gsize f = 0; f < n; f++)
    {
      if (next < rank && pivots[next] == f)
        {
          next++;
          continue;
        }
      tl_matrix_set (basis, f, col, 1.0);
      for (gsize i = 0; i < rank; i++)
        tl_matrix_set (basis, pivots[i], col, -((double *) tl_matrix_row (r, i))[f]);
      col++;
    }
  return basis;
}

TlMatrix *
tl_null_space (const TlMatrix *a, double tol, GError **error)
{
  g_autofree gsize *pivots = NULL;
  gsize rank = 0;
  g_autoptr (TlMatrix) r = tl_rref (a, tol, &pivots, &rank, error);
  if (r == NULL)
    return NULL;
  return null_from_rref (r, a->cols, pivots, rank, error);
}

/* X = Σ_i v_i (u_iᵀ b) / σ_i over the r kept singular values: the
 * least-squares solution of least norm of A·X = B (float64). */
static TlMatrix *
svd_least_squares (const TlMatrix *u, const TlMatrix *vt, const double *sv, gsize r,
                   const TlMatrix *b, GError **error)
{
  gsize m = u->rows, n = vt->cols, k = b->cols;
  TlMatrix *x = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, n, k, error);
  if (x == NULL)
    return NULL;
  for (gsize i = 0; i < r; i++)
    for (gsize col = 0; col < k; col++)
      {
        double dot = 0;
        for (gsize row = 0; row < m; row++)
          dot += tl_matrix_get (u, row, i) * tl_matrix_get (b, row, col);
        const double *v = tl_matrix_row (vt, i);
        for (gsize j = 0; j < n; j++)
          ((double *) tl_matrix_row (x, j))[col] += v[j] * dot / sv[i];
      }
  return x;
}

/* The first column of B whose residual ‖b − A·x‖∞ / ‖b‖∞ is above bound:
 * TRUE with its index and residual. */
static gboolean
first_inconsistent (const TlMatrix *a, const TlMatrix *b, const TlMatrix *x, double bound,
                    gsize *out_col, double *out_rho)
{
  for (gsize col = 0; col < b->cols; col++)
    {
      double worst = 0, bmax = 0;
      for (gsize row = 0; row < a->rows; row++)
        {
          double acc = tl_matrix_get (b, row, col);
          bmax = fmax (bmax, fabs (acc));
          const double *arow = tl_matrix_row (a, row);
          for (gsize j = 0; j < a->cols; j++)
            acc -= arow[j] * tl_matrix_get (x, j, col);
          worst = fmax (worst, fabs (acc));
        }
      /* relative to b: against ‖A‖‖X‖ any least-squares residual looks small,
       * X growing as 1/σ_r along the kept directions */
      double rho = bmax > 0 ? worst / bmax : worst;
      if (rho > bound)
        {
          *out_col = col;
          *out_rho = rho;
          return TRUE;
        }
    }
  return FALSE;
}

/* The particular solution with its free variables 0: X − N·X[F,:], the
 * null basis N's free rows being the identity (rank r, pivot columns
 * pivot_cols). */
static void
free_variables_zero (TlMatrix *x, const TlMatrix *null_basis, const gsize *pivot_cols, gsize r)
{
  gsize n = x->rows, k = x->cols;
  g_autofree gboolean *pivot = g_new0 (gboolean, n);
  for (gsize i = 0; i < r; i++)
    pivot[pivot_cols[i]] = TRUE;
  gsize f = 0;
  for (gsize j = 0; j < n; j++)
    {
      if (pivot[j])
        continue;
      for (gsize col = 0; col < k; col++)
        {
          double xf = tl_matrix_get (x, j, col);
          for (gsize row = 0; row < n; row++)
            ((double *) tl_matrix_row (x, row))[col] -= tl_matrix_get (null_basis, row, f) * xf;
        }
      f++;
    }
}

/* The solution space from the SVD A = U·Σ·Vᵀ, for when elimination and
 * the singular values disagree on the rank (no clear gap between kept and
 * dropped singular values: condition:kappa=1e14 at n = 2000 gave 1996
 * pivots against 1764 singular values above the cut, and a contradiction
 * 0 = 1e-12 for b = A·1, which is consistent).  The rank is the singular
 * values' r; X = V_r Σ_r⁻¹ U_rᵀ B is the least-squares solution of least
 * norm, and a column b of B counts as consistent when its residual is at
 * rounding level, ‖b − Ax‖∞ / ‖b‖∞ ≤ 10·√m·max(m,n)·ε (the dropped
 * singular values are below max(m,n)·ε·σ₁; a b outside A's range keeps a
 * part of its own size).  The answer is then
 * shown as elimination shows it (tl_rank_present): pivot columns, the
 * null-space basis with free rows = I, and the particular solution with
 * its free variables 0 (X − N·X[F,:]). */
static TlSolution *
solve_space_svd (const TlMatrix *a, const TlMatrix *b, GError **error)
{
  gsize m = a->rows, n = a->cols, mn = MIN (m, n);
  double eps = dtype_eps (a->dtype);
  g_autoptr (TlMatrix) c = float64_copy (a);
  g_autoptr (TlMatrix) b64 = float64_copy (b);
  g_autoptr (TlMatrix) a64 = float64_copy (a);
  g_autoptr (TlMatrix) u = tl_matrix_new (TL_DTYPE_FLOAT64, m, m, error);
  g_autoptr (TlMatrix) vt = u ? tl_matrix_new (TL_DTYPE_FLOAT64, n, n, error) : NULL;
  if (c == NULL || b64 == NULL || a64 == NULL || vt == NULL)
    {
      if (error && *error == NULL)
        g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY, _("Out of memory for the singular value decomposition"));
      return NULL;
    }
  g_autofree double *sv = g_new0 (double, MAX (mn, 1));
  if (LAPACKE_dgesdd (LAPACK_ROW_MAJOR, 'A', (lapack_int) m, (lapack_int) n, c->data,
                      (lapack_int) c->stride, sv, u->data, (lapack_int) u->stride, vt->data,
                      (lapack_int) vt->stride) != 0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID, _("The singular value decomposition did not converge"));
      return NULL;
    }
  double cut = (double) MAX (m, n) * eps * sv[0];
  gsize r = 0;
  while (r < mn && sv[r] > cut)
    r++;

  g_autoptr (TlMatrix) x = svd_least_squares (u, vt, sv, r, b64, error);
  if (x == NULL)
    return NULL;

  g_autoptr (TlSolution) s = g_new0 (TlSolution, 1);
  s->rank = r;
  s->tol = cut;
  s->by_svd = TRUE;
  double bound = 10.0 * sqrt ((double) MAX (m, 1)) * (double) MAX (m, n) * eps;
  if (first_inconsistent (a64, b64, x, bound, &s->inconsistent_column, &s->inconsistency))
    {
      s->kind = TL_SOLUTION_NONE;
      return g_steal_pointer (&s);
    }

  /* pivot columns and the echelon basis from the null vectors (rows r… of Vᵀ) */
  g_autoptr (TlRankResult) shown = g_new0 (TlRankResult, 1);
  const double *null_rows = r < n ? tl_matrix_row (vt, r) : NULL;
  if (!tl_rank_present (shown, r, n, TRUE, null_rows, eps, error))
    return NULL;
  s->pivot_cols = g_steal_pointer (&shown->pivot_cols);
  s->kind = r == n ? TL_SOLUTION_UNIQUE : TL_SOLUTION_INFINITE;
  if (r < n)
    {
      s->null_basis = g_steal_pointer (&shown->null_basis);
      free_variables_zero (x, s->null_basis, s->pivot_cols, r);
    }
  s->particular = g_steal_pointer (&x);
  return g_steal_pointer (&s);
}

/* [A | B] in float64 */
static TlMatrix *
augmented (const TlMatrix *a, const TlMatrix *b, GError **error)
{
  gsize m = a->rows, n = a->cols, k = b->cols;
  TlMatrix *r = tl_matrix_new (TL_DTYPE_FLOAT64, m, n + k, error);
  if (r == NULL)
    return NULL;
  for (gsize i = 0; i < m; i++)
    {
      double *row = tl_matrix_row (r, i);
      for (gsize j = 0; j < n; j++)
        row[j] = tl_matrix_get (a, i, j);
      for (gsize j = 0; j < k; j++)
        row[n + j] = tl_matrix_get (b, i, j);
    }
  return r;
}

/* In [A | B] reduced to rank rows, a contradiction 0 = v below them with
 * |v| > tol_b: TRUE with the first column of B that has one, and v. */
static gboolean
find_contradiction (const TlMatrix *r, gsize n, gsize rank, double tol_b, gsize *out_col,
                    double *out_value)
{
  for (gsize c = n; c < r->cols; c++)
    for (gsize i = rank; i < r->rows; i++)
      {
        double v = ((const double *) tl_matrix_row (r, i))[c];
        if (fabs (v) > tol_b)
          {
            *out_col = c - n;
            *out_value = v;
            return TRUE;
          }
      }
  return FALSE;
}

TlSolution *
tl_solve_space (const TlMatrix *a, const TlMatrix *b, double tol, GError **error)
{
  g_return_val_if_fail (a != NULL && b != NULL, NULL);
  gsize m = a->rows, n = a->cols, k = b->cols;
  if (b->rows != m)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("The right-hand side has %zu rows but the matrix has %zu: they must match"),
                   b->rows, m);
      return NULL;
    }
  if (!tl_lu_check_finite (a, error) || !tl_lu_check_finite (b, error))
    return NULL;
  /* the default: the singular values' rank, which elimination must find */
  gsize svd_rank = G_MAXSIZE;
  if (tol < 0)
    {
      double cut = 0;
      g_autofree double *sv = singular_values (a, &svd_rank, &cut);
      if (sv == NULL)
        svd_rank = G_MAXSIZE;
      tol = tol_from_singular_values (a, sv, svd_rank, cut);
    }

  g_autoptr (TlMatrix) r = augmented (a, b, error);
  if (r == NULL)
    return NULL;
  /* a contradiction 0 = r_i counts when |r_i| exceeds the tolerance
   * scaled to the right-hand side's size */
  double tol_b = (double) MAX (MAX (m, n), 1) * dtype_eps (a->dtype)
                 * fmax (tl_matrix_norm (a, TL_NORM_INF), tl_matrix_norm (b, TL_NORM_INF));

  g_autoptr (TlSolution) s = g_new0 (TlSolution, 1);
  s->tol = tol;
  s->pivot_cols = g_new0 (gsize, MAX (MIN (m, n), 1));
  s->rank = gauss_jordan (r, n, tol, s->pivot_cols);
  if (svd_rank != G_MAXSIZE && s->rank != svd_rank)
    return solve_space_svd (a, b, error);

  s->kind = s->rank == n ? TL_SOLUTION_UNIQUE : TL_SOLUTION_INFINITE;
  if (find_contradiction (r, n, s->rank, tol_b, &s->inconsistent_column, &s->inconsistency))
    s->kind = TL_SOLUTION_NONE;
  /* elimination's remainder grows with the pivots' growth: a contradiction
   * found with the default tolerance is confirmed by the least-squares
   * residual of the SVD route before "no solution" is said (b = A·1 with
   * rank-deficient:rank=250 at n = 300 left 0 = 3.1e-11 after elimination) */
  if (s->kind == TL_SOLUTION_NONE && svd_rank != G_MAXSIZE)
    return solve_space_svd (a, b, error);
  if (s->kind == TL_SOLUTION_NONE)
    return g_steal_pointer (&s);

  s->particular = tl_matrix_new_zeroed (TL_DTYPE_FLOAT64, n, k, error);
  if (s->particular == NULL)
    return NULL;
  for (gsize i = 0; i < s->rank; i++)
    for (gsize c = 0; c < k; c++)
      tl_matrix_set (s->particular, s->pivot_cols[i], c, ((double *) tl_matrix_row (r, i))[n + c]);
  if (s->rank < n)
    {
      s->null_basis = null_from_rref (r, n, s->pivot_cols, s->rank, error);
      if (s->null_basis == NULL)
        return NULL;
    }
  return g_steal_pointer (&s);
}
