/* tl-user-run.c — a user kernel compiled, launched in its worker, recorded. */
#include "run/tl-user-run.h"
#include "run/tl-user-worker.h"
#include "core/tl-error.h"
#include "core/tl-json.h"

#include <glib/gi18n-lib.h>
#include <string.h>

static gboolean
in_process (void)
{
  return g_strcmp0 (g_getenv ("TILELAB_USER_KERNELS"), "in-process") == 0;
}

/* The file's entry for the job's dtype and its geometry at the job's size. */
static gboolean
entry_and_geometry (TlUserKernel *kernel, const TlGpuGemmArgs *args, TlUserGeometry *geometry,
                    GError **error)
{
  TlDtype dtype = (TlDtype) args->dtype;
  if (tl_user_kernel_entry (kernel, dtype) == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED, _("%s has no %s entry"),
                   tl_user_kernel_file_name (kernel), tl_dtype_name (dtype));
      return FALSE;
    }
  return tl_user_kernel_geometry (kernel, (gsize) args->m, (gsize) args->k, (gsize) args->n, dtype,
                                  geometry, error);
}

/* The harness's result copied into g_malloc'd memory, so that one clear
 * (tl_user_worker_result_clear) serves every way a kernel runs. */
static void
keep_result (TlGpuGemmResult *r, TlGpuGemmResult *out)
{
  *out = *r;
  out->times_ms = g_memdup2 (r->times_ms, sizeof (double) * MAX (r->n_times, 0));
  out->blocks = r->blocks ? g_memdup2 (r->blocks, sizeof (TlGpuBlockRecord) * r->n_blocks) : NULL;
  tl_gpu_gemm_result_clear (r);
}

/* A fault, said for the student: where to look, and what it did to the
 * process (its own, which ends; or this one, whose GPU is then lost). */
static gboolean
say_fault (GError **error, const char *name, gboolean isolated)
{
  if (isolated)
    g_set_error (error, TL_ERROR, TL_ERROR_DEVICE_LOST,
                 _("%s made the GPU fault (%s). It ran in a process of its own, which ended; the "
                   "rest of Tilelab and the next run are not affected. Look for an index outside "
                   "A, B or C, or a read of memory the kernel never allocated."),
                 name, tl_gpu_last_message ());
  else
    g_set_error (error, TL_ERROR, TL_ERROR_DEVICE_LOST,
                 _("%s made the GPU fault (%s); restart Tilelab to use the GPU again. Look for an "
                   "index outside A, B or C, or a read of memory the kernel never allocated."),
                 name, tl_gpu_last_message ());
  return FALSE;
}

/* The device's architecture (× 10), or 0 with the error. */
static int
device_arch (TlGpuSession *gpu, int ordinal, GError **error)
{
  if (tl_gpu_session_get_device (gpu, ordinal, error) == NULL)
    return 0;
  TlGpuFacts facts;
  if (!tl_gpu_session_get_facts (gpu, ordinal, &facts))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_NO_DEVICE, _("No usable CUDA GPU %d"), ordinal);
      return 0;
    }
  return facts.cc_major * 10 + facts.cc_minor;
}

/* kernel compiled for arch (once: the build is kept in the kernel), or
 * NULL with its errors at file:line:column (TL_ERROR_PARSE). */
static TlUserBuild *
compiled_for (TlUserKernel *kernel, int arch, GError **error)
{
  TlUserBuild *build = tl_user_kernel_compile (kernel, arch, error);
  if (build == NULL || build->compiled)
    return build;
  g_autofree char *errors = tl_user_build_describe_errors (build, kernel, FALSE);
  g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("%s did not compile for sm_%d:\n%s"),
               tl_user_kernel_path (kernel), arch, errors);
  tl_user_build_unref (build);
  return NULL;
}

gboolean
tl_user_run_here (TlUserKernel *kernel, TlUserBuild *build, TlGpuSession *gpu, int ordinal,
                  const TlGpuGemmArgs *args, gboolean isolated, TlUserGeometry *geometry,
                  TlGpuGemmResult *out, GError **error)
{
  memset (out, 0, sizeof *out);
  int arch = device_arch (gpu, ordinal, error);
  if (arch == 0 || !entry_and_geometry (kernel, args, geometry, error))
    return FALSE;
  g_autoptr (TlUserBuild) own = build ? tl_user_build_ref (build) : compiled_for (kernel, arch, error);
  if (own == NULL)
    return FALSE;
  TlDtype dtype = (TlDtype) args->dtype;
  if (own->arch != arch || !own->compiled || own->lowered[dtype] == NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("%s was compiled for sm_%d, and GPU %d is sm_%d"),
                   tl_user_kernel_file_name (kernel), own->arch, ordinal, arch);
      return FALSE;
    }
  TlGpuUserLaunch launch = {
    .name = tl_user_kernel_file_name (kernel),
    .image = g_bytes_get_data (own->image, &launch.image_size),
    .entry = own->lowered[dtype],
    .dynamic_smem = geometry->dynamic_smem,
  };
  if (own->timed_image && tl_user_kernel_has_marks (kernel))
    launch.timed_image = g_bytes_get_data (own->timed_image, &launch.timed_image_size);
  memcpy (launch.grid, geometry->grid, sizeof launch.grid);
  memcpy (launch.block, geometry->block, sizeof launch.block);
  TlGpuGemmArgs a = *args;
  a.instrument = a.instrument && launch.timed_image != NULL;
  TlGpuGemmResult r;
  TlGpuStatus st = tl_gpu_user_gemm_run (tl_gpu_session_get_device (gpu, ordinal, NULL), &launch,
                                         &a, &r);
  if (st == TL_GPU_DEVICE_LOST)
    return say_fault (error, launch.name, isolated);
  if (st != TL_GPU_OK)
    return tl_gpu_error_set (error, st, launch.name);
  keep_result (&r, out);
  return TRUE;
}

