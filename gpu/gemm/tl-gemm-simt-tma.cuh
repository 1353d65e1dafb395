// tl-gemm-simt-tma.cuh — the parts of rung 17 (FP32 on the CUDA cores,
// warp-specialised, TMA): the C tile and its shared-memory stages, the
// consumers' k-tile of FFMAs, the stores of C, the producer's two ways of
// filling a stage, and the tensor maps.  CUDA C++, internal to gpu/gemm/.
//
// gemm-17-simt-tma.cu explains the design (one TMA producer thread, eight
// FFMA warps with 232 registers, A copied "k-quad-major") and holds the
// kernel; the parts live apart so that other schedules of the same tile
// build from them (the stream-K experiment:
// docs/perf/gemm-cuda-cores-h100-2026-11-24-streamk.md).
#pragma once

#include "tl-gemm-common.cuh"
#include "tl-wgmma.cuh"

#include <string.h>

namespace {

constexpr int BM = 128, BN = 256;        // C tile of one CTA
constexpr int TM = 8, TN = 16;           // C elements per consumer thread
constexpr int CONSUMER_WARPS = 8;        // 4 along m × 2 along n, 32 × 128 each
constexpr int CONSUMERS = 32 * CONSUMER_WARPS;
constexpr int THREADS = 128 + CONSUMERS; // warpgroup 0: the producer

template <int BK_, int STAGES_, int GROUP_>
struct Config
{
  static constexpr int BK = BK_, STAGES = STAGES_, GROUP = GROUP_;
  static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BK * BN * 4;
  static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
  static constexpr int SMEM = STAGES * STAGE_BYTES + 128;   // + alignment slack
  static_assert (BK % 4 == 0 && BK <= 256, "whole k-quads, one TMA box");
};

// The CTA's C tile: plain row order (GROUP 0), or grouped — GROUP tile-rows
// per band, down the band first — so the CTAs in flight share rows of A
// and columns of B in L2.
__device__ __forceinline__ void
tile_of (int bid, int tiles_m, int tiles_n, int group, int *tm, int *tn)
{
  if (group <= 0)
    {
      *tm = bid / tiles_n;
      *tn = bid % tiles_n;
      return;
    }
  const int per_band = group * tiles_n, band = bid / per_band, r = bid % per_band;
  const int rows = tiles_m - band * group < group ? tiles_m - band * group : group;
  *tm = band * group + r % rows;
  *tn = r / rows;
}

// The stages of the dynamic shared-memory buffer: A's tile (k-quad-major,
// BM × BK floats) then B's (BK × BN floats), STAGES times.
template <typename Cfg>
struct Stages
{
  unsigned char *base;   // 128-byte aligned

  __device__ __forceinline__ float *a (int s) const
  {
    return reinterpret_cast<float *> (base + s * Cfg::STAGE_BYTES);
  }
  __device__ __forceinline__ float *b (int s) const
  {
    return reinterpret_cast<float *> (base + s * Cfg::STAGE_BYTES + Cfg::A_BYTES);
  }
};

// Where consumer thread t (0 … 255) works in the C tile: its first row r
// and first column col (rows r + 4i, columns col + 32g … + 3).
__device__ __forceinline__ void
consumer_origin (int t, int *r, int *col)
{
  const int lane = t % 32, warp = t / 32;
  const int lm = lane / 8, ln = lane % 8;    // 4 × 8 lanes
  const int wm = warp / 2, wn = warp % 2;    // 4 × 2 warps
  *r = wm * 32 + lm;
  *col = wn * 128 + 4 * ln;
}

// ---- the consumers' k-tile -------------------------------------------------
//
// a4: this thread's first A vector in the stage (k-quad 0, its row 0);
// b4: its first B vector (k-row 0, its column group 0).  Per k-quad: TM
// LDS.128 of A (4 k-values of a row each), then per k-step TN/4 LDS.128
// of B and TM·TN FFMAs.
template <int BK>
__device__ __forceinline__ void
multiply_stage (float (&acc)[TM][TN], const float4 *a4, const float4 *b4)
{
#pragma unroll
  for (int q = 0; q < BK / 4; q++)
    {
      float4 av[TM];
#pragma unroll
      for (int i = 0; i < TM; i++)
        av[i] = a4[q * BM + 4 * i];
#pragma unroll
      for (int kk = 0; kk < 4; kk++)
        {
          float4 bv[TN / 4];
#pragma unroll
          for (int g = 0; g < TN / 4; g++)
            bv[g] = b4[(4 * q + kk) * (BN / 4) + 8 * g];
#pragma unroll
          for (int i = 0; i < TM; i++)
            {
              const float x = kk == 0 ? av[i].x : kk == 1 ? av[i].y : kk == 2 ? av[i].z : av[i].w;
#pragma unroll
              for (int g = 0; g < TN / 4; g++)
                {
                  acc[i][4 * g + 0] = fmaf (x, bv[g].x, acc[i][4 * g + 0]);
                  acc[i][4 * g + 1] = fmaf (x, bv[g].y, acc[i][4 * g + 1]);
                  acc[i][4 * g + 2] = fmaf (x, bv[g].z, acc[i][4 * g + 2]);
                  acc[i][4 * g + 3] = fmaf (x, bv[g].w, acc[i][4 * g + 3]);
                }
            }
        }
    }
}

// Four neighbouring elements of C, row r, columns col … col + 3: one
// STG.128 when vec (the whole tile inside C, 16-byte aligned rows), else
// guarded scalars.
__device__ __forceinline__ void
store_quad (float4 v, float *__restrict__ c, int m, int n, int r, int col, bool vec)
{
  if (vec)
    *reinterpret_cast<float4 *> (&c[(size_t) r * n + col]) = v;
  else if (r < m)
    {
      const float e[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
      for (int j = 0; j < 4; j++)
        if (col + j < n)
          c[(size_t) r * n + col + j] = e[j];
    }
}

// A consumer thread's sums: rows r0 + 4i, columns c0 + 32g … + 3 of C.
__device__ __forceinline__ void
store_tile (const float (&acc)[TM][TN], float *__restrict__ c, int m, int n, int r0, int c0, bool vec)
{
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int g = 0; g < TN / 4; g++)
      store_quad (make_float4 (acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]),
                  c, m, n, r0 + 4 * i, c0 + 32 * g, vec);
}

