// lab-check.h — what the developer harnesses in tools/ (gemm-lab, lu-lab)
// share: CK (a CUDA call that must succeed, or the harness stops with the
// file, line, call and CUDA's message; exit status 2).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x)                                                                                   \
  do                                                                                            \
    {                                                                                           \
      cudaError_t e_ = (x);                                                                     \
      if (e_ != cudaSuccess)                                                                    \
        {                                                                                       \
          fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString (e_)); \
          exit (2);                                                                             \
        }                                                                                       \
    }                                                                                           \
  while (0)
