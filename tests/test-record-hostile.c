/* test-record-hostile.c — run and Gauss records edited as a hostile user
 * would: a Gauss record cut short but still "finished", a member given
 * twice, 1e400 in a snapshot, m = 1e23, a kernel id that is not UTF-8,
 * holds \u0000 or a terminal escape, times below zero or out of order;
 * each refused with the record's name and the JSON path.  And what
 * Tilelab writes is JSON even when a value is infinite. */
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "core/tl-error.h"
#include "core/tl-json.h"
#include "lu/tl-lu-recorder.h"
#include "record/tl-gauss-record.h"
#include "record/tl-record-file.h"

#include "cli-test-util.h"

static char *tmp_dir;

static char *
make_record (const char *name, const char *const *args)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  for (int k = 0; args[k]; k++)
    g_ptr_array_add (argv, (char *) args[k]);
  g_ptr_array_add (argv, "--record");
  g_ptr_array_add (argv, path);
  g_ptr_array_add (argv, NULL);
  g_autofree char *out = NULL, *err = NULL;
  int status = cli_test_spawn ((const char *const *) argv->pdata, NULL, &out, &err);
  if (status != 0)
    g_error ("making %s failed (%d): %s", name, status, err);
  return path;
}

/* The record's text with the first `from` replaced by `to`, as name. */
static char *
edit_record (const char *path, const char *name, const char *from, const char *to)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  char *at = strstr (text, from);
  if (at == NULL)
    g_error ("“%s” is not in %s", from, path);
  g_autoptr (GString) edited = g_string_new_len (text, at - text);
  g_string_append (edited, to);
  g_string_append (edited, at + strlen (from));
  char *out = g_build_filename (tmp_dir, name, NULL);
  g_assert_true (g_file_set_contents (out, edited->str, (gssize) edited->len, NULL));
  return out;
}

static void
expect_refused (const char *path, const char *const *needles)
{
  TlRecordFile file;
  g_autoptr (GError) error = NULL;
  g_assert_false (tl_record_file_load (&file, path, TL_RECORD_LOAD_DEFAULT, &error));
  g_assert_nonnull (error);
  g_autofree char *base = g_path_get_basename (path);
  if (strstr (error->message, base) == NULL)
    g_error ("“%s” does not name %s", error->message, base);
  for (int k = 0; needles[k]; k++)
    if (strstr (error->message, needles[k]) == NULL)
      g_error ("“%s” lacks “%s”", error->message, needles[k]);
}

/* The record at path with `from` replaced by `to` is refused, the
 * message naming json_path and saying what. */
static void
expect_edit_refused (const char *path, const char *from, const char *to, const char *json_path,
                     const char *what)
{
  static guint edits;
  g_autofree char *name = g_strdup_printf ("edit-%u.json", ++edits);
  g_autofree char *edited = edit_record (path, name, from, to);
  const char *needles[] = { json_path, what, NULL };
  expect_refused (edited, needles);
}

/* A Gauss record cut to 5 of its 24 steps, its result still "finished":
 * a player would draw "done: PA = LU". */
static void
test_gauss_cut_short (void)
{
  const char *args[] = { "lu", "--gen", "random-uniform", "--size", "24", "--kernel",
                         "lu-cpu-unblocked", NULL };
  g_autofree char *path = make_record ("lu24.json", args);
  g_autoptr (JsonNode) root = tl_json_load_file (path, NULL);
  g_assert_nonnull (root);
  JsonObject *lu = json_object_get_object_member (
    json_object_get_object_member (json_node_get_object (root), "extensions"), "lu");
  JsonArray *steps = json_object_get_array_member (lu, "steps");
  g_assert_cmpuint (json_array_get_length (steps), ==, 24);
  while (json_array_get_length (steps) > 5)
    json_array_remove_element (steps, json_array_get_length (steps) - 1);
  g_autofree char *text = tl_json_to_data (root, TRUE, NULL);
  g_autofree char *cut = g_build_filename (tmp_dir, "lu24-cut.json", NULL);
  g_assert_true (g_file_set_contents (cut, text, -1, NULL));
  const char *want[] = { "$.result.finished", "5 of the 24 steps", NULL };
  expect_refused (cut, want);

  /* 1e400 in a snapshot: beyond float64, refused at its place */
  g_autofree char *inf = edit_record (path, "lu24-inf.json", "\"data\" : [", "\"data\" : [1e400, ");
  const char *want_inf[] = { "the number 1e400 is beyond the range of float64", "data[0]", NULL };
  expect_refused (inf, want_inf);

  /* a swap where the pivot row is the step's own (the identity never
   * swaps), and a dtype no recorder writes */
  const char *id_args[] = { "lu", "--gen", "identity", "--size", "3", NULL };
  g_autofree char *id = make_record ("lu3.json", id_args);
  expect_edit_refused (id, "\"swapped\" : false", "\"swapped\" : true", "$.steps[0].swapped",
                       "a swap, but the pivot row is the step's own");
  expect_edit_refused (id, "\"dtype\" : \"float64\",\n   \"modulus\"",
                       "\"dtype\" : \"float16\",\n   \"modulus\"", "$.dtype",
                       "expected “float32”, “float64” or “gfp”");
}

