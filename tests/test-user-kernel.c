/* test-user-kernel.c — a student's kernel file, read, checked and compiled.
 *
 * Without a GPU: the expressions of the geometry, the declarations and
 * their errors (file:line:column), NVRTC's log read into diagnostics and
 * ptxas's report, the occupancy arithmetic, the registry's versions.  In a
 * CUDA build (NVRTC present, no GPU needed) every template compiles for
 * sm_90 and sm_80 with a resource report, and a broken kernel's errors
 * land on their lines and columns; in a build without CUDA those say why
 * they cannot compile.
 */
#include "gemm/tl-user-expr.h"
#include "gemm/tl-user-kernel-private.h"
#include "gemm/tl-user-occupancy.h"
#include "gemm/tl-user-templates.h"
#include "core/tl-error.h"
#include "tl-gpu.h"

#include <glib/gstdio.h>
#include <string.h>

/* ---- expressions ------------------------------------------------------ */

static gint64
eval (const char *text, gint64 m, gint64 n, gint64 k)
{
  TlUserVars v = { m, n, k, 4 };
  gint64 out = -12345;
  g_autofree char *why = NULL;
  g_assert_true (tl_user_expr_eval (text, &v, &out, NULL, &why));
  return out;
}

static void
expect_expr_error (const char *text, gsize at, const char *fragment)
{
  TlUserVars v = { 1000, 1111, 777, 4 };
  gint64 out = 0;
  gsize where = 99;
  g_autofree char *why = NULL;
  g_assert_false (tl_user_expr_eval (text, &v, &out, &where, &why));
  g_assert_cmpuint (where, ==, at);
  g_assert_nonnull (strstr (why, fragment));
}

static void
test_expressions (void)
{
  g_assert_cmpint (eval ("ceil_div(n, 16)", 1000, 1111, 777), ==, 70);
  g_assert_cmpint (eval ("ceil_div(m, 16)", 1000, 1111, 777), ==, 63);
  g_assert_cmpint (eval ("(n + 15) / 16", 1000, 1111, 777), ==, 70);
  g_assert_cmpint (eval ("2 + 3 * 4 - 10 % 4", 1, 1, 1), ==, 12);
  g_assert_cmpint (eval ("-(m - 2 * k)", 1000, 1, 777), ==, 554);
  g_assert_cmpint (eval ("min(m, n) + max(m, n)", 3, 9, 1), ==, 12);
  g_assert_cmpint (eval ("2 * 16 * 16 * elem", 1, 1, 1), ==, 2048);
  g_assert_cmpint (eval ("  k  ", 1, 1, 5), ==, 5);
  expect_expr_error ("ceil_div(n, 16", 14, "expected “)”");
  expect_expr_error ("n / (m - 1000)", 2, "division by zero");
  expect_expr_error ("rows + 1", 0, "unknown name “rows”");
  expect_expr_error ("n 16", 2, "unexpected “1”");
  expect_expr_error ("", 0, "ends too early");
  expect_expr_error ("99999999999999999999", 0, "too large");
  expect_expr_error ("ceil_div(n, 0)", 0, "needs b > 0");
  /* syntax only: a division by zero is fine, a syntax error is not */
  gint64 out = 0;
  g_assert_true (tl_user_expr_eval ("n / (m - 1)", NULL, &out, NULL, NULL));
  g_assert_false (tl_user_expr_eval ("n +", NULL, &out, NULL, NULL));
  /* nesting is bounded (no stack overflow on hostile text) */
  g_autofree char *deep = g_strnfill (10000, '(');
  g_assert_false (tl_user_expr_eval (deep, NULL, &out, NULL, NULL));
}

/* ---- declarations ----------------------------------------------------- */

static const char *const good_head = "// tilelab: float32 = k32\n"
                                     "// tilelab: block = 16, 16\n"
                                     "// tilelab: grid = ceil_div(n, 16), ceil_div(m, 16)\n";

static void
expect_parse_error (const char *text, const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TlUserKernel) k = tl_user_kernel_parse ("dir/mine.cu", text, &error);
  g_assert_null (k);
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
  if (!g_str_has_prefix (error->message, message))
    g_error ("expected “%s…”, got “%s”", message, error->message);
}

