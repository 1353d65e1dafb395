// lab-gemm-18.cu — rung 18's schedules side by side with cuBLAS FP32
// pedantic: where the stream-K run goes (before or after each CTA's whole
// tiles), persistent tiles without stream-K, and one CTA per tile (rung
// 17's grid) — all with rung 18's kernel.  A lab, not a test (harness and
// arguments: lab-gemm-fp32.h).
//
// Build (sm_90a, not built by meson): nvcc -std=c++17 -O3
//   -gencode=arch=compute_90a,code=sm_90a -Igpu -Igpu/gemm -Itests lab/lab-gemm-18.cu -lcublas
#include "../gpu/gemm/gemm-18-simt-streamk.cu"

#include "lab-gemm-fp32.h"

enum Schedule
{
  SK_FIRST,   // each CTA's stream-K run, then its whole tiles
  SK_LAST,    // its whole tiles, then its run
  PERSISTENT, // whole tiles only, round robin over one CTA per SM
  GRID,       // one CTA per tile
};

template <Schedule S>
static StreamKPlan
lab_plan (const TlGemmLaunch *l)
{
  StreamKPlan p = plan_of (l->m, l->n, l->k, tl_grid_clusters (l, INT32_MAX, 1, false), S == SK_LAST);
  if (S == PERSISTENT || S == GRID)
    {
      const int g = p.ctas > p.split_ctas ? p.ctas : tl_grid_clusters (l, INT32_MAX, 1, false);
      p.split_tiles = p.split_ctas = p.run_extra = 0;
      p.run_base = 0;
      p.split_last = false;
      p.split_base = p.tiles;
      p.whole_base = 0;
      p.ctas = S == GRID ? p.tiles : p.tiles < g ? p.tiles : g;
    }
  return p;
}

template <Schedule S>
static cudaError_t
lab_launch (const TlGemmLaunch *l)
{
  CUtensorMap map_a, map_b;
  bool tma;
  if (!make_maps<Cfg> (l, &map_a, &map_b, &tma))
    return cudaErrorInvalidValue;
  const StreamKPlan plan = lab_plan<S> (l);
  gemm_18_kernel<<<plan.ctas, THREADS, Cfg::SMEM, l->stream>>> (
    map_a, map_b, (const float *) l->a, (const float *) l->b, (float *) l->c, l->m, l->n, l->k,
    tma ? 1 : 0, vec_c_ok (l) ? 1 : 0, plan, (float4 *) l->workspace,
    (int *) ((char *) l->workspace + partials_bytes (l)), l->blocks);
  return cudaGetLastError ();
}

static const Variant variants[] = {
  { "sk-first", lab_launch<SK_FIRST>, gemm_18_prepare, gemm_18_workspace },
  { "sk-last", lab_launch<SK_LAST>, gemm_18_prepare, gemm_18_workspace },
  { "persistent", lab_launch<PERSISTENT>, gemm_18_prepare, gemm_18_workspace },
  { "grid", lab_launch<GRID>, gemm_18_prepare, gemm_18_workspace },
};

int
main (int argc, char **argv)
{
  return lab_main (argc, argv, variants, (int) (sizeof variants / sizeof variants[0]));
}
