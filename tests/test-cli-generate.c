/* test-cli-generate.c — `tilelab-cli generate` and `tilelab-cli kernels` as
 * a user runs them: what they write and print, and their exit codes. */
#include "gen/tl-generate.h"
#include "io/tl-io.h"
#include "gemm/tl-kernels.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "cli-test-util.h"
#include "io-test-util.h"

static int
run_cli (const char *const *args, char **out, char **err)
{
  return cli_test_spawn (args, NULL, out, err);
}

static void
test_generate_list (void)
{
  g_autofree char *out = NULL;
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "--list", NULL }, &out, NULL), ==, 0);
  for (guint i = 0; i < tl_generator_count (); i++)
    {
      const TlGeneratorInfo *g = tl_generator_get (i);
      g_assert_nonnull (strstr (out, g->name));
      if (*g->params)
        g_assert_nonnull (strstr (out, g->params));
    }
}

/* What the CLI writes is what tl_generate makes, bit for bit. */
static void
test_generate_writes (void)
{
  static const struct { const char *spec, *size, *dtype, *seed, *file; gsize r, c; TlDtype d; }
  cases[] = {
    { "random-int:lo=0,hi=4", "7x5", "int32", "9", "a.txt", 7, 5, TL_DTYPE_INT32 },
    { "random-normal:mean=1,sd=2", "13x4", "float64", "18446744073709551615", "b.npy", 13, 4,
      TL_DTYPE_FLOAT64 },
    { "condition:kappa=1e4", "20", "float32", "3", "c.npy", 20, 20, TL_DTYPE_FLOAT32 },
    { "ones", "1000x500", "float32", "1", "d.mtx", 1000, 500, TL_DTYPE_FLOAT32 },
  };
  g_autofree char *dir = g_dir_make_tmp ("tilelab-gen-XXXXXX", NULL);
  g_assert_nonnull (dir);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (dir, cases[i].file, NULL);
      g_autofree char *out = NULL, *err = NULL;
      int rc = run_cli ((const char *[]) { "generate", cases[i].spec, "--size", cases[i].size,
                                           "--dtype", cases[i].dtype, "--seed", cases[i].seed,
                                           "-o", path, NULL }, &out, &err);
      if (rc != 0)
        g_error ("generate %s: exit %d: %s", cases[i].spec, rc, err);
      g_assert_nonnull (strstr (out, cases[i].dtype));

      g_autoptr (GError) error = NULL;
      g_autoptr (TlMatrix) loaded = tl_matrix_load (path, TL_FORMAT_AUTO, &error);
      g_assert_no_error (error);
      /* a text format may widen the dtype; compare values in the CLI's dtype */
      g_autoptr (TlMatrix) same = tl_matrix_convert (loaded, cases[i].d, &error);
      g_assert_no_error (error);
      guint64 seed = g_ascii_strtoull (cases[i].seed, NULL, 10);
      g_autoptr (TlMatrix) want = tl_generate (cases[i].spec, cases[i].d, cases[i].r, cases[i].c,
                                               seed, &error);
      g_assert_no_error (error);
      g_assert_true (tl_matrix_equal (same, want));
    }

  /* --format overrides the extension */
  g_autofree char *odd = g_build_filename (dir, "e.data", NULL);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "identity", "--size", "4",
                                               "--format", "npy", "-o", odd, NULL },
                            NULL, NULL), ==, 0);
  g_autoptr (TlMatrix) eye = tl_matrix_load (odd, TL_FORMAT_NPY, NULL);
  g_assert_nonnull (eye);
  g_assert_cmpfloat (tl_matrix_get (eye, 2, 2), ==, 1.0);
  io_test_rmdir (dir);
}

