/* tl-kernels.c — the CPU kernels and the GPU ladder as one table. */
#include "gemm/tl-kernels.h"
#include "gemm/tl-cpu-gemm.h"
#include "tl-gpu.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* TlGpuDtype mirrors TlDtype, so dtype masks carry over unchanged. */
G_STATIC_ASSERT ((int) TL_GPU_INT32 == (int) TL_DTYPE_INT32);
G_STATIC_ASSERT ((int) TL_GPU_FLOAT32 == (int) TL_DTYPE_FLOAT32);
G_STATIC_ASSERT ((int) TL_GPU_FLOAT64 == (int) TL_DTYPE_FLOAT64);

static TlKernelInfo *kernels;
static guint n_kernels;

static gpointer
build_table (gpointer data)
{
  guint n_cpu = tl_cpu_kernel_count ();
  guint n_gpu = (guint) MAX (tl_gpu_kernel_count (), 0);
  TlKernelInfo *table = g_new0 (TlKernelInfo, n_cpu + n_gpu);

  for (guint i = 0; i < n_cpu; i++)
    {
      const TlCpuKernel *c = tl_cpu_kernel_get (i);
      table[i] = (TlKernelInfo) {
        .id = c->id,
        .number = 0,
        .title = c->title,
        .lesson = c->lesson,
        .changed = c->changed,
        .seed = c->seed ? c->seed : "",
        .dtypes = c->dtypes,
        .backend = TL_BACKEND_CPU,
        .reference = c->reference,
        .baseline = c->baseline,
        .single_threaded = c->single_threaded,
        .records_blocks = c->records_tiles,
        .tile_m = c->tile,
        .tile_n = c->tile,
        .min_cc = 0,
        /* like the GPU rungs: the dtype's own arithmetic, nothing reduced */
        .precision = "fp32",
        .source_path = "src/gemm/tl-cpu-gemm.c",
      };
    }
  for (guint i = 0; i < n_gpu; i++)
    {
      const TlGpuKernelInfo *g = tl_gpu_kernel_info ((int) i);
      table[n_cpu + i] = (TlKernelInfo) {
        .id = g->id,
        .number = g->number,
        .title = g->title,
        .lesson = g->lesson,
        .changed = g->changed,
        .seed = g->seed ? g->seed : "",
        .dtypes = g->dtypes,
        .backend = TL_BACKEND_GPU,
        .reference = g->kind == TL_GPU_KIND_REFERENCE,
        .records_blocks = g->instrumentable != 0,
        .tile_m = g->tile_m,
        .tile_n = g->tile_n,
        .min_cc = g->min_cc,
        .precision = g->precision,
        .source_path = g->source_path,
        .counters = g->counters,
      };
    }
  n_kernels = n_cpu + n_gpu;
  kernels = table;
  return table;
}

static void
ensure_table (void)
{
  static GOnce once = G_ONCE_INIT;
  g_once (&once, build_table, NULL);
}

guint
tl_kernel_count (void)
{
  ensure_table ();
  return n_kernels;
}

const TlKernelInfo *
tl_kernel_get (guint index)
{
  ensure_table ();
  g_return_val_if_fail (index < n_kernels, NULL);
  return &kernels[index];
}

static const TlKernelInfo *find_added (const char *id);

const TlKernelInfo *
tl_kernel_find (const char *id)
{
  ensure_table ();
  for (guint i = 0; id != NULL && i < n_kernels; i++)
    if (strcmp (kernels[i].id, id) == 0)
      return &kernels[i];
  return find_added (id);
}

/* ---- rows added at run time ----------------------------------------- */

typedef struct
{
  TlKernelInfo info;
  gpointer owner;
} AddedRow;

static GMutex added_lock;
static GPtrArray *added; /* AddedRow*, never freed: handed-out rows stay valid */

static const TlKernelInfo *
find_added_locked (const char *id)
{
  for (guint i = 0; added && id && i < added->len; i++)
    {
      AddedRow *r = added->pdata[i];
      if (strcmp (r->info.id, id) == 0)
        return &r->info;
    }
  return NULL;
}

