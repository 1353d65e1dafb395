// tl-gpu-plan-residency.h — how many CTAs of each plan's kernel an SM holds,
// asked of the device (CUDA C++, internal to the GPU harness).
#pragma once

#include "tl-gpu-internal.h"
#include "gemm/tl-gemm-rung.h"

// For every plan of `kernel_id` (tl_gpu_gemm_plan_nth): the kernel, block
// and dynamic shared memory the rung would launch for `base`'s problem
// (its shape), and the occupancy calculator's CTAs per SM for them on
// `device`, asked once per kernel and device and kept in the device.  A
// plan whose kernel cannot be asked (a GPU without its code) is left 0:
// the model then counts the tile list's expectation.
void tl_gpu_plan_residency (TlGpuDevice *device, const TlGemmRung *rung, const char *kernel_id,
                            const TlGemmLaunch *base, TlGpuPlanResidency *out);