static void
test_declarations (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strconcat (good_head, "  //tilelab:  float64=  k64<double>\n",
                                       "// tilelab: tile = 16, 16\r\n// tilelab: title = mine\n",
                                       "// tilelab: shared = 2 * 16 * 16 * elem\n", NULL);
  g_autoptr (TlUserKernel) k = tl_user_kernel_parse ("dir/mine.cu", text, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tl_user_kernel_file_name (k), ==, "mine.cu");
  g_assert_cmpstr (tl_user_kernel_title (k), ==, "mine");
  g_assert_cmpuint (tl_user_kernel_dtypes (k), ==,
                    TL_DTYPE_BIT (TL_DTYPE_FLOAT32) | TL_DTYPE_BIT (TL_DTYPE_FLOAT64));
  const TlUserValue *e = tl_user_kernel_entry (k, TL_DTYPE_FLOAT64);
  g_assert_cmpstr (e->text, ==, "k64<double>");
  g_assert_cmpint (e->line, ==, 4);
  g_assert_cmpint (e->column, ==, 25);
  int rows = 0, cols = 0;
  tl_user_kernel_tile (k, &rows, &cols);
  g_assert_cmpint (rows, ==, 16);
  g_assert_cmpint (cols, ==, 16);
  g_assert_false (tl_user_kernel_has_marks (k));

  TlUserGeometry g;
  g_assert_true (tl_user_kernel_geometry (k, 1000, 777, 1111, TL_DTYPE_FLOAT64, &g, &error));
  g_assert_cmpuint (g.grid[0], ==, 70);
  g_assert_cmpuint (g.grid[1], ==, 63);
  g_assert_cmpuint (g.grid[2], ==, 1);
  g_assert_cmpuint (g.block[0] * g.block[1] * g.block[2], ==, 256);
  g_assert_cmpuint (g.dynamic_smem, ==, 4096);

  expect_parse_error ("// tilelab: block = 16\n", "dir/mine.cu:1:1: the file declares no kernel");
  expect_parse_error ("// tilelab: float32 = k\n// tilelab: grid = 1\n",
                      "dir/mine.cu:1:1: the file declares no block");
  expect_parse_error ("// tilelab: float32 = k\n// tilelab: blocks = 16\n",
                      "dir/mine.cu:2:13: unknown declaration “blocks”");
  expect_parse_error ("// tilelab: float32 k\n", "dir/mine.cu:1:21: expected “=” after “float32”");
  expect_parse_error ("// tilelab: float32 = k\n// tilelab: float32 = j\n",
                      "dir/mine.cu:2:13: “float32” is declared twice (first on line 1)");
  expect_parse_error ("// tilelab: float32 = k; x\n", "dir/mine.cu:1:24: “;” cannot be part");
  expect_parse_error ("// tilelab: float32 = k\n// tilelab: block = 16, 16 +\n",
                      "dir/mine.cu:2:29: the expression ends too early");
  expect_parse_error ("// tilelab: float32 = k\n// tilelab: grid = 1, 2, 3, 4\n",
                      "dir/mine.cu:2:29: “grid” takes at most 3 values");
  expect_parse_error ("// tilelab: float32 = k\n// tilelab: tile = 16\n",
                      "dir/mine.cu:2:20: “tile” takes two values");
  expect_parse_error ("// tilelab: float32 = k\n// tilelab: shared = nope\n",
                      "dir/mine.cu:2:22: unknown name “nope”");
  expect_parse_error ("// tilelab: float32 =\n", "dir/mine.cu:1:22: “float32” has no value");
  expect_parse_error ("x\n\xff\n", "dir/mine.cu:2:1: the file is not UTF-8 text");

  /* values that are wrong only at a size: an error naming the declaration */
  g_autofree char *zero = g_strconcat ("// tilelab: float32 = k\n// tilelab: block = 16\n",
                                       "// tilelab: grid = n / 2000\n", NULL);
  g_autoptr (TlUserKernel) kz = tl_user_kernel_parse ("z.cu", zero, &error);
  g_assert_no_error (error);
  g_assert_false (tl_user_kernel_geometry (kz, 100, 100, 100, TL_DTYPE_FLOAT32, &g, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_SHAPE);
  g_assert_true (g_str_has_prefix (error->message, "z.cu:3:20: grid x is 0"));
  g_clear_error (&error);
  g_assert_true (tl_user_kernel_geometry (kz, 100, 100, 4000, TL_DTYPE_FLOAT32, &g, &error));
  g_assert_cmpuint (g.tile_n, ==, 2000); /* no tile declared: C's columns over the grid's */
}

static void
test_templates_parse (void)
{
  g_autofree const char **ids = tl_user_template_ids ();
  g_assert_cmpuint (g_strv_length ((char **) ids), >=, 3);
  g_assert_nonnull (tl_user_template_text (TL_USER_TEMPLATE_DEFAULT));
  g_assert_nonnull (tl_user_template_text ("gemm-03-smem16"));
  g_assert_null (tl_user_template_text ("gemm-03"));
  for (guint i = 0; ids[i]; i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *name = g_strconcat (ids[i], ".cu", NULL);
      g_autoptr (TlUserKernel) k = tl_user_kernel_parse (name, tl_user_template_text (ids[i]),
                                                         &error);
      g_assert_no_error (error);
      g_assert_true (tl_user_kernel_has_marks (k));
      int rows = 0, cols = 0;
      tl_user_kernel_tile (k, &rows, &cols);
      g_assert_cmpint (rows, >, 0);
      TlUserGeometry g;
      g_assert_true (tl_user_kernel_geometry (k, 1000, 777, 1111, TL_DTYPE_FLOAT32, &g, &error));
      /* the blocks cover C (seed 002's walk its rows in x) */
      g_assert_cmpuint ((gsize) g.grid[0] * g.grid[1] * g.tile_m * g.tile_n, >=, 1000 * 1111);
    }
}

/* The templates that start from a rung carry the rung's own kernel body
 * (tools/embed-text.py copies it in at build time): the text between the
 * rung's markers is in the template, verbatim, and the template's tile is
 * the rung's.  A hand copy in gpu/user/ that drifted from its rung, or a
 * marker renamed on one side, fails here or stops the build. */
static void
test_templates_share_rungs (void)
{
  static const struct
  {
    const char *id, *source, *block;
  } shared[] = {
    { "gemm-02-coalesced", "gpu/gemm/gemm-02-coalesced.cu", "coalesced-body" },
    { "gemm-03-smem16", "gpu/gemm/tl-gemm-smem-tiles.cuh", "smem-tiles-body" },
    { "gemm-08-vectorized", "gpu/gemm/gemm-08-vectorized.cu", "gemm-08-block" },
  };
  const char *src = g_getenv ("TL_SOURCE_DIR");
  if (src == NULL)
    {
      g_test_skip ("TL_SOURCE_DIR is not set (run through meson test)");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (shared); i++)
    {
      g_autofree char *path = g_build_filename (src, shared[i].source, NULL);
      g_autofree char *text = NULL;
      g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
      g_autofree char *begin = g_strdup_printf ("// user-template: begin %s", shared[i].block);
      g_autofree char *end = g_strdup_printf ("// user-template: end %s\n", shared[i].block);
      const char *b = strstr (text, begin), *e = b ? strstr (b, end) : NULL;
      g_assert_nonnull (b);
      g_assert_nonnull (e);
      b = strchr (b, '\n') + 1;
      while (e > b && e[-1] == ' ')
        e--; /* the end marker's indentation */
      g_autofree char *body = g_strndup (b, e - b);
      g_assert_cmpuint (strlen (body), >, 200);

      const char *tmpl = tl_user_template_text (shared[i].id);
      g_assert_nonnull (tmpl);
      g_assert_nonnull (strstr (tmpl, body));
      g_assert_null (strstr (tmpl, "user-template:"));

      g_autoptr (GError) error = NULL;
      g_autoptr (TlUserKernel) k = tl_user_kernel_parse ("t.cu", tmpl, &error);
      g_assert_no_error (error);
      int rows = 0, cols = 0;
      tl_user_kernel_tile (k, &rows, &cols);
      const TlGpuKernelInfo *rung = tl_gpu_kernel_find (shared[i].id);
      g_assert_nonnull (rung);
      g_assert_cmpint (rows, ==, rung->tile_m);
      g_assert_cmpint (cols, ==, rung->tile_n);
    }
}

/* ---- NVRTC's log ------------------------------------------------------ */

static const char *const canned_log =
  "mine.cu(12): error: identifier \"j\" is undefined\n"
  "          s += a[i * k + p] * b[p * n + j];\n"
  "                                        ^\n"
  "\n"
  "mine.cu(14): warning #177-D: variable \"x\" was declared but never referenced\n"
  "    int x;\n"
  "        ^\n"
  "\n"
  "tilelab.cuh(50): error: something in the header\n"
  "\n"
  "__nv_name_map(3): error: identifier \"k32\" is undefined\n"
  "  #pragma nv_mangled_name k32\n"
  "                          ^\n"
  "\n"
  "3 errors detected in the compilation of \"mine.cu\".\n"
  "ptxas info    : 0 bytes gmem\n"
  "ptxas info    : Compiling entry function '_Z3k32iiiPKfS0_Pf' for 'sm_90'\n"
  "ptxas info    : Function properties for _Z3k32iiiPKfS0_Pf\n"
  "ptxas         .     8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n"
  "ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem, 400 bytes cmem[0], "
  "8 bytes cmem[2]\n"
  "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
  "ptxas info    : Used 7 registers\n";

static void
test_log (void)
{
  g_autoptr (TlUserKernel) k = tl_user_kernel_parse ("mine.cu", good_head, NULL);
  g_assert_nonnull (k);
  TlUserResources r;
  g_assert_true (tl_user_log_resources (canned_log, "_Z3k32iiiPKfS0_Pf", &r));
  g_assert_cmpint (r.registers, ==, 40);
  g_assert_cmpint (r.barriers, ==, 1);
  g_assert_cmpint (r.smem_bytes, ==, 2048);
  g_assert_cmpint (r.cmem_bytes, ==, 408);
  g_assert_cmpint (r.stack_bytes, ==, 8);
  g_assert_cmpint (r.spill_stores, ==, 4);
  g_assert_cmpint (r.spill_loads, ==, 12);
  g_assert_true (tl_user_log_resources (canned_log, "other", &r));
  g_assert_cmpint (r.registers, ==, 7);
  g_assert_false (tl_user_log_resources (canned_log, "missing", &r));

  g_autoptr (GPtrArray) d = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_user_diagnostic_free);
  tl_user_log_diagnostics (canned_log, k, d);
  /* the name look-up's error repeats the file's: left out */
  g_assert_cmpuint (d->len, ==, 3);
  const TlUserDiagnostic *e = d->pdata[0];
  g_assert_cmpstr (e->severity, ==, "error");
  g_assert_null (e->file);
  g_assert_cmpint (e->line, ==, 12);
  g_assert_cmpint (e->column, ==, 39);
  g_assert_cmpstr (e->message, ==, "identifier \"j\" is undefined");
  g_assert_nonnull (strstr (e->context, "b[p * n + j]"));
  const TlUserDiagnostic *w = d->pdata[1];
  g_assert_cmpstr (w->severity, ==, "warning");
  g_assert_cmpint (w->line, ==, 14);
  g_assert_cmpint (w->column, ==, 7);
  const TlUserDiagnostic *h = d->pdata[2];
  g_assert_cmpstr (h->file, ==, "tilelab.cuh");
  g_assert_cmpint (h->column, ==, 0);
}

