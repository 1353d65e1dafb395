/* test-gpu-user-kernel.c — a student's kernel on the GPU, every way it can go.
 *
 * Each case is a GEMM job as the CLI and the window make it (tl_gemm_run
 * with the kernel file's path in the list): the kernel is compiled here by
 * NVRTC for this GPU, once, and that build goes with its text to its
 * worker process (tilelab-cli serve --stdio, a "user-gemm" job), which
 * runs it:
 *   good       the templates (rungs 2, 3, 8 in the user form) at odd shapes,
 *              every dtype they take, checked against float64, with block
 *              records (one per block, a real SM);
 *   compile    a syntax error: the run fails at file:line:column;
 *   shared     more shared memory than a block can have: said in numbers;
 *   registers  1024 threads of a kernel that needs more registers than
 *              that leaves: said in numbers;
 *   illegal    a store to an address nobody allocated: the worker ends,
 *              the run says so, this process's GPU is fine;
 *   wrong      C off by one: the check fails with the first mismatches;
 *   outside    a store past C's end: "wrote outside C";
 *   hang       a kernel that never ends: the watchdog stops it;
 * and after all of them a good kernel and a ladder rung pass in one job;
 * and `tilelab-cli --remote-cli CLI gemm --kernel mine.cu,gemm-03-smem16`
 * (the remote path through the local pipe: the file uploaded, compiled
 * and run by the tilelab-cli there in a worker of its own) passes both.
 * Exits 77 without a GPU.
 */
#include "tl-gpu-test-util.h"
#include "gemm/tl-user-templates.h"
#include "run/tl-gemm-run.h"
#include "record/tl-record-file.h"
#include "remote/tl-remote-target.h"
#include "remote/tl-remote-user.h"
#include "run/tl-user-worker.h"
#include "core/tl-error.h"

#include <string.h>

static char *dir;
static guint64 seed;