// ---- the producer without TMA ------------------------------------------------
//
// When a row pitch is not a multiple of 16 bytes (k or n not a multiple of
// 4) TMA cannot address the matrix.  Then the producer warpgroup's 128
// threads fill the stage themselves, in the same layout, with guarded
// scalar loads (zeros outside the matrices) — slow, but the consumers'
// code stays the same.
template <int BK>
__device__ __forceinline__ void
fill_stage (float *As, float *Bs, const float *__restrict__ a, const float *__restrict__ b, int m,
            int n, int k, int row0, int col0, int k0, int tid)
{
  for (int e = tid; e < BM * BK; e += 128)
    {
      const int r = e / BK, kk = e % BK;   // neighbouring threads: neighbouring k of a row
      const int gr = row0 + r, gk = k0 + kk;
      As[(kk / 4) * BM * 4 + r * 4 + kk % 4] = gr < m && gk < k ? a[(size_t) gr * k + gk] : 0.0f;
    }
  for (int e = tid; e < BK * BN; e += 128)
    {
      const int kk = e / BN, col = e % BN;
      const int gk = k0 + kk, gc = col0 + col;
      Bs[kk * BN + col] = gk < k && gc < n ? b[(size_t) gk * n + gc] : 0.0f;
    }
}

// The stage ring's barriers.  full[s]: the stage holds its k-tile (the
// TMA bytes, or the 128 producer threads' arrivals); empty[s]: every
// consumer thread is done reading it.  Thread 0 initialises them; the
// caller's __syncthreads publishes them.
template <int STAGES>
__device__ __forceinline__ void
init_stage_barriers (uint64_t *full, uint64_t *empty, bool tma)
{
  if (threadIdx.x == 0)
    {
      for (int s = 0; s < STAGES; s++)
        {
          tl_mbar_init (&full[s], tma ? 1 : 128);
          tl_mbar_init (&empty[s], CONSUMERS);
        }
      tl_fence_mbar_init ();
    }
}

// The producer thread's copy of k-tile kt of the C tile at (row0, col0)
// into stage s: one TMA box of A, one of B, both completing on full[s].
template <typename Cfg>
__device__ __forceinline__ void
tma_fill_stage (const Stages<Cfg> &st, int s, uint64_t *full, const CUtensorMap *map_a,
                const CUtensorMap *map_b, int row0, int col0, int kt)
{
  tl_mbar_expect_tx (full, Cfg::STAGE_BYTES);
  tl_tma_load_3d (st.a (s), map_a, full, 0, row0, kt * (Cfg::BK / 4));
  tl_tma_load (st.b (s), map_b, full, col0, kt * Cfg::BK);
}

__device__ __forceinline__ void
zero_acc (float (&acc)[TM][TN])
{
#pragma unroll
  for (int i = 0; i < TM; i++)
#pragma unroll
    for (int j = 0; j < TN; j++)
      acc[i][j] = 0.0f;
}

// ---- host side ---------------------------------------------------------------

// TMA reads A and B when their rows start on 16-byte boundaries.
inline bool
tma_ok (const TlGemmLaunch *l)
{
  return tl_aligned16 (l->a) && tl_aligned16 (l->b) && l->k % 4 == 0 && l->n % 4 == 0;
}

// The tensor maps of A and B for k-tiles of BK, or both zeroed when TMA
// cannot read them (*tma = false: the producer warpgroup copies).  False
// when the driver refuses a map.
template <typename Cfg>
bool
make_maps (const TlGemmLaunch *l, CUtensorMap *map_a, CUtensorMap *map_b, bool *tma)
{
  memset (map_a, 0, sizeof *map_a);
  memset (map_b, 0, sizeof *map_b);
  *tma = tma_ok (l);
  if (!*tma)
    return true;
  // A (m×k, row-major) seen as 3-D: 4 consecutive k (16 bytes), then
  // rows (pitch 4k bytes), then k-quads (16 bytes apart).  A box of
  // 4 × BM × BK/4 lands in shared memory as As[k/4][row][k%4].
  const int dims_a[3] = { 4, l->m, l->k / 4 };
  const size_t strides_a[2] = { (size_t) l->k * 4, 16 };
  const int box_a[3] = { 4, BM, Cfg::BK / 4 };
  return tl_tensor_map_3d (map_a, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, l->a, dims_a, strides_a, box_a)
         && tl_tensor_map_2d (map_b, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, l->b, l->k, l->n,
                              (size_t) l->n * 4, Cfg::BK, BN, CU_TENSOR_MAP_SWIZZLE_NONE);
}

// C's rows start on 16-byte boundaries: whole tiles store with STG.128.
inline bool
vec_c_ok (const TlGemmLaunch *l)
{
  return tl_aligned16 (l->c) && l->n % 4 == 0;
}

} // namespace
