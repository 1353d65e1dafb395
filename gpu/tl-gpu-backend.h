/* tl-gpu-backend.h — the table behind tl-gpu.h (gpu/ only, never src/ or ui/).
 *
 * A backend is a table of the door's functions that need CUDA, one pointer
 * per row of tl-gpu-backend-list.h.  Two fill it: the CUDA module
 * (libtilelab-gpu-cuda.so, whose one exported symbol TL_GPU_BACKEND_ENTRY
 * returns it) and the stub (no device; TL_GPU_STUB_DEVICES pretends some).
 * tl-gpu-loader.c picks one on the first call that needs CUDA and forwards.
 *
 * The loader and the module may come from different builds (an old module
 * still installed), so the table opens with what both must agree on: the
 * ABI number, the size of the table, the text of the list (every function's
 * return type, name and parameters) and the sizes of the structs that cross
 * the door.  A mismatch is refused with a sentence, never called.
 */
#ifndef TL_GPU_BACKEND_H
#define TL_GPU_BACKEND_H

#include "tl-gpu.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump when the door changes meaning without changing a signature or a
 * struct's size (an enum's values, who frees what). */
#define TL_GPU_BACKEND_ABI 2

/* The module's one exported symbol: const TlGpuBackend *ENTRY (void). */
#define TL_GPU_BACKEND_ENTRY "tl_gpu_backend_entry"
typedef const struct TlGpuBackend *(*TlGpuBackendEntry) (void);

/* The text of the list, as the compiler read it: "TlGpuStatus device_count
 * (int *out_count);…".  Two builds whose lists differ differ here; each
 * side compiles its own copy, and the table points at the module's. */
static inline const char *
tl_gpu_backend_signature (void)
{
  return ""
#define TL_GPU_FN(mode, ret, name, params, args) #ret " " #name " " #params ";"
#define TL_GPU_VOID_FN(mode, name, params, args) "void " #name " " #params ";"
#include "tl-gpu-backend-list.h"
#undef TL_GPU_FN
#undef TL_GPU_VOID_FN
    ;
}

/* The structs that cross the door by pointer: their sizes must agree. */
#define TL_GPU_BACKEND_STRUCTS(X)                                                              \
  X (TlGpuFacts) X (TlGpuBandwidth) X (TlGpuGemmArgs) X (TlGpuGemmResult) X (TlGpuCounters)   \
  X (TlGpuBlockRecord) X (TlGpuLaunchFacts) X (TlGpuLuArgs) X (TlGpuLuResult)                  \
  X (TlGpuLuObserver) X (TlGpuLuWindow) X (TlGpuLuSolveArgs) X (TlGpuKernelInfo)               \
  X (TlGpuLuKernelInfo) X (TlGpuRankArgs) X (TlGpuRankResult) X (TlGpuUserSource)          \
  X (TlGpuUserBuild) X (TlGpuUserLaunch)
#define TL_GPU_BACKEND_COUNT_STRUCT(type) +1
enum { TL_GPU_BACKEND_N_STRUCTS = 0 TL_GPU_BACKEND_STRUCTS (TL_GPU_BACKEND_COUNT_STRUCT) };

typedef struct TlGpuBackend
{
  int abi;                 /* TL_GPU_BACKEND_ABI */
  size_t table_size;       /* sizeof (TlGpuBackend) */
  const char *(*signature) (void); /* tl_gpu_backend_signature as its side compiled it */
  size_t struct_sizes[TL_GPU_BACKEND_N_STRUCTS]; /* TL_GPU_BACKEND_STRUCTS, in order */
  const char *name;        /* for messages: "CUDA", "stub" */
#define TL_GPU_FN(mode, ret, name, params, args) ret (*name) params;
#define TL_GPU_VOID_FN(mode, name, params, args) void (*name) params;
#include "tl-gpu-backend-list.h"
#undef TL_GPU_FN
#undef TL_GPU_VOID_FN
} TlGpuBackend;

/* The header of a table, for its initialiser: TL_GPU_BACKEND_HEADER ("CUDA"),
 * then the functions in the list's order. */
#define TL_GPU_BACKEND_SIZEOF(type) sizeof (type),
#define TL_GPU_BACKEND_HEADER(backend_name)                                                    \
  TL_GPU_BACKEND_ABI, sizeof (TlGpuBackend), tl_gpu_backend_signature,                         \
    { TL_GPU_BACKEND_STRUCTS (TL_GPU_BACKEND_SIZEOF) }, backend_name

/* ---- the stub (tl-gpu-stub.c) ------------------------------------------ */

/* The stub's table: no device (or the simulated ones of TL_GPU_STUB_DEVICES). */
const TlGpuBackend *tl_gpu_stub_backend (void);
/* Why there is no GPU, one sentence: what tl_gpu_last_message says and
 * what the stub's "no device" answers carry.  Copied.  Until it is set the
 * stub says TL_GPU_STUB_REASON (the build's: "built without CUDA", or ""
 * where a module is loaded on demand and nothing has failed yet). */
void tl_gpu_stub_set_reason (const char *reason);

#ifdef __cplusplus
}
#endif

#endif /* TL_GPU_BACKEND_H */