gboolean
tl_user_run_gemm (TlUserKernel *kernel, TlGpuSession *gpu, int ordinal, const TlGpuGemmArgs *args,
                  double watchdog_s, TlUserGeometry *geometry, TlGpuGemmResult *out,
                  GError **error)
{
  memset (out, 0, sizeof *out);
  /* said here first, they cost no process */
  int arch = device_arch (gpu, ordinal, error);
  if (arch == 0 || !entry_and_geometry (kernel, args, geometry, error))
    return FALSE;
  /* compiled here, once per version: the Source page's compile, the
   * record's resource report and the worker's run share this build */
  g_autoptr (TlUserBuild) build = compiled_for (kernel, arch, error);
  if (build == NULL)
    return FALSE;
  g_debug ("user kernels: %s compiled for sm_%d in %.0f ms", tl_user_kernel_file_name (kernel),
           arch, build->compile_ms);
  if (in_process ())
    return tl_user_run_here (kernel, build, gpu, ordinal, args, FALSE, geometry, out, error);
  return tl_user_worker_run (kernel, build, ordinal, args, watchdog_s, out, error);
}

/* ---- the record ------------------------------------------------------- */

static JsonObject *
resources_json (const TlUserResources *r)
{
  JsonObject *o = json_object_new ();
  const struct { const char *name; int value; } fields[] = {
    { "registers", r->registers }, { "barriers", r->barriers }, { "smem_bytes", r->smem_bytes },
    { "cmem_bytes", r->cmem_bytes }, { "stack_bytes", r->stack_bytes },
    { "spill_stores", r->spill_stores }, { "spill_loads", r->spill_loads },
  };
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    json_object_set_int_member (o, fields[i].name, fields[i].value);
  return o;
}

static JsonObject *
kernel_json (TlUserKernel *kernel, int arch)
{
  JsonObject *o = json_object_new ();
  json_object_set_string_member (o, "path", tl_user_kernel_path (kernel));
  json_object_set_string_member (o, "title", tl_user_kernel_title (kernel));
  json_object_set_string_member (o, "source", tl_user_kernel_source (kernel));
  g_autoptr (TlUserBuild) build = arch > 0 ? tl_user_kernel_compile (kernel, arch, NULL) : NULL;
  if (build == NULL || !build->compiled)
    return o;
  g_autofree char *arch_name = g_strdup_printf ("sm_%d", arch);
  g_autofree char *nvrtc = g_strdup_printf ("%d.%d", build->nvrtc_major, build->nvrtc_minor);
  json_object_set_string_member (o, "arch", arch_name);
  json_object_set_string_member (o, "nvrtc", nvrtc);
  json_object_set_double_member (o, "compile_ms", build->compile_ms);
  JsonObject *res = json_object_new ();
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    if (build->resources[d].found)
      json_object_set_object_member (res, tl_dtype_name (d), resources_json (&build->resources[d]));
  json_object_set_object_member (o, "resources", res);
  g_autofree char *warnings = tl_user_build_describe_errors (build, kernel, TRUE);
  if (*warnings)
    json_object_set_string_member (o, "diagnostics", warnings);
  return o;
}

void
tl_user_run_describe (TlRunRecord *record, int arch)
{
  JsonObject *kernels = NULL;
  for (guint i = 0; i < record->runs->len; i++)
    {
      const TlKernelRun *run = record->runs->pdata[i];
      TlUserKernel *kernel = tl_user_kernel_of (run->info);
      if (kernel == NULL)
        continue;
      if (kernels == NULL)
        kernels = json_object_new ();
      json_object_set_object_member (kernels, run->kernel_id, kernel_json (kernel, arch));
    }
  if (kernels == NULL)
    return;
  if (record->extensions == NULL)
    record->extensions = json_object_new ();
  json_object_set_object_member (record->extensions, "user_kernels", kernels);
}

JsonObject *
tl_user_run_kernels_json (const char *const *ids)
{
  JsonObject *kernels = NULL;
  for (guint i = 0; ids && ids[i]; i++)
    {
      TlUserKernel *kernel = tl_user_kernel_of (tl_kernel_find (ids[i]));
      if (kernel == NULL)
        continue;
      if (kernels == NULL)
        kernels = json_object_new ();
      json_object_set_object_member (kernels, ids[i], kernel_json (kernel, 0));
    }
  return kernels;
}

guint
tl_user_run_register_from_record (const TlRunRecord *record)
{
  JsonNode *node = record->extensions
                     ? json_object_get_member (record->extensions, "user_kernels")
                     : NULL;
  return node && JSON_NODE_HOLDS_OBJECT (node) ? tl_user_run_register_json (json_node_get_object (node))
                                               : 0;
}

guint
tl_user_run_register_json (JsonObject *kernels)
{
  g_autoptr (GList) ids = json_object_get_members (kernels);
  guint count = 0;
  for (GList *l = ids; l; l = l->next)
    {
      JsonNode *kn = json_object_get_member (kernels, l->data);
      if (!JSON_NODE_HOLDS_OBJECT (kn))
        continue;
      JsonObject *o = json_node_get_object (kn);
      const char *path = tl_json_object_get_string (o, "path", l->data);
      const char *source = tl_json_object_get_string (o, "source", NULL);
      g_autoptr (TlUserKernel) kernel = source ? tl_user_kernel_parse (path, source, NULL) : NULL;
      if (kernel != NULL && tl_user_kernel_register_as (kernel, l->data) != NULL)
        count++;
    }
  return count;
}
