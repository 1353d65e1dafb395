/* tl-rank.h — rank and null space with the O(n³) work on the GPU.
 *
 * The singular values decide the rank by the CPU path's rule (tl-solve.h:
 * σ_k > max(m,n)·ε·σ₁, ε of A's dtype); they and the right singular
 * vectors of the zero singular values come from the GPU (tl_gpu_rank,
 * cuSOLVER's Jacobi SVD).  The answer is then shown as the CPU path shows
 * it, on the CPU in O(n·(n−r)²): the free columns are those Gauss–Jordan
 * elimination leaves without a pivot (from the left, the first columns
 * that depend on earlier ones), found by eliminating the orthonormal basis
 * Nᵀ column by column from the right; the basis becomes N·N[F,:]⁻¹, whose
 * free rows are the identity ("free variable = 1, the others 0"), and the
 * reduced row echelon form follows from it: R(i, f) = −N(p_i, f).  In
 * exact arithmetic both are the CPU path's answer exactly.
 */
#pragma once

#include "core/tl-matrix.h"
#include "device/tl-gpu-session.h"

G_BEGIN_DECLS

typedef struct
{
  gsize rank;
  double cut;                /* the threshold: max(m,n)·ε·σ₁ */
  double *sigma;             /* min(m,n) singular values, largest first */
  gsize n_sigma;
  gsize *pivot_cols;         /* with the basis: the rank pivot (basic) columns */
  TlMatrix *null_basis;      /* with the basis: n×(n−rank) float64, free rows = I */
  int gpu_ordinal;
  double svd_ms;             /* device time of the SVD */
  int sweeps;                /* Jacobi sweeps */
  double present_s;          /* CPU time of the presentation (free columns, basis) */
} TlRankResult;

void tl_rank_result_free (TlRankResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlRankResult, tl_rank_result_free)

/* The method's name for output and records. */
#define TL_RANK_GPU_METHOD "cusolver-gesvdj"

/* The rank of A (float32 or float64, finite) on GPU `ordinal` of session
 * (NULL: the thread's, the runner worker's); with_basis also the pivot
 * columns and the null-space basis.  Errors: no device, out of memory,
 * NaN/Inf in A (TL_ERROR_INVALID), G_IO_ERROR_CANCELLED (checked after
 * the device opens and after the SVD). */
TlRankResult *tl_rank_gpu (const TlMatrix *a, TlGpuSession *session, int ordinal,
                           gboolean with_basis, GCancellable *cancellable, GError **error);

/* The presentation alone (what tl_rank_gpu does after the GPU's SVD; a
 * test feeds it LAPACK's): sets r->rank and, with_basis, from null_rows
 * (the n − rank orthonormal null vectors, row t = vector t) the pivot
 * columns and the echelon basis.  eps: of A's dtype.  FALSE with an error
 * when the free columns' block is singular. */
gboolean tl_rank_present (TlRankResult *r, gsize rank, gsize n, gboolean with_basis,
                          const double *null_rows, double eps, GError **error);

/* The RREF of the answer (m×n float64: pivot rows, then zeros). */
TlMatrix *tl_rank_rref (const TlRankResult *result, gsize rows, gsize cols, GError **error);

G_END_DECLS
