/* lu-test-util.h — LAPACK's test ratio for a solve, shared by the CPU and
 * the GPU Gauss tests.  Include once per test program. */
#pragma once

#include "core/tl-matrix.h"

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
