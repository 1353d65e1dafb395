/* fake-gpu-backend.c — stand-ins for the CUDA module, for test-gpu-loader.
 *
 * Built three times (tests/meson.build), by FAKE_KIND:
 *   1 (good)   a table like the module's, from the same door: every function
 *              answers 0 / NULL, but tl_gpu_device_count says 3 devices
 *              and tl_gpu_last_message "fake backend", so a test sees that
 *              its calls arrive here, without CUDA;
 *   2 (old)    the same, claiming another ABI number (a stale install);
 *   3 (alien)  a shared object without the entry symbol.
 */
#include "tl-gpu-backend.h"

#ifndef FAKE_KIND
#error "FAKE_KIND must be 1, 2 or 3"
#endif

#if FAKE_KIND == 3

int fake_gpu_backend_is_not_a_backend (void);

int
fake_gpu_backend_is_not_a_backend (void)
{
  return 1;
}

#else

/* every row: answers 0 (TL_GPU_OK, NULL, nothing) */
#define TL_GPU_FN(mode, ret, name, params, args)                                               \
  static ret fake_##name params                                                                \
  {                                                                                            \
    return (ret) 0;                                                                            \
  }
#define TL_GPU_VOID_FN(mode, name, params, args)                                               \
  static void fake_##name params                                                               \
  {                                                                                            \
  }
#include "tl-gpu-backend-list.h"
#undef TL_GPU_FN
#undef TL_GPU_VOID_FN

static TlGpuBackend fake_backend = {
  TL_GPU_BACKEND_HEADER ("fake"),
#define TL_GPU_FN(mode, ret, name, params, args) fake_##name,
#define TL_GPU_VOID_FN(mode, name, params, args) fake_##name,
#include "tl-gpu-backend-list.h"
#undef TL_GPU_FN
#undef TL_GPU_VOID_FN
};

static TlGpuStatus
three_devices (int *out_count)
{
  *out_count = 3;
  return TL_GPU_OK;
}

static const char *
fake_message (void)
{
  return "fake backend";
}

const TlGpuBackend *tl_gpu_backend_entry (void);

const TlGpuBackend *
tl_gpu_backend_entry (void)
{
  fake_backend.device_count = three_devices;
  fake_backend.last_message = fake_message;
  if (FAKE_KIND == 2)
    fake_backend.abi = TL_GPU_BACKEND_ABI + 1000;
  return &fake_backend;
}

#endif
