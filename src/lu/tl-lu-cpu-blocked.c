/* tl-lu-cpu-blocked.c — right-looking blocked LU (seed 004 §3.1).
 *
 * With the block size b, step i works on the trailing matrix A_i:
 *
 *        ⎡ A11 A12 ⎤   b rows of the panel on top, b columns on the left
 *   A_i =⎣ A21 A22 ⎦
 *
 *   panel  factor the m×b column block [A11; A21] with the unblocked
 *          kernel (pivot search, swap, multipliers, rank-1 updates that
 *          stay inside the b columns);
 *   swaps  apply the panel's row swaps to the columns left and right of it;
 *   trsm   U12 = L11⁻¹ A12 (L11 unit lower triangular): the b rows of U;
 *   gemm   A22 −= L21 · U12 — seed 004's "A_{i+1} = A_{i+1}^i + M_i · U_i".
 *
 * The first three phases touch O(n·b) elements per step; the GEMM does
 * 2·(m−k)·(n−k)·b flops on data it reuses b times, so for large n nearly
 * all time goes to a matrix multiplication that runs near peak.  The
 * recorder shows the split per block step (seed 004, Figure 5).
 *
 * The seed keeps rows in place with a three-way swap (p, k, k+1) so its
 * phase 2 stays a plain GEMM; here the swaps are deferred to the "swaps"
 * phase instead, as LAPACK does, which keeps A22 consistent just the same.
 *
 * The GEMM is cblas_?gemm (OpenBLAS) or Tilelab's own "cpu-blocked" GEMM
 * (tl_cpu_gemm), selectable, so the lecture can show how much of LU's
 * speed is the speed of its matrix multiplication.
 */
#ifndef TL_LU_T

#include "lu/tl-lu-private.h"
#include "gemm/tl-cpu-gemm.h"
#include "core/tl-error.h"

#include <cblas.h>
#include <string.h>

#define TL_LU_CAT2(a, b) a##_##b
#define TL_LU_CAT(a, b) TL_LU_CAT2 (a, b)
#define TL_LU_FN(name) TL_LU_CAT (name, TL_LU_S)

/* A22 −= A21 · A12 through tl_cpu_gemm: it computes C = A·B into a fresh
 * matrix, so copy the operands out (views may be strided) and subtract. */
static gboolean
gemm_update_tilelab (TlMatrix *A, gsize k0, gsize kb, GCancellable *cancellable, GError **error)
{
  gsize m = A->rows, n = A->cols, r1 = k0 + kb;
  g_autoptr (TlMatrix) v21 = tl_matrix_view (A, r1, k0, m - r1, kb);
  g_autoptr (TlMatrix) v12 = tl_matrix_view (A, k0, r1, kb, n - r1);
  g_autoptr (TlMatrix) l21 = tl_matrix_copy (v21, error);
  g_autoptr (TlMatrix) u12 = l21 ? tl_matrix_copy (v12, error) : NULL;
  g_autoptr (TlMatrix) t = u12 ? tl_matrix_new (A->dtype, m - r1, n - r1, error) : NULL;
  if (t == NULL)
    return FALSE;
  if (!tl_cpu_gemm ("cpu-blocked", l21, u12, t, 0, NULL, cancellable, error))
    return FALSE;
  for (gsize i = 0; i < m - r1; i++)
    {
      if (A->dtype == TL_DTYPE_FLOAT32)
        {
          float *dst = (float *) tl_matrix_row (A, r1 + i) + r1;
          const float *src = tl_matrix_row (t, i);
          for (gsize j = 0; j < n - r1; j++)
            dst[j] -= src[j];
        }
      else
        {
          double *dst = (double *) tl_matrix_row (A, r1 + i) + r1;
          const double *src = tl_matrix_row (t, i);
          for (gsize j = 0; j < n - r1; j++)
            dst[j] -= src[j];
        }
    }
  return TRUE;
}

#define TL_LU_T float
#define TL_LU_S f32
#define TL_LU_TRSM cblas_strsm
#define TL_LU_GEMM cblas_sgemm
#include "lu/tl-lu-cpu-blocked.c"
#undef TL_LU_T
#undef TL_LU_S
#undef TL_LU_TRSM
#undef TL_LU_GEMM

