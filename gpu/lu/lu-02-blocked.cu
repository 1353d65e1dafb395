// lu-02-blocked.cu — right-looking blocked LU: the update becomes a GEMM.
//
// Rung 2 (seed 004 §3.1).  With block size b, each block step factors a
// panel of b columns and then updates the trailing matrix at once:
//   panel  for each of the b columns: pivot search, swap, scale + rank-1
//          update — the rung-1 kernels, but the update stays inside the
//          b panel columns, so it touches m×b elements, not m×n;
//   swaps  the panel's row exchanges applied left and right of the panel
//          (one launch per exchange and side: simple, and visibly slow in
//          the phase split for small b);
//   trsm   U12 = L11⁻¹·A12 (cuBLAS);
//   gemm   A22 −= L21·U12 (cuBLAS) — 2·(m−k)·(n−k)·b flops on data reused
//          b times: this is where nearly all the flops go, at GEMM speed.
// The panel is still 3 launches per column and runs on a few SMs while the
// rest of the chip waits: the tuned rung attacks exactly that.
//
// cuBLAS is column-major and sees our row-major memory as Aᵀ; tl_lu_trsm
// and tl_lu_gemm (tl-gpu-lu.cu) write the transposed calls.
//
// Recording (tilelab-cli lu --kernel lu-02-blocked --record): a separate
// run, after the timed ones, calls the tl_lu_rec_* hooks between the
// launches — per column the searched column, the pivot and the
// multipliers, per block step the final U rows, the phase times of the
// profile run and a snapshot when due.  The timed run never reaches them.
#include "tl-lu-gpu.cuh"

template <typename T>
static TlGpuStatus
factor (TlLuCtx *ctx)
{
  T *a = (T *) ctx->a;
  const int m = ctx->m, n = ctx->n, lda = ctx->lda, mn = m < n ? m : n;
  const int nb = ctx->block_size > 0 ? ctx->block_size : 128;

  // recording (a separate untimed run): the hooks stop and download
  const bool rec = ctx->observer != nullptr;
  TlGpuStatus rs = TL_GPU_OK;
#define REC(call)                                                                    \
  do                                                                                 \
    {                                                                                \
      if (rec && (rs = (call)) != TL_GPU_OK)                                         \
        return rs;                                                                   \
    }                                                                                \
  while (0)

  for (int k0 = 0, bstep = 0; k0 < mn; k0 += nb, bstep++)
    {
      if ((rs = tl_lu_cancel_point (ctx)) != TL_GPU_OK)
        return rs;
      const int kb = mn - k0 < nb ? mn - k0 : nb, r1 = k0 + kb;
      tl_lu_phase_begin (ctx, TL_LU_GPU_PANEL);

      // panel: b columns, the rung-1 kernels restricted to the panel
      for (int c = k0; c < r1; c++)
        {
          REC (tl_lu_rec_search (ctx, c, bstep));
          lu_pivot_kernel<T><<<1, 1024, 0, ctx->stream>>> (a, m, lda, c, ctx->ipiv);
          lu_swap_kernel<T><<<1, 128, 0, ctx->stream>>> (a, lda, c, ctx->ipiv, k0, r1);
          REC (tl_lu_rec_pivot (ctx, c));
          if (c + 1 < m)
            {
              dim3 block (32, 8), grid (1, (m - c - 1 + 7) / 8);
              lu_update_kernel<T><<<grid, block, 0, ctx->stream>>> (a, m, lda, c, r1);
            }
          REC (tl_lu_rec_panel_column (ctx, c, r1));
        }
      tl_lu_phase_end (ctx, TL_LU_GPU_PANEL);

      // swaps: each exchange, left of the panel and right of it
      tl_lu_phase_begin (ctx, TL_LU_GPU_SWAP);
      for (int c = k0; c < r1; c++)
        {
          if (k0 > 0)
            lu_swap_kernel<T><<<(k0 + 255) / 256, 256, 0, ctx->stream>>> (a, lda, c, ctx->ipiv, 0, k0);
          if (r1 < n)
            lu_swap_kernel<T><<<(n - r1 + 255) / 256, 256, 0, ctx->stream>>> (a, lda, c, ctx->ipiv, r1, n);
        }
      tl_lu_phase_end (ctx, TL_LU_GPU_SWAP);

      tl_lu_phase_begin (ctx, TL_LU_GPU_TRSM);
      cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
      if (r1 < n)
        st = tl_lu_trsm (ctx, k0, kb);
      if (st != CUBLAS_STATUS_SUCCESS)
        return tl_gpu_from_cublas (st, "lu-02 trsm");
      tl_lu_phase_end (ctx, TL_LU_GPU_TRSM);

      tl_lu_phase_begin (ctx, TL_LU_GPU_GEMM);
      if (r1 < m && r1 < n)
        st = tl_lu_gemm (ctx, k0, kb, r1, n);
      if (st != CUBLAS_STATUS_SUCCESS)
        return tl_gpu_from_cublas (st, "lu-02 gemm");
      tl_lu_phase_end (ctx, TL_LU_GPU_GEMM);
      if ((rs = tl_lu_phase_step (ctx, bstep)) != TL_GPU_OK)
        return rs;
      // U rows k0..r1−1 are final after the TRSM; then the block step and
      // (when due) the whole matrix
      REC (tl_lu_rec_u_rows (ctx, k0, kb));
      REC (tl_lu_rec_block (ctx, bstep, k0, kb));
      REC (tl_lu_rec_snapshot (ctx, r1));
    }
#undef REC
  return tl_gpu_from_cuda (cudaGetLastError (), "lu-02-blocked launch");
}

static TlGpuStatus
lu_02_factor (TlLuCtx *ctx)
{
  return ctx->dtype == TL_GPU_FLOAT32 ? factor<float> (ctx) : factor<double> (ctx);
}

const TlLuRung lu_02_blocked_rung = { "lu-02-blocked", lu_02_factor, nullptr };
