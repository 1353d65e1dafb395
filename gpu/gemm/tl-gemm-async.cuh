// tl-gemm-async.cuh — small device helpers shared by the fast GEMM rungs
// (09 warp tiling, 10 WMMA, 11 wgmma): asynchronous copies and the BF16
// conversion pre-pass.  CUDA C++, internal to gpu/gemm/.  (A rung learns
// its device's compute capability from TlGemmLaunch.cc.)
//
// cp.async (sm_80+) copies global memory straight into shared memory without
// passing through registers.  The thread only *issues* the copy and moves on;
// the data lands later.  Copies are grouped ("commit_group") and a thread
// waits until at most N groups are still in flight ("wait_group N").  That
// is what lets a kernel load tile k+2 while it multiplies tile k: the
// latency of global memory hides behind arithmetic instead of stalling it.
//
// The "src-size" operand is how the edges are handled without branches in
// the hot loop: a copy whose source is out of range is issued with
// src-size 0, and the hardware fills the destination with zeros.  The
// source pointer must still be a valid address, so callers clamp it to the
// matrix base.
#pragma once

#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <stdint.h>

#include "tl-gemm-rung.h"

__device__ __forceinline__ uint32_t
tl_smem_addr (const void *p)
{
  return (uint32_t) __cvta_generic_to_shared (p);
}

// 16 bytes, bypassing L1 (.cg): each tile is read once per block, so
// keeping it in L1 would only evict things we want.  src and dst 16-aligned.
__device__ __forceinline__ void
tl_cp_async_16 (void *smem_dst, const void *gmem_src, bool valid)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
                :: "r"(tl_smem_addr (smem_dst)), "l"(gmem_src), "r"(valid ? 16 : 0));
#endif
}

// 8 bytes: one double (rung 15's path for rows that are not 16-byte
// aligned: k or n odd).
__device__ __forceinline__ void
tl_cp_async_8 (void *smem_dst, const void *gmem_src, bool valid)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.ca.shared.global [%0], [%1], 8, %2;\n"
                :: "r"(tl_smem_addr (smem_dst)), "l"(gmem_src), "r"(valid ? 8 : 0));
#endif
}

// 4 bytes (only .ca exists for sizes below 16).  Used on the slow path,
// when a row of the matrix is not 16-byte aligned (k or n not a multiple
// of 4 floats).
__device__ __forceinline__ void
tl_cp_async_4 (void *smem_dst, const void *gmem_src, bool valid)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
                :: "r"(tl_smem_addr (smem_dst)), "l"(gmem_src), "r"(valid ? 4 : 0));
#endif
}

__device__ __forceinline__ void
tl_cp_async_commit ()
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.commit_group;\n" ::);
#endif
}

template <int N>
__device__ __forceinline__ void
tl_cp_async_wait ()
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
  asm volatile ("cp.async.wait_group %0;\n" :: "n"(N));
#endif
}

