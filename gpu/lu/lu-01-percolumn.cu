// lu-01-percolumn.cu — Gauss elimination with one launch per step.
//
// Rung 1 of the Gauss ladder: the textbook loop, moved to the GPU as it
// stands.  For each column c of the m×n row-major matrix:
//   lu_pivot_kernel   one block finds the largest |a(i,c)|, i ≥ c
//   lu_swap_kernel    swaps rows c and p (whole rows: contiguous)
//   lu_update_kernel  l(i) = a(i,c)/a(c,c) and a(i,j) −= l(i)·a(c,j)
// Three launches per column, 3·min(m,n) in all.  The rank-1 update reads
// and writes the whole trailing matrix for 2 flops per element, so the
// rung runs at the speed of memory, far below the chip's flops: over the
// factorisation that is ≈ n³/3 elements moved twice.  Small n pays
// the launch latency (a few µs × 3n) instead.  The blocked rung turns
// most of this traffic into a matrix multiplication.
//
// It is also the rung that can run without pivoting (to show growth and
// breakdown): then lu_pivot_kernel is skipped and ipiv[c] = c.
//
// Recording (--record) runs the same loop once more, untimed, stopping
// after each launch to download the column searched, the pivot, the
// multipliers and U row c (tl_lu_rec_* in tl-gpu-lu.cu).
#include "tl-lu-gpu.cuh"

template <typename T>
static TlGpuStatus
factor (TlLuCtx *ctx)
{
  T *a = (T *) ctx->a;
  const int m = ctx->m, n = ctx->n, lda = ctx->lda, mn = m < n ? m : n;
  // recording (a separate untimed run): stop after each launch and download
  const bool rec = ctx->observer != nullptr;
  TlGpuStatus rs = TL_GPU_OK;
  for (int c = 0; c < mn; c++)
    {
      if ((rs = tl_lu_cancel_point (ctx)) != TL_GPU_OK)
        return rs;
      if (rec && (rs = tl_lu_rec_search (ctx, c, 0)) != TL_GPU_OK)
        return rs;
      if (ctx->pivoting)
        {
          lu_pivot_kernel<T><<<1, 1024, 0, ctx->stream>>> (a, m, lda, c, ctx->ipiv);
          int blocks = (n + 255) / 256;
          lu_swap_kernel<T><<<blocks < 1024 ? blocks : 1024, 256, 0, ctx->stream>>> (a, lda, c, ctx->ipiv, 0, n);
        }
      if (rec && (rs = tl_lu_rec_pivot (ctx, c)) != TL_GPU_OK)
        return rs;
      if (c + 1 < m)
        {
          dim3 block (32, 8);
          dim3 grid (1, (m - c - 1 + 7) / 8);
          lu_update_kernel<T><<<grid, block, 0, ctx->stream>>> (a, m, lda, c, n);
        }
      // the update reached every column: U row c is final at once
      if (rec && ((rs = tl_lu_rec_eliminated (ctx, c, n)) != TL_GPU_OK
                  || (rs = tl_lu_rec_u_rows (ctx, c, 1)) != TL_GPU_OK
                  || (rs = tl_lu_rec_snapshot (ctx, c + 1)) != TL_GPU_OK))
        return rs;
    }
  return tl_gpu_from_cuda (cudaGetLastError (), "lu-01-percolumn launch");
}

static TlGpuStatus
lu_01_factor (TlLuCtx *ctx)
{
  if (!ctx->pivoting)
    {
      // ipiv = identity, set once
      int mn = ctx->m < ctx->n ? ctx->m : ctx->n;
      int *h = new int[mn > 0 ? mn : 1];
      for (int k = 0; k < mn; k++)
        h[k] = k;
      cudaError_t err = cudaMemcpyAsync (ctx->ipiv, h, sizeof (int) * mn, cudaMemcpyHostToDevice, ctx->stream);
      cudaStreamSynchronize (ctx->stream);
      delete[] h;
      if (err != cudaSuccess)
        return tl_gpu_from_cuda (err, "lu-01 ipiv");
    }
  return ctx->dtype == TL_GPU_FLOAT32 ? factor<float> (ctx) : factor<double> (ctx);
}

const TlLuRung lu_01_percolumn_rung = { "lu-01-percolumn", lu_01_factor, nullptr };