static char *
write_kernel (const char *name, const char *text)
{
  char *path = g_build_filename (dir, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* One job: kernels (paths and ids) at m×k×n; the record. */
static TlRunRecord *
run_job (const char *const *kernels, TlDtype dtype, gsize m, gsize k, gsize n, double watchdog)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (m, k, n, dtype);
  g_strfreev (job->kernels);
  job->kernels = g_strdupv ((char **) kernels);
  job->repeats = 3;
  job->warmups = 2;
  job->instrument = TRUE;
  job->watchdog_s = watchdog;
  job->a.seed = seed++;
  job->b.seed = seed++;
  g_autoptr (GError) error = NULL;
  TlRunRecord *record = tl_gemm_run (job, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return record;
}

static const TlKernelRun *
only_run (const TlRunRecord *record)
{
  g_assert_cmpuint (record->runs->len, ==, 1);
  return record->runs->pdata[0];
}

static void
expect_error (const char *name, const char *text, const char *fragment, double watchdog)
{
  g_autofree char *path = write_kernel (name, text);
  const char *kernels[] = { path, NULL };
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr (TlRunRecord) record = run_job (kernels, TL_DTYPE_FLOAT32, 300, 200, 100, watchdog);
  const TlKernelRun *run = only_run (record);
  g_test_message ("%s (%.1f s): %s", name, (g_get_monotonic_time () - t0) / 1e6,
                  run->message ? run->message : "(ok)");
  g_assert_cmpint (run->status, ==, TL_RUN_ERROR);
  if (strstr (run->message, fragment) == NULL)
    g_error ("%s: expected “%s” in “%s”", name, fragment, run->message);
}

static void
test_good (void)
{
  const char *templates[] = { "gemm-02-coalesced", "gemm-03-smem16", "gemm-08-vectorized",
                              "seed-002-straightforward" };
  const gsize shapes[][3] = { { 1000, 777, 1111 }, { 17, 33, 9 }, { 256, 264, 520 } };
  for (guint t = 0; t < G_N_ELEMENTS (templates); t++)
    {
      g_autofree char *name = g_strconcat ("good-", templates[t], ".cu", NULL);
      g_autofree char *path = write_kernel (name, tl_user_template_text (templates[t]));
      const char *kernels[] = { path, NULL };
      for (int d = 0; d < TL_DTYPE_COUNT; d++)
        for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
          {
            if (d != TL_DTYPE_FLOAT32 && t == 2)
              continue; /* rung 8 is float32 only */
            g_autoptr (TlRunRecord) r = run_job (kernels, (TlDtype) d, shapes[s][0], shapes[s][1],
                                                 shapes[s][2], 0);
            const TlKernelRun *run = only_run (r);
            if (run->status != TL_RUN_OK || !run->passed)
              g_error ("%s %s %zu×%zu×%zu: %s (%" G_GUINT64_FORMAT " wrong)", name,
                       tl_dtype_name (d), shapes[s][0], shapes[s][1], shapes[s][2],
                       run->message ? run->message : "failed its check", run->n_wrong);
            g_assert_true (run->launch.valid);
            g_assert_cmpint (run->launch.regs_per_thread, >, 0);
            gsize blocks = (gsize) run->launch.grid_x * run->launch.grid_y * run->launch.grid_z;
            g_assert_cmpuint (run->n_blocks, ==, blocks);
            for (gsize b = 0; b < run->n_blocks; b++)
              {
                g_assert_cmpuint (run->blocks[b].unit, <, (guint) r->device.sm_count);
                g_assert_cmpuint (run->blocks[b].start_ns, <=, run->blocks[b].end_ns);
              }
            g_assert_cmpuint (run->block_tile_m, >, 0);
            /* the record carries the file */
            JsonObject *uk = json_object_get_object_member (r->extensions, "user_kernels");
            g_assert_true (json_object_has_member (uk, run->kernel_id));
          }
    }
}

static const char *const head = "// tilelab: float32 = gemm\n"
                                "// tilelab: block = 16, 16\n"
                                "// tilelab: grid = ceil_div(n, 16), ceil_div(m, 16)\n";

/* the straightforward kernel's body with a twist in STORE */
static char *
kernel_with (const char *decl, const char *store)
{
  return g_strdup_printf (
    "%s%s"
    "__global__ void gemm (int m, int n, int k, const float *a, const float *b, float *c)\n"
    "{\n"
    "  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "  if (i >= m || j >= n) return;\n"
    "  float s = 0;\n"
    "  for (int p = 0; p < k; p++) s += a[i * k + p] * b[p * n + j];\n"
    "  %s\n"
    "}\n",
    head, decl, store);
}

static void
test_failures (void)
{
  g_autofree char *broken = kernel_with ("", "c[i * n + j] = s + q;");
  expect_error ("compile.cu", broken, "compile.cu:10:", 0);
  g_autofree char *smem = kernel_with ("// tilelab: shared = 300 * 1024\n",
                                       "extern __shared__ float t[]; t[0] = s; c[i * n + j] = t[0];");
  expect_error ("shared.cu", smem, "shared memory", 0);
  g_autofree char *regs = g_strdup_printf (
    "// tilelab: float32 = gemm\n// tilelab: block = 1024\n// tilelab: grid = ceil_div(m * n, 1024)\n"
    "__global__ void gemm (int m, int n, int k, const float *a, const float *b, float *c)\n"
    "{\n"
    "  int t = blockIdx.x * 1024 + threadIdx.x;\n"
    "  if (t >= m * n) return;\n"
    "  int i = t / n, j = t %% n;\n"
    "  float acc[96];\n"
    "#pragma unroll\n"
    "  for (int q = 0; q < 96; q++) acc[q] = a[(i * k + q) %% (m * k)];\n"
    "  float s = 0;\n"
    "  for (int p = 0; p < k; p++)\n"
    "#pragma unroll\n"
    "    for (int q = 0; q < 96; q++) acc[q] = acc[q] * b[(p * n + j + q) %% (k * n)] + acc[(q + 1) %% 96];\n"
    "#pragma unroll\n"
    "  for (int q = 0; q < 96; q++) s += acc[q];\n"
    "  c[i * n + j] = s;\n"
    "}\n");
  expect_error ("registers.cu", regs, "registers", 0);
  g_autofree char *illegal = kernel_with ("", "((float *) 0x10)[i * n + j] = s;");
  expect_error ("illegal.cu", illegal, "made the GPU fault", 0);
  g_autofree char *outside = kernel_with ("", "c[i * n + j + n] = s;");
  expect_error ("outside.cu", outside, "wrote outside C", 0);
  g_autofree char *hang = kernel_with ("", "while (clock64 () >= 0) { } c[i * n + j] = s;");
  expect_error ("hang.cu", hang, "watchdog", 3);

  /* a wrong result is a run that fails its check */
  g_autofree char *wrong = kernel_with ("", "c[i * n + j] = s + (i == 7 && j == 3);");
  g_autofree char *path = write_kernel ("wrong.cu", wrong);
  const char *kernels[] = { path, NULL };
  g_autoptr (TlRunRecord) r = run_job (kernels, TL_DTYPE_FLOAT32, 300, 200, 100, 0);
  const TlKernelRun *run = only_run (r);
  g_assert_cmpint (run->status, ==, TL_RUN_OK);
  g_assert_false (run->passed);
  g_assert_cmpuint (run->n_wrong, ==, 1);
  g_assert_cmpuint (run->mismatches[0].row, ==, 7);
  g_assert_cmpuint (run->mismatches[0].col, ==, 3);
}

/* After everything: a user kernel and the ladder's rung in one job. */
static void
test_next_run (void)
{
  g_autofree char *good = write_kernel ("after.cu", tl_user_template_text ("gemm-03-smem16"));
  const char *kernels[] = { good, "gemm-03-smem16", NULL };
  g_autoptr (TlRunRecord) r = run_job (kernels, TL_DTYPE_FLOAT32, 1000, 777, 1111, 0);
  g_assert_cmpuint (r->runs->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const TlKernelRun *run = r->runs->pdata[i];
      g_assert_cmpint (run->status, ==, TL_RUN_OK);
      g_assert_true (run->passed);
    }
  g_assert_false (tl_gpu_is_lost ());
}

/* The CLI's remote path on this GPU: the worker's tilelab-cli runs the
 * kernel in a worker of its own, the record comes back. */
static void
test_cli_remote (void)
{
  g_autofree char *cli = tl_remote_local_cli_path ();
  g_autofree char *path = write_kernel ("remote.cu", tl_user_template_text ("gemm-03-smem16"));
  g_autofree char *list = g_strconcat (path, ",gemm-03-smem16", NULL);
  g_autofree char *record = g_build_filename (dir, "remote.json", NULL);
  const char *argv[] = { cli, "--remote-cli", cli, "gemm", "--kernel", list, "--size",
                         "513x257x769", "--record", record, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, &error));
  g_test_message ("%s%s", out, err);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_autoptr (TlRunRecord) r = tl_run_record_load (record, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (r->runs->len, ==, 2);
  for (guint i = 0; i < r->runs->len; i++)
    {
      const TlKernelRun *run = r->runs->pdata[i];
      g_assert_cmpint (run->status, ==, TL_RUN_OK);
      g_assert_true (run->passed);
    }
  g_assert_nonnull (r->extensions);
  g_assert_nonnull (json_object_get_member (r->extensions, "user_kernels"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  tl_gpu_test_require_device ();
  tl_remote_user_install ();
  seed = tl_gpu_test_seed ();
  dir = g_dir_make_tmp ("tl-gpu-user-XXXXXX", NULL);
  g_test_add_func ("/gpu/user-kernel/good", test_good);
  g_test_add_func ("/gpu/user-kernel/failures", test_failures);
  g_test_add_func ("/gpu/user-kernel/next-run", test_next_run);
  g_test_add_func ("/gpu/user-kernel/cli-remote", test_cli_remote);
  int rc = g_test_run ();
  tl_user_worker_stop ();
  return rc;
}