// ---- BF16 pre-pass ------------------------------------------------------
//
// Converts a float32 rows×cols row-major matrix into a bf16 matrix of
// out_rows×out_cols (>= rows×cols, leading dimension out_cols), zero in the
// padding.  With `transpose`, element (r, c) goes to (c, r) of an
// out_rows×out_cols matrix with out_rows >= cols, out_cols >= rows (the
// Hopper rung wants B as n×k, "K-major").
//
// A memory-bound pass: 4 bytes read and 2 written per element, so it is
// written for bandwidth: each thread converts 4 neighbours (one 16-byte
// load, one 8-byte store) where the rows are aligned for it.  The BF16
// rungs run it in their `prepare`, outside the timed region, as the cuBLAS
// BF16 reference does.
// (static: each rung file that includes this gets its own copy, so no
// relocatable device code is needed.)
static __global__ void
tl_bf16_convert_kernel (const float *__restrict__ src, int rows, int cols,
                        __nv_bfloat16 *__restrict__ dst, int out_rows, int out_cols)
{
  const int quads = (out_cols + 3) / 4;
  const bool vec_in = (cols % 4) == 0 && ((uintptr_t) src % 16) == 0;
  const bool vec_out = (out_cols % 4) == 0 && ((uintptr_t) dst % 8) == 0;
  const size_t total = (size_t) out_rows * quads;
  for (size_t q = blockIdx.x * (size_t) blockDim.x + threadIdx.x; q < total;
       q += (size_t) gridDim.x * blockDim.x)
    {
      int r = (int) (q / quads), c = (int) (q % quads) * 4;
      float v[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
      if (r < rows)
        {
          const float *s = src + (size_t) r * cols + c;
          if (vec_in && c + 3 < cols)
            {
              float4 f = __ldg (reinterpret_cast<const float4 *> (s));
              v[0] = f.x; v[1] = f.y; v[2] = f.z; v[3] = f.w;
            }
          else
            for (int j = 0; j < 4; j++)
              if (c + j < cols)
                v[j] = s[j];
        }
      __nv_bfloat16 *d = dst + (size_t) r * out_cols + c;
      if (vec_out)
        {
          __nv_bfloat162 lo = __floats2bfloat162_rn (v[0], v[1]);
          __nv_bfloat162 hi = __floats2bfloat162_rn (v[2], v[3]);
          uint2 u;
          u.x = *reinterpret_cast<uint32_t *> (&lo);
          u.y = *reinterpret_cast<uint32_t *> (&hi);
          *reinterpret_cast<uint2 *> (d) = u;
        }
      else
        for (int j = 0; j < 4; j++)
          if (c + j < out_cols)
            d[j] = __float2bfloat16_rn (v[j]);
    }
}

// The transpose goes through a 64×32 shared tile so that both the read (a
// warp reads 32 consecutive floats of one input row) and the write (a warp
// writes 32 bf16 pairs = 128 consecutive bytes of one output row) are
// coalesced; the odd row length (33) keeps the column reads nearly free of
// bank conflicts.  32×8 threads; the grid covers the output in 32-row ×
// 64-column tiles.
static __global__ void
tl_bf16_transpose_kernel (const float *__restrict__ src, int rows, int cols,
                          __nv_bfloat16 *__restrict__ dst, int out_rows, int out_cols)
{
  __shared__ float tile[64][33];
  const int out_c0 = blockIdx.x * 64, out_r0 = blockIdx.y * 32;
  const int tx = threadIdx.x, ty = threadIdx.y;
  // input rows out_c0 … out_c0+63, input columns out_r0 … out_r0+31
  for (int i = ty; i < 64; i += 8)
    {
      int in_r = out_c0 + i, in_c = out_r0 + tx;
      tile[i][tx] = (in_r < rows && in_c < cols) ? src[(size_t) in_r * cols + in_c] : 0.0f;
    }
  __syncthreads ();
  const bool pairs = (out_cols % 2) == 0;
  for (int i = ty; i < 32; i += 8)
    {
      int r = out_r0 + i, c = out_c0 + 2 * tx;
      if (r >= out_rows)
        continue;
      __nv_bfloat16 *d = dst + (size_t) r * out_cols + c;
      if (pairs && c + 1 < out_cols)
        *reinterpret_cast<__nv_bfloat162 *> (d) = __floats2bfloat162_rn (tile[2 * tx][i], tile[2 * tx + 1][i]);
      else
        {
          if (c < out_cols)
            d[0] = __float2bfloat16_rn (tile[2 * tx][i]);
          if (c + 1 < out_cols)
            d[1] = __float2bfloat16_rn (tile[2 * tx + 1][i]);
        }
    }
}

static inline size_t
tl_round_up_size (size_t x, size_t to)
{
  return (x + to - 1) / to * to;
}

// ---- zero-padded copies for TMA ------------------------------------------
//
// TMA addresses a matrix by rows that start on 16-byte boundaries; a
// float32 matrix with a row length that is not a multiple of 4 (k or n of
// an odd shape) cannot be read by it.  The TMA rungs then copy such an
// operand first into a buffer whose rows are padded with zeros to a
// multiple of 4 — both operands in one launch, a memory-bound pass of one
// read and one write (counted in the multiply's time).  A copy with
// rows = 0 is skipped.
//
// One thread per 16-byte vector of the padded rows: it reads the (up to)
// four source elements of its vector — a warp reads about 512 contiguous
// bytes — and writes the vector with one STG.128.  Its row and column come
// from one 32-bit division per vector (the harness keeps every matrix
// under 2^31 elements, so the vector counts fit an int).  A first version
// copied element by element, with a 64-bit division for each, and was
// slower (docs/perf/gemm-simt-h200-2026-11-29.md).
struct TlPadCopy
{
  const float *src;
  int rows, cols;      // src: rows × cols, row-major
  float *dst;          // 16-byte aligned
  int out_cols;        // dst: rows × out_cols (a multiple of 4), zeros in columns cols …
};

static __global__ void
tl_pad_pair_kernel (TlPadCopy a, TlPadCopy b)
{
  const int va = a.rows * (a.out_cols / 4), vb = b.rows * (b.out_cols / 4);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < va + vb; i += gridDim.x * blockDim.x)
    {
      const bool in_a = i < va;
      const int j = in_a ? i : i - va;
      const int cols = in_a ? a.cols : b.cols, per_row = (in_a ? a.out_cols : b.out_cols) / 4;
      const int r = j / per_row, c = (j - r * per_row) * 4;
      const float *src = (in_a ? a.src : b.src) + (size_t) r * cols + c;
      float4 v;
      v.x = c + 0 < cols ? src[0] : 0.0f;
      v.y = c + 1 < cols ? src[1] : 0.0f;
      v.z = c + 2 < cols ? src[2] : 0.0f;
      v.w = c + 3 < cols ? src[3] : 0.0f;
      reinterpret_cast<float4 *> (in_a ? a.dst : b.dst)[j] = v;
    }
}

