// tl-gemm-simt-tma.cuh — the parts of rung 17 (FP32 on the CUDA cores,
// warp-specialised, TMA): the C tile and its shared-memory stages (one
// Config per tile shape of its plans), the consumers' k-tile of FFMAs, the
// stores of C, the producer's TMA copy of a stage, the padded layout of
// odd shapes and the tensor maps.
// CUDA C++, internal to gpu/gemm/.
//
// gemm-17-simt-tma.cu explains the design (one TMA producer thread, eight
// FFMA warps with 232 registers, A copied "k-quad-major") and holds the
// kernel; the parts live apart so that other schedules of the same tile
// build from them (the stream-K experiment:
// docs/perf/gemm-cuda-cores-h100-2026-11-24-streamk.md).
#pragma once

#include "tl-gemm-common.cuh"
#include "tl-wgmma.cuh"
#include "tl-gemm-splitk.cuh"

#include <string.h>

namespace {

// The C tile of one CTA is Tile::BM × Tile::BN; its 8 consumer warps sit
// 4 along m × 2 along n, and a warp is 4 × 8 lanes, so a thread computes
// TM = BM/16 rows × TN = BN/16 columns: rows r + 4i, columns col + 32g …
// + 3 (g < TN/4).  128 × 256 gives 8 × 16 outputs per thread (128
// accumulators), 96 × 192 gives 6 × 12; the smaller tiles, fewer.
constexpr int CONSUMER_WARPS = 8;        // 4 along m × 2 along n
constexpr int CONSUMERS = 32 * CONSUMER_WARPS;
constexpr int THREADS = 128 + CONSUMERS; // warpgroup 0: the producer
static_assert (CONSUMERS == 256, "tl-gemm-splitk.cuh's steps for a warp-specialised kernel take "
                                 "warpgroup 0 as the producers and 256 consumers after it");

template <int BM_, int BN_, int BK_, int STAGES_, bool SPLIT_>
struct Config
{
  static constexpr int BM = BM_, BN = BN_, BK = BK_, STAGES = STAGES_;
  static constexpr bool SPLIT = SPLIT_;   // built with the split-k epilogue
  static constexpr int TM = BM / 16, TN = BN / 16;
  static constexpr int A_BYTES = BM * BK * 4, B_BYTES = BK * BN * 4;
  static constexpr int STAGE_BYTES = A_BYTES + B_BYTES;
  // split-k: a CTA's partial tile, rows padded by 16 floats, in the stages
  static constexpr int PART_PITCH = BN + 16;
  static constexpr int SMEM = STAGES * STAGE_BYTES + 128;   // + alignment slack
  static_assert (BK % 4 == 0 && BK <= 256, "whole k-quads, one TMA box");
  static_assert (BM % 16 == 0 && BN % 64 == 0 && TM >= 1,
                 "4 × 2 warps of 4 × 8 lanes, each lane whole float4 column groups");
  static_assert (BM * PART_PITCH * 4 <= STAGES * STAGE_BYTES, "the partial tile fits the stages");
};

// The CTA's C tile: plain row order (group 0), or grouped — `group`
// tile-rows per band, down the band first — so the CTAs in flight share
// rows of A and columns of B in L2.
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
template <typename Cfg>
__device__ __forceinline__ void
consumer_origin (int t, int *r, int *col)
{
  const int lane = t % 32, warp = t / 32;
  const int lm = lane / 8, ln = lane % 8;    // 4 × 8 lanes
  const int wm = warp / 2, wn = warp % 2;    // 4 × 2 warps
  *r = wm * (Cfg::BM / 4) + lm;
  *col = wn * (Cfg::BN / 2) + 4 * ln;
}

// ---- the consumers' k-tile -------------------------------------------------
//
// a4: this thread's first A vector in the stage (k-quad 0, its row 0);
// b4: its first B vector (k-row 0, its column group 0).  Per k-quad: TM
// LDS.128 of A (4 k-values of a row each), then per k-step TN/4 LDS.128
// of B and TM·TN FFMAs.
template <typename Cfg>
__device__ __forceinline__ void
multiply_stage (float (&acc)[Cfg::TM][Cfg::TN], const float4 *a4, const float4 *b4)
{
  constexpr int TM = Cfg::TM, TN = Cfg::TN, BM = Cfg::BM, BN = Cfg::BN;
#pragma unroll
  for (int q = 0; q < Cfg::BK / 4; q++)
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

// A consumer thread's sums: rows r0 + 4i, columns c0 + 32g … + 3 of C (or,
// for split-k, of its partial tile in shared memory: m = BM, n = pitch).
template <typename Cfg>
__device__ __forceinline__ void
store_tile (const float (&acc)[Cfg::TM][Cfg::TN], float *__restrict__ c, int m, int n, int r0,
            int c0, bool vec)
{
#pragma unroll
  for (int i = 0; i < Cfg::TM; i++)
#pragma unroll
    for (int g = 0; g < Cfg::TN / 4; g++)
      store_quad (make_float4 (acc[i][4 * g], acc[i][4 * g + 1], acc[i][4 * g + 2], acc[i][4 * g + 3]),
                  c, m, n, r0 + 4 * i, c0 + 32 * g, vec);
}

// The stage ring's barriers.  full[s]: the stage holds its k-tile (the
// TMA bytes); empty[s]: every consumer thread is done reading it.  Thread
// 0 initialises them; the caller's __syncthreads publishes them.
template <int STAGES>
__device__ __forceinline__ void
init_stage_barriers (uint64_t *full, uint64_t *empty)
{
  if (threadIdx.x == 0)
    {
      for (int s = 0; s < STAGES; s++)
        {
          tl_mbar_init (&full[s], 1);
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

template <typename Cfg>
__device__ __forceinline__ void
zero_acc (float (&acc)[Cfg::TM][Cfg::TN])
{
#pragma unroll
  for (int i = 0; i < Cfg::TM; i++)
#pragma unroll
    for (int j = 0; j < Cfg::TN; j++)
      acc[i][j] = 0.0f;
}

// ---- host side ---------------------------------------------------------------

// Odd shapes: TMA reads A and B when their rows start on 16-byte
// boundaries (k and n multiples of 4 floats, aligned pointers).  Otherwise
// the launch copies the operand that is not into a zero-padded buffer in
// the workspace first (tl_pad_operands: both in one launch, timed with the
// multiply), and the kernel reads the copy with k rounded up to kp.
using Layout = TlPadLayout;

inline Layout
layout_of (const TlGemmLaunch *l)
{
  return tl_pad_layout (l);
}

// The tensor maps of A (m × kp) and B (k × np) for k-tiles of BK.  False
// when the driver refuses a map.
template <typename Cfg>
bool
make_maps (const float *a, const float *b, int m, int k, const Layout &L,
           CUtensorMap *map_a, CUtensorMap *map_b)
{
  // A (m×kp, row-major) seen as 3-D: 4 consecutive k (16 bytes), then
  // rows (pitch 4kp bytes), then k-quads (16 bytes apart).  A box of
  // 4 × BM × BK/4 lands in shared memory as As[k/4][row][k%4].
  const int dims_a[3] = { 4, m, L.kp / 4 };
  const size_t strides_a[2] = { (size_t) L.kp * 4, 16 };
  const int box_a[3] = { 4, Cfg::BM, Cfg::BK / 4 };
  return tl_tensor_map_3d (map_a, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, a, dims_a, strides_a, box_a)
         && tl_tensor_map_2d (map_b, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, b, k, L.np,
                              (size_t) L.np * 4, Cfg::BK, Cfg::BN, CU_TENSOR_MAP_SWIZZLE_NONE);
}

// C's rows start on 16-byte boundaries: whole tiles store with STG.128.
inline bool
vec_c_ok (const TlGemmLaunch *l)
{
  return tl_aligned16 (l->c) && l->n % 4 == 0;
}

} // namespace
