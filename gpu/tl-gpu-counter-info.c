/* tl-gpu-counter-info.c — the counter list as data (with or without CUDA).
 *
 * Plain C: a laptop built without CUDA reads records made on a GPU server,
 * and needs the counters' keys, metrics and units to show them.
 */
#include "tl-gpu.h"

#include <string.h>

static const TlGpuCounterInfo counters[TL_GPU_N_COUNTERS] = {
#define TL_GPU_COUNTER(ID, key, metric, unit) { key, metric, unit },
#include "tl-gpu-counter-list.h"
#undef TL_GPU_COUNTER
};

const TlGpuCounterInfo *
tl_gpu_counter_info (int id)
{
  if (id < 0 || id >= TL_GPU_N_COUNTERS)
    return NULL;
  return &counters[id];
}

int
tl_gpu_counter_find (const char *key)
{
  for (int i = 0; key != NULL && i < TL_GPU_N_COUNTERS; i++)
    if (strcmp (counters[i].key, key) == 0)
      return i;
  return -1;
}