static inline cudaError_t
tl_pad_pair (TlPadCopy a, TlPadCopy b, cudaStream_t stream)
{
  const size_t vecs = (size_t) a.rows * (a.out_cols / 4) + (size_t) b.rows * (b.out_cols / 4);
  const size_t blocks = (vecs + 255) / 256;
  tl_pad_pair_kernel<<<(unsigned) (blocks < 132 * 8 ? blocks : 132 * 8), 256, 0, stream>>> (a, b);
  return cudaGetLastError ();
}

// Which float32 operand of l TMA cannot read in place (a row length not a
// multiple of 4, or a base not on 16 bytes), the row lengths it reads
// (A m × kp, B k × np) and the workspace the padded copies take.
struct TlPadLayout
{
  bool pad_a, pad_b;
  int kp, np;
  size_t a_bytes, b_bytes;   // padded copies in the workspace (0: read in place)
};

static inline TlPadLayout
tl_pad_layout (const TlGemmLaunch *l)
{
  TlPadLayout L;
  L.pad_a = l->k % 4 != 0 || ((uintptr_t) l->a & 15u) != 0;
  L.pad_b = l->n % 4 != 0 || ((uintptr_t) l->b & 15u) != 0;
  L.kp = L.pad_a ? (int) tl_round_up_size (l->k, 4) : l->k;
  L.np = L.pad_b ? (int) tl_round_up_size (l->n, 4) : l->n;
  L.a_bytes = L.pad_a ? tl_round_up_size ((size_t) l->m * L.kp * 4, 256) : 0;
  L.b_bytes = L.pad_b ? (size_t) l->k * L.np * 4 : 0;
  return L;
}

// Enqueues the padded copies L asks for (one launch) and points *a and *b
// at what TMA reads: the copies, or l's A and B.
static inline cudaError_t
tl_pad_operands (const TlGemmLaunch *l, const TlPadLayout &L, const float **a, const float **b)
{
  *a = (const float *) l->a;
  *b = (const float *) l->b;
  if (!L.pad_a && !L.pad_b)
    return cudaSuccess;
  if (l->workspace == nullptr || l->workspace_bytes < L.a_bytes + L.b_bytes)
    return cudaErrorInvalidValue;
  float *pa = (float *) l->workspace, *pb = (float *) ((char *) l->workspace + L.a_bytes);
  cudaError_t e = tl_pad_pair ({ *a, L.pad_a ? l->m : 0, l->k, pa, L.kp },
                               { *b, L.pad_b ? l->k : 0, l->n, pb, L.np }, l->stream);
  if (L.pad_a)
    *a = pa;
  if (L.pad_b)
    *b = pb;
  return e;
}

static inline cudaError_t
tl_bf16_convert (const float *src, int rows, int cols, __nv_bfloat16 *dst, int out_rows,
                 int out_cols, bool transpose, cudaStream_t stream)
{
  if (transpose)
    {
      dim3 block (32, 8);
      dim3 grid ((unsigned) ((out_cols + 63) / 64), (unsigned) ((out_rows + 31) / 32));
      tl_bf16_transpose_kernel<<<grid, block, 0, stream>>> (src, rows, cols, dst, out_rows, out_cols);
    }
  else
    {
      size_t quads = (size_t) out_rows * ((out_cols + 3) / 4);
      size_t blocks = (quads + 255) / 256;
      unsigned grid = (unsigned) (blocks < 132 * 16 ? blocks : 132 * 16);
      tl_bf16_convert_kernel<<<grid, 256, 0, stream>>> (src, rows, cols, dst, out_rows, out_cols);
    }
  return cudaGetLastError ();
}
