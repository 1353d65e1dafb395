// lab-gemm-17.cu — rung 17's variants side by side with cuBLAS FP32
// pedantic, outside the harness (a lab, not a product: built by hand,
// docs/perf/gemm-cuda-cores-fp64-h100-2026-11-24.md says how; the
// harness and its arguments: lab-gemm-fp32.h).
//
// Build (sm_90a, not built by meson): nvcc -std=c++17 -O3
//   -gencode=arch=compute_90a,code=sm_90a -Igpu -Igpu/gemm -Itests lab/lab-gemm-17.cu -lcublas
#include "../gpu/gemm/gemm-17-simt-tma.cu"

#include "lab-gemm-fp32.h"

#define V(BK, S, G) { "bk" #BK "-s" #S "-g" #G, launch_cfg<Config<BK, S, G>>, prepare_cfg<Config<BK, S, G>>, nullptr }
static const Variant variants[] = {
  V (32, 4, 8), V (32, 4, 0), V (16, 8, 8), V (16, 6, 8), V (32, 3, 8),
};

int
main (int argc, char **argv)
{
  return lab_main (argc, argv, variants, (int) (sizeof variants / sizeof variants[0]));
}