#define TL_LU_T double
#define TL_LU_S f64
#define TL_LU_TRSM cblas_dtrsm
#define TL_LU_GEMM cblas_dgemm
#include "lu/tl-lu-cpu-blocked.c"
#undef TL_LU_T
#undef TL_LU_S
#undef TL_LU_TRSM
#undef TL_LU_GEMM

gboolean
tl_lu_cpu_blocked (TlLuWork *w, GError **error)
{
  if (w->a->dtype == TL_DTYPE_FLOAT32)
    return blocked_f32 (w, error);
  return blocked_f64 (w, error);
}

#else /* the templated body */

/* Rows rk and rp exchanged within columns [c0, c1). */
static void
TL_LU_FN (swap_rows) (TL_LU_T *rk, TL_LU_T *rp, gsize c0, gsize c1)
{
  for (gsize j = c0; j < c1; j++)
    {
      TL_LU_T x = rk[j];
      rk[j] = rp[j];
      rp[j] = x;
    }
}

/* Block step `block` (columns k0 … k0 + kb) done: its phases' times from
 * the stamps t[0…4] added up, and recorded with the final U rows. */
static void
TL_LU_FN (end_block) (TlLuWork *w, guint block, gsize k0, gsize kb, const gint64 *t)
{
  const TlMatrix *A = w->a;
  const gsize m = A->rows, n = A->cols, r1 = k0 + kb;
  gint64 phase[TL_LU_N_PHASES];
  for (int ph = 0; ph < TL_LU_N_PHASES; ph++)
    {
      phase[ph] = t[ph + 1] - t[ph];
      w->phase_ns[ph] += phase[ph];
    }
  if (w->rec == NULL)
    return;
  for (gsize k = k0; k < r1; k++)
    tl_lu_recorder_step_u_row (w->rec, k, tl_lu_recorder_get_matrix, A);
  tl_lu_recorder_block (w->rec, block, k0, kb, phase, r1, m - MIN (m, r1), r1, n - MIN (n, r1));
  tl_lu_recorder_snapshot_matrix (w->rec, r1, A, NULL);
}

static gboolean
TL_LU_FN (blocked) (TlLuWork *w, GError **error)
{
  TlMatrix *A = w->a;
  const gsize m = A->rows, n = A->cols, lda = A->stride, mn = MIN (m, n);
  const gsize nb = MAX (w->block_size, 1);
  TL_LU_T *a = A->data;
  const gboolean use_cblas = strcmp (w->gemm, "openblas") == 0;
  guint block = 0;

  for (gsize k0 = 0; k0 < mn; k0 += nb, block++)
    {
      const gsize kb = MIN (nb, mn - k0), r1 = k0 + kb;
      gint64 t[5];

      if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;

      /* panel: the unblocked elimination on b columns */
      t[0] = tl_lu_now_ns ();
      if (!tl_lu_panel (w, k0, k0, kb, k0, r1, r1, block, error))
        return FALSE;
      if (w->breakdown)
        return TRUE;

      /* swaps: the panel's row exchanges, left and right of it */
      t[1] = tl_lu_now_ns ();
      for (gsize k = k0; k < r1; k++)
        if ((gsize) w->ipiv[k] != k)
          {
            TL_LU_FN (swap_rows) (a + k * lda, a + w->ipiv[k] * lda, 0, k0);
            TL_LU_FN (swap_rows) (a + k * lda, a + w->ipiv[k] * lda, r1, n);
          }

      /* trsm: U12 = L11⁻¹ A12 */
      t[2] = tl_lu_now_ns ();
      if (r1 < n)
        TL_LU_TRSM (CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit,
                    (int) kb, (int) (n - r1), 1, a + k0 * lda + k0, (int) lda,
                    a + k0 * lda + r1, (int) lda);

      /* gemm: A22 −= L21 · U12 */
      t[3] = tl_lu_now_ns ();
      if (r1 < m && r1 < n)
        {
          if (use_cblas)
            TL_LU_GEMM (CblasRowMajor, CblasNoTrans, CblasNoTrans,
                        (int) (m - r1), (int) (n - r1), (int) kb,
                        -1, a + r1 * lda + k0, (int) lda, a + k0 * lda + r1, (int) lda,
                        1, a + r1 * lda + r1, (int) lda);
          else if (!gemm_update_tilelab (A, k0, kb, w->cancellable, error))
            return FALSE;
        }
      t[4] = tl_lu_now_ns ();

      TL_LU_FN (end_block) (w, block, k0, kb, t);
    }
  return TRUE;
}

#endif
