/* lu-test-util.h — LAPACK's test ratio for a solve, shared by the CPU and
 * the GPU Gauss tests, and a small GF(p) factorisation for the Gauss views.
 * Include once per test program. */
#pragma once

#include "core/tl-matrix.h"
#include "lu/tl-gfp.h"

#include <float.h>
#include <math.h>

/* xGET02: ‖B − AX‖₁ / (‖A‖₁ ‖X‖₁ ε) per column of B, the worst one (NaN
 * counts as infinite; a zero A or X passes only with a zero residual). */
static inline double
lu_test_solve_ratio (const TlMatrix *a, const TlMatrix *x, const TlMatrix *b)
{
  const gsize n = a->rows;
  const double eps = a->dtype == TL_DTYPE_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
  double anorm = tl_matrix_norm (a, TL_NORM_ONE), worst = 0.0;
  for (gsize c = 0; c < b->cols; c++)
    {
      double rn = 0.0, xn = 0.0;
      for (gsize i = 0; i < n; i++)
        {
          double s = tl_matrix_get (b, i, c);
          for (gsize j = 0; j < n; j++)
            s -= tl_matrix_get (a, i, j) * tl_matrix_get (x, j, c);
          rn += fabs (s);
          xn += fabs (tl_matrix_get (x, i, c));
        }
      double ratio = (anorm == 0.0 || xn == 0.0) ? (rn == 0.0 ? 0.0 : INFINITY) : ((rn / anorm) / xn) / eps;
      worst = isnan (ratio) ? INFINITY : fmax (worst, ratio);
    }
  return worst;
}

/* A GF(p) factorisation of a fresh random 6×6 matrix whose a(0,0) is 0,
 * so step 0 must look below the diagonal (a(1,0) = 3), recorded in rec. */
static inline TlGfpLu *
gfp_lu_zero_corner (guint32 p, TlLuRecorder *rec)
{
  g_autoptr (TlGfpMatrix) a = tl_gfp_matrix_new (6, 6, p, NULL);
  for (gsize i = 0; i < 36; i++)
    a->data[i] = (guint32) g_test_rand_int_range (0, p);
  a->data[0] = 0;
  a->data[6] = 3;
  return tl_gfp_lu (a, rec, NULL, NULL);
}