static const TlKernelInfo *
find_added (const char *id)
{
  g_mutex_lock (&added_lock);
  const TlKernelInfo *info = find_added_locked (id);
  g_mutex_unlock (&added_lock);
  return info;
}

const TlKernelInfo *
tl_kernel_add (const TlKernelInfo *row, gpointer owner)
{
  g_return_val_if_fail (row != NULL && row->id != NULL, NULL);
  ensure_table ();
  g_mutex_lock (&added_lock);
  AddedRow *r = NULL;
  gboolean taken = find_added_locked (row->id) != NULL;
  for (guint i = 0; i < n_kernels && !taken; i++)
    taken = strcmp (kernels[i].id, row->id) == 0;
  if (!taken)
    {
      if (added == NULL)
        added = g_ptr_array_new ();
      r = g_new0 (AddedRow, 1);
      r->info = *row;
      r->owner = owner;
      g_ptr_array_add (added, r);
    }
  g_mutex_unlock (&added_lock);
  return r ? &r->info : NULL;
}

gpointer
tl_kernel_get_owner (const TlKernelInfo *info)
{
  gpointer owner = NULL;
  g_mutex_lock (&added_lock);
  for (guint i = 0; added && info && i < added->len && owner == NULL; i++)
    if (&((AddedRow *) added->pdata[i])->info == info)
      owner = ((AddedRow *) added->pdata[i])->owner;
  g_mutex_unlock (&added_lock);
  return owner;
}

GPtrArray *
tl_kernel_list_added (void)
{
  GPtrArray *list = g_ptr_array_new ();
  g_mutex_lock (&added_lock);
  for (guint i = 0; added && i < added->len; i++)
    g_ptr_array_add (list, &((AddedRow *) added->pdata[i])->info);
  g_mutex_unlock (&added_lock);
  return list;
}

gboolean
tl_kernel_supports (const TlKernelInfo *info, TlDtype dtype)
{
  g_return_val_if_fail (info != NULL, FALSE);
  return (unsigned) dtype < TL_DTYPE_COUNT && (info->dtypes & TL_DTYPE_BIT (dtype)) != 0;
}

const char *
tl_kernel_precision (const TlKernelInfo *info, TlDtype dtype)
{
  g_return_val_if_fail (info != NULL, "fp32");
  if (dtype == TL_DTYPE_INT32)
    return "exact";
  if (dtype == TL_DTYPE_FLOAT64)
    return "fp64";
  return info->precision ? info->precision : "fp32";
}

const TlKernelInfo *
tl_kernel_reference (const TlKernelInfo *info, TlDtype dtype)
{
  g_return_val_if_fail (info != NULL, NULL);
  if (dtype == TL_DTYPE_INT32)
    return NULL;
  const char *precision = tl_kernel_precision (info, dtype);
  ensure_table ();
  for (guint i = 0; i < n_kernels; i++)
    {
      const TlKernelInfo *r = &kernels[i];
      if (r->reference && r->backend == info->backend && tl_kernel_supports (r, dtype)
          && strcmp (tl_kernel_precision (r, dtype), precision) == 0)
        return r;
    }
  return NULL;
}

const TlKernelInfo *
tl_kernel_baseline (void)
{
  ensure_table ();
  for (guint i = 0; i < n_kernels; i++)
    if (kernels[i].baseline)
      return &kernels[i];
  return NULL;
}

gboolean
tl_kernel_runs_on (const TlKernelInfo *info, int cc_major, int cc_minor)
{
  g_return_val_if_fail (info != NULL, FALSE);
  if (info->backend == TL_BACKEND_CPU)
    return TRUE;
  return tl_gpu_cc_runs (info->min_cc, cc_major, cc_minor) != 0;
}

char *
tl_kernel_display_name (const TlKernelInfo *info, const char *kernel_id)
{
  if (info == NULL)
    return g_strdup (kernel_id);
  if (info->backend == TL_BACKEND_GPU && info->number > 0)
    return g_strdup_printf ("%02d %s", info->number, _(info->title));
  return g_strdup (_(info->title));
}

const char *
tl_kernel_title (const TlKernelInfo *info, const char *kernel_id)
{
  return info != NULL ? _(info->title) : kernel_id;
}