static void
test_run_record_members (void)
{
  const char *args[] = { "gemm", "--kernel", "cpu-naive", "--size", "8", NULL };
  g_autofree char *path = make_record ("r8.json", args);

  /* m = 1e23: said as itself, not wrapped to -1 */
  g_autofree char *big = edit_record (path, "r8-m.json", "\"m\" : 8", "\"m\" : 1e23");
  const char *want_m[] = { "$.job.m", "1e+23 is out of range", NULL };
  expect_refused (big, want_m);

  /* a member twice: json-glib would keep the last silently */
  g_autofree char *twice = edit_record (path, "r8-twice.json", "\"m\" : 8", "\"m\" : 8, \"m\" : 9");
  const char *want_twice[] = { "$.job.m", "given twice", NULL };
  expect_refused (twice, want_twice);

  /* a kernel id that is not UTF-8: the record is blamed, at the member */
  g_autofree char *bad = edit_record (path, "r8-utf8.json", "\"cpu-naive\"", "\"cpu-\xff\"");
  const char *want_bad[] = { "not UTF-8", NULL };
  expect_refused (bad, want_bad);

  /* \u0000 in a string: C would end the string there, so a kernel id
   * "cpu-naive\u0000…" or a path "a.npy\u0000/../…" read as shorter ones */
  expect_edit_refused (path, "\"cpu-naive\"", "\"cpu-naive\\u0000x\"", "$.job.kernels[0]",
                       "\\u0000 inside a string");
  /* a kernel id with a line break or a terminal escape: it is printed */
  expect_edit_refused (path, "\"kernel\" : \"cpu-naive\"", "\"kernel\" : \"\\u001b[2Jcpu-naive\"",
                       "$.runs[0].kernel", "control character (0x1b)");
  /* times that contradict themselves: below zero, min above max */
  expect_edit_refused (path, "\"median\" : {\n     \"value\" : ",
                       "\"median\" : {\n     \"value\" : -", "$.runs[0].time.median",
                       "a time below zero");
  expect_edit_refused (path, "\"min\" : {\n     \"value\" : ", "\"min\" : {\n     \"value\" : 9",
                       "$.runs[0].time", "out of order");
}

/* A record whose C names a matrix of another shape than its job's (the
 * heatmap would show a 1 × 350,000,000 vector as C of a 70 × 50 job) */
static void
test_matrix_beside_of_wrong_shape (void)
{
  const char *args[] = { "gemm", "--kernel", "cpu-naive", "--size", "7x5x6", "--save-matrices",
                         NULL };
  g_autofree char *path = make_record ("r7.json", args);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) rec = tl_run_record_load (path, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_true (tl_run_record_load_matrices (rec, &error));
  g_assert_no_error (error);

  /* C pointed at A (7×5, the job makes C 7×6), B at the reference */
  g_autofree char *c_at_a = edit_record (path, "r7-c.json", "\"r7.C.cpu-naive.npy\"", "\"r7.A.npy\"");
  g_autoptr (TlRunRecord) bad = tl_run_record_load (c_at_a, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_false (tl_run_record_load_matrices (bad, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "r7.A.npy: a 7×5 matrix, but the run record's job makes it 7×6"));
  g_clear_error (&error);
  g_autofree char *b_at_ref = edit_record (path, "r7-b.json", "\"r7.B.npy\"", "\"r7.reference.npy\"");
  g_autoptr (TlRunRecord) bad_b = tl_run_record_load (b_at_ref, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_false (tl_run_record_load_matrices (bad_b, &error));
  g_assert_nonnull (strstr (error->message, "makes it 5×6"));
  g_clear_error (&error);

  /* C pointed at a file whose header declares 1 × 350,000,000 floats:
   * refused from its header, its data never read (here there is none:
   * reading it would have said "truncated") */
  g_autoptr (GString) npy = g_string_new_len ("\x93NUMPY\x01\x00\x76\x00", 10);
  g_string_append (npy, "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 350000000), }");
  while (npy->len < 127)
    g_string_append_c (npy, ' ');
  g_string_append_c (npy, '\n');
  g_autofree char *wide = g_build_filename (tmp_dir, "wide.npy", NULL);
  g_assert_true (g_file_set_contents (wide, npy->str, (gssize) npy->len, NULL));
  g_autofree char *c_at_wide = edit_record (path, "r7-w.json", "\"r7.C.cpu-naive.npy\"", "\"wide.npy\"");
  g_autoptr (TlRunRecord) bad_w = tl_run_record_load (c_at_wide, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  g_assert_false (tl_run_record_load_matrices (bad_w, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_SHAPE);
  g_assert_nonnull (strstr (error->message, "wide.npy: a 1×350000000 matrix, but the run record's job makes it 7×6"));
}

/* A Gauss record whose running growth overflowed is still JSON. */
static void
test_infinite_written_as_json (void)
{
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlMatrix) a = tl_matrix_new (TL_DTYPE_FLOAT64, 2, 2, NULL);
  double v[4] = { 1e308, 1e308, -1e308, 1e308 };
  memcpy (a->data, v, sizeof v);
  tl_lu_recorder_begin (rec, "lu-cpu-unblocked", "float64", 0, 2, 2, 0, TL_PIVOTING_PARTIAL, 1e308);
  rec->growth = INFINITY;
  rec->log_abs_det = NAN;
  g_autoptr (JsonNode) root = tl_lu_recorder_to_json (rec);
  g_autofree char *text = tl_json_to_data (root, FALSE, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) back = tl_json_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "\"inf\""));
  g_assert_null (strstr (text, "inf.0"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!cli_test_find ())
    return 77;
  tmp_dir = g_dir_make_tmp ("tl-record-hostile-XXXXXX", NULL);
  g_test_add_func ("/record-hostile/gauss-cut-short", test_gauss_cut_short);
  g_test_add_func ("/record-hostile/run-record-members", test_run_record_members);
  g_test_add_func ("/record-hostile/matrix-of-another-shape", test_matrix_beside_of_wrong_shape);
  g_test_add_func ("/record-hostile/infinite-written-as-json", test_infinite_written_as_json);
  int status = g_test_run ();
  g_autofree char *cmd = g_strdup_printf ("rm -rf '%s'", tmp_dir);
  (void) system (cmd);
  g_free (tmp_dir);
  return status;
}