/* ---- occupancy --------------------------------------------------------- */

static void
test_occupancy (void)
{
  TlUserArchLimits h100, none;
  g_assert_false (tl_user_arch_limits (20, &none));
  g_assert_true (tl_user_arch_limits (90, &h100));
  TlUserGeometry g = { { 256, 256, 1 }, { 16, 16, 1 }, 0, 16, 16 };
  TlUserResources r = { TRUE, 32, 1, 2048, 0, 0, 0, 0 };
  TlUserOccupancy o;
  tl_user_occupancy (&h100, &r, &g, &o);
  g_assert_cmpint (o.blocks_per_sm, ==, 8); /* 2048 threads / 256 */
  g_assert_cmpstr (o.limiter, ==, "threads");
  g_assert_cmpfloat_with_epsilon (o.occupancy, 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (o.waves, 65536.0 / (8 * 132), 1e-9);
  /* rung 8's shape: 128 registers × 256 threads → 2 blocks */
  TlUserGeometry g8 = { { 32, 32, 1 }, { 256, 1, 1 }, 0, 128, 128 };
  TlUserResources r8 = { TRUE, 128, 1, 16640, 0, 0, 0, 0 };
  tl_user_occupancy (&h100, &r8, &g8, &o);
  g_assert_cmpint (o.blocks_per_sm, ==, 2);
  g_assert_cmpstr (o.limiter, ==, "registers");
  /* 200 KB of shared memory: one block; 300 KB: none */
  TlUserGeometry gs = g;
  gs.dynamic_smem = 200 * 1024;
  tl_user_occupancy (&h100, &r, &gs, &o);
  g_assert_cmpint (o.blocks_per_sm, ==, 1);
  g_assert_cmpstr (o.limiter, ==, "shared memory");
  gs.dynamic_smem = 300 * 1024;
  tl_user_occupancy (&h100, &r, &gs, &o);
  g_assert_cmpint (o.blocks_per_sm, ==, 0);
}

/* ---- the registry ------------------------------------------------------ */

static void
test_registry (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tl-user-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "regmine.cu", NULL);
  g_autofree char *v1 = g_strconcat (good_head, "// one\n", NULL);
  g_autofree char *v2 = g_strconcat (good_head, "// two\n", NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (g_file_set_contents (path, v1, -1, NULL));
  g_assert_true (tl_user_kernel_is_path (path));
  g_assert_false (tl_user_kernel_is_path (".cu"));
  g_assert_false (tl_user_kernel_is_path ("gemm-03-smem16"));
  const TlKernelInfo *a = tl_user_kernel_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (a->id, ==, "regmine.cu");
  g_assert_true (a->backend == TL_BACKEND_GPU);
  g_assert_true (tl_kernel_find ("regmine.cu") == a);
  g_assert_nonnull (tl_user_kernel_of (a));
  g_assert_null (tl_user_kernel_of (tl_kernel_find ("gemm-03-smem16")));
  /* the same text: the same row; a changed file: a new version */
  g_assert_true (tl_user_kernel_open (path, &error) == a);
  g_assert_true (g_file_set_contents (path, v2, -1, NULL));
  const TlKernelInfo *b = tl_user_kernel_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (b->id, ==, "regmine.cu@2");
  g_assert_true (tl_kernel_find ("regmine.cu@2") == b);
  g_autoptr (GPtrArray) list = tl_user_kernel_list ();
  g_assert_cmpuint (list->len, >=, 2);
  /* a record's id: kept when free, refused when another text has it */
  g_autoptr (TlUserKernel) other = tl_user_kernel_parse ("x/regmine.cu", v1, NULL);
  g_assert_true (tl_user_kernel_register_as (other, "regmine.cu") == a);
  g_autoptr (TlUserKernel) third = tl_user_kernel_parse ("x/regmine.cu", good_head, NULL);
  g_assert_null (tl_user_kernel_register_as (third, "regmine.cu"));
  g_assert_nonnull (tl_user_kernel_register_as (third, "from-a-record.cu"));
  g_assert_null (tl_user_kernel_open ("/nonexistent/x.cu", &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_unlink (path);
  g_rmdir (dir);
}

/* ---- NVRTC (a CUDA build; no GPU needed) -------------------------------- */

static gboolean
have_nvrtc (void)
{
  TlGpuUserSource s = { "x.cu", "__global__ void f (int *p) { *p = 1; }", NULL, { 0 }, 90, 0 };
  TlGpuUserBuild b;
  TlGpuStatus st = tl_gpu_user_compile (&s, &b);
  tl_gpu_user_build_clear (&b);
  if (st != TL_GPU_OK)
    g_test_message ("no NVRTC: %s", tl_gpu_last_message ());
  return st == TL_GPU_OK;
}

static void
test_compile_templates (void)
{
  if (!have_nvrtc ())
    {
      g_autoptr (TlUserKernel) k = tl_user_kernel_parse ("t.cu", tl_user_template_text (
                                                           TL_USER_TEMPLATE_DEFAULT), NULL);
      g_autoptr (GError) error = NULL;
      g_assert_null (tl_user_kernel_compile (k, 90, &error));
      g_assert_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED);
      g_test_skip ("no NVRTC in this build");
      return;
    }
  g_autofree const char **ids = tl_user_template_ids ();
  for (guint i = 0; ids[i]; i++)
    for (int arch = 80; arch <= 90; arch += 10)
      {
        g_autoptr (GError) error = NULL;
        g_autofree char *name = g_strconcat (ids[i], ".cu", NULL);
        g_autoptr (TlUserKernel) k = tl_user_kernel_parse (name, tl_user_template_text (ids[i]),
                                                           NULL);
        g_autoptr (TlUserBuild) b = tl_user_kernel_compile (k, arch, &error);
        g_assert_no_error (error);
        g_autofree char *why = tl_user_build_describe_errors (b, k, TRUE);
        if (!b->compiled)
          g_error ("%s did not compile for sm_%d:\n%s", name, arch, why);
        g_assert_nonnull (b->image);
        g_assert_nonnull (b->timed_image);
        g_assert_true (tl_user_kernel_compile (k, arch, NULL) == b); /* kept per architecture */
        g_test_message ("%s sm_%d: %.0f ms", name, arch, b->compile_ms);
        for (int d = 0; d < TL_DTYPE_COUNT; d++)
          if (tl_user_kernel_entry (k, d))
            {
              g_assert_true (b->resources[d].found);
              g_assert_cmpint (b->resources[d].registers, >, 0);
              g_assert_cmpint (b->resources[d].registers, <=, 255);
              g_assert_nonnull (b->lowered[d]);
            }
        g_clear_pointer (&b, tl_user_build_unref);
      }
}

static const char *const broken_kernel =
  "// tilelab: float32 = gemm_broken\n"
  "// tilelab: float64 = gemm_wrong\n"
  "// tilelab: int32 = gemm_missing\n"
  "// tilelab: block = 16, 16\n"
  "// tilelab: grid = ceil_div(n, 16), ceil_div(m, 16)\n"
  "#include \"tilelab.cuh\"\n"
  "__global__ void gemm_broken (int m, int n, int k, const float *a, const float *b, float *c)\n"
  "{\n"
  "  float s = 0;\n"
  "  for (int p = 0; p < k; p++)\n"
  "    s += a[p] * b[p * n + j];\n"
  "  c[0] = s;\n"
  "}\n"
  "__global__ void gemm_wrong (int m, int n, int k, double *a, double *b, double *c) {}\n";

static void
test_compile_broken (void)
{
  if (!have_nvrtc ())
    {
      g_test_skip ("no NVRTC in this build");
      return;
    }
  g_autoptr (GError) error = NULL;
  g_autoptr (TlUserKernel) k = tl_user_kernel_parse ("broken.cu", broken_kernel, &error);
  g_assert_no_error (error);
  g_autoptr (TlUserBuild) b = tl_user_kernel_compile (k, 90, &error);
  g_assert_no_error (error);
  g_assert_false (b->compiled);
  g_assert_null (b->image);
  g_autofree char *text = tl_user_build_describe_errors (b, k, FALSE);
  g_test_message ("%s", text);
  /* the undefined j at its column, the wrong and the missing entry at
   * their declarations */
  g_assert_nonnull (strstr (text, "broken.cu:11:27: error: identifier \"j\" is undefined"));
  g_assert_nonnull (strstr (text, "broken.cu:2:23: error: "));
  g_assert_nonnull (strstr (text, "the float64 entry must be a kernel __global__ void gemm_wrong"));
  g_assert_nonnull (strstr (text, "broken.cu:3:21: error: identifier \"gemm_missing\" is undefined"));
  g_assert_null (strstr (text, "__nv_name_map"));
  /* an architecture NVRTC does not know is an error, not a crash */
  g_assert_null (tl_user_kernel_compile (k, 20, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_INVALID);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/user-kernel/expressions", test_expressions);
  g_test_add_func ("/user-kernel/declarations", test_declarations);
  g_test_add_func ("/user-kernel/templates-parse", test_templates_parse);
  g_test_add_func ("/user-kernel/templates-share-rungs", test_templates_share_rungs);
  g_test_add_func ("/user-kernel/log", test_log);
  g_test_add_func ("/user-kernel/occupancy", test_occupancy);
  g_test_add_func ("/user-kernel/registry", test_registry);
  g_test_add_func ("/user-kernel/compile-templates", test_compile_templates);
  g_test_add_func ("/user-kernel/compile-broken", test_compile_broken);
  return g_test_run ();
}