static void
test_generate_errors (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tilelab-gen-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "x.npy", NULL);
  g_autofree char *err = NULL;

  /* usage errors: 2, with the problem named */
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "nope", "--size", "3", "-o", path,
                                               NULL }, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "nope"));
  g_assert_nonnull (strstr (err, "random-uniform"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "hilbert", "--size", "3x4", "-o",
                                               path, NULL }, NULL, &err), ==, 2);
  g_assert_nonnull (strstr (err, "square"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "random-uniform:lo=x", "--size", "3",
                                               "-o", path, NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "ones", "-o", path, NULL },
                            NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "ones", "--size", "3", NULL },
                            NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "ones", "--size", "3x", "-o", path,
                                               NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "ones", "--size", "3", "--dtype",
                                               "int8", "-o", path, NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "ones", "--size", "3", "--seed",
                                               "-1", "-o", path, NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "ones", "--size", "3", "-o",
                                               "x.unknown", NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", NULL }, NULL, NULL), ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "ones", "extra", "--size", "3",
                                               "-o", path, NULL }, NULL, NULL), ==, 2);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  /* runtime failures: 1 — a size beyond the cap, a directory that isn't there */
  g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "TL_MAX_MATRIX_BYTES", "1000000",
                                         TRUE);
  g_assert_cmpint (cli_test_spawn ((const char *[]) { "generate", "ones", "--size", "1000", "-o",
                                                   path, NULL }, env, NULL, &err), ==, 1);
  g_assert_nonnull (strstr (err, "1000×1000"));
  g_clear_pointer (&err, g_free);
  g_autofree char *missing = g_build_filename (dir, "no", "such", "x.npy", NULL);
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "ones", "--size", "3", "-o", missing,
                                               NULL }, NULL, NULL), ==, 1);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  g_autofree char *out = NULL;
  g_assert_cmpint (run_cli ((const char *[]) { "generate", "--help", NULL }, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "--seed"));
  io_test_rmdir (dir);
}

static void
test_kernels_table (void)
{
  g_autofree char *out = NULL;
  g_assert_cmpint (run_cli ((const char *[]) { "kernels", NULL }, &out, NULL), ==, 0);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, tl_kernel_count () + 2); /* header, trailing "" */
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      const char *line = lines[i + 1];
      g_assert_true (g_str_has_prefix (line, k->id));
      g_assert_nonnull (strstr (line, k->lesson));
      g_assert_nonnull (strstr (line, k->title));
      g_assert_nonnull (strstr (line, k->backend == TL_BACKEND_CPU ? " cpu" : " gpu"));
    }
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run_cli ((const char *[]) { "kernels", "--backend", "cpu", "--dtype", "int32",
                                               NULL }, &out, NULL), ==, 0);
  g_assert_nonnull (strstr (out, "cpu-naive"));
  g_assert_nonnull (strstr (out, "cpu-blocked"));
  g_assert_null (strstr (out, "cpu-openblas"));
  g_assert_null (strstr (out, "gemm-01"));
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run_cli ((const char *[]) { "kernels", "--backend", "tpu", NULL }, NULL, NULL),
                   ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "kernels", "--dtype", "int8", NULL }, NULL, NULL),
                   ==, 2);
  g_assert_cmpint (run_cli ((const char *[]) { "kernels", "surplus", NULL }, NULL, NULL), ==, 2);
}

static void
test_kernels_json (void)
{
  g_autofree char *out = NULL;
  g_assert_cmpint (run_cli ((const char *[]) { "kernels", "--json", NULL }, &out, NULL), ==, 0);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  JsonArray *rows = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (rows), ==, tl_kernel_count ());
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      JsonObject *o = json_array_get_object_element (rows, i);
      g_assert_cmpstr (json_object_get_string_member (o, "id"), ==, k->id);
      g_assert_cmpstr (json_object_get_string_member (o, "lesson"), ==, k->lesson);
      g_assert_cmpstr (json_object_get_string_member (o, "source_path"), ==, k->source_path);
      g_assert_cmpint (json_object_get_boolean_member (o, "reference"), ==, k->reference);
      JsonArray *dt = json_object_get_array_member (o, "dtypes");
      guint n = 0;
      for (int d = 0; d < TL_DTYPE_COUNT; d++)
        n += tl_kernel_supports (k, d);
      g_assert_cmpuint (json_array_get_length (dt), ==, n);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!cli_test_find ())
    return 1;
  g_test_add_func ("/cli/generate/list", test_generate_list);
  g_test_add_func ("/cli/generate/writes", test_generate_writes);
  g_test_add_func ("/cli/generate/errors", test_generate_errors);
  g_test_add_func ("/cli/kernels/table", test_kernels_table);
  g_test_add_func ("/cli/kernels/json", test_kernels_json);
  return g_test_run ();
}
