/* test-json-write.c — JSON written value by value: json-glib's layout
 * where json-glib writes valid JSON, valid JSON where it does not, records
 * that write → read → write to the same bytes, and a save of millions of
 * block records that holds no tree. */
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "memory-test-util.h"
#include "core/tl-json.h"
#include "core/tl-json-pack.h"
#include "core/tl-json-write.h"
#include "lu/tl-lu.h"
#include "lu/tl-lu-recorder.h"
#include "gen/tl-generate.h"
#include "record/tl-gauss-record.h"
#include "record/tl-lu-record.h"
#include "record/tl-record.h"
#include "record/tl-record-file.h"

/* json-glib's own text of root. */
static char *
generated (JsonNode *root, gboolean pretty)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, pretty);
  json_generator_set_indent (gen, 1);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}

/* A random tree of depth at most depth: every kind of value, empty
 * containers, strings with escapes, doubles that print with a point. */
static JsonNode *
random_node (GRand *rand, int depth)
{
  static const char *strings[] = { "", "plain", "quote \" and \\ back", "tab\tline\nret\r",
                                   "\b\f\x01\x7f", "é ü – ✓", "/slash/" };
  static const double doubles[] = { 0.5, -0.0, 2.0, 0.1, 123456.789, -0.003, 1e15 + 0.5 };
  int kind = g_rand_int_range (rand, 0, depth > 0 ? 8 : 6);
  JsonNode *node = json_node_alloc ();
  switch (kind)
    {
    case 0: return json_node_init_int (node, g_rand_int_range (rand, -1000000, 1000000)
                                                 * (gint64) g_rand_int_range (rand, 1, 100000));
    case 1: return json_node_init_double (node, doubles[g_rand_int_range (rand, 0, 7)]);
    case 2: return json_node_init_string (node, strings[g_rand_int_range (rand, 0, 7)]);
    case 3: return json_node_init_boolean (node, g_rand_boolean (rand));
    case 4: return json_node_init_null (node);
    case 5: return json_node_init_int (node, G_MININT64);
    case 6:
      {
        JsonArray *array = json_array_new ();
        for (int i = 0, n = g_rand_int_range (rand, 0, 5); i < n; i++)
          json_array_add_element (array, random_node (rand, depth - 1));
        json_node_init_array (node, array);
        json_array_unref (array);
        return node;
      }
    default:
      {
        JsonObject *object = json_object_new ();
        for (int i = 0, n = g_rand_int_range (rand, 0, 5); i < n; i++)
          {
            g_autofree char *name = g_strdup_printf ("m%d \"%d\"", i, g_rand_int_range (rand, 0, 9));
            json_object_set_member (object, name, random_node (rand, depth - 1));
          }
        json_node_init_object (node, object);
        json_object_unref (object);
        return node;
      }
    }
}

/* Where json-glib's text is valid JSON, the writer's is the same bytes. */
static void
test_like_json_glib (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (26);
  for (int t = 0; t < 400; t++)
    {
      g_autoptr (JsonNode) root = random_node (rand, 5);
      for (int pretty = 0; pretty < 2; pretty++)
        {
          g_autofree char *want = generated (root, pretty);
          gsize length = 0;
          g_autofree char *got = tl_json_to_data (root, pretty, &length);
          g_assert_cmpstr (got, ==, want);
          g_assert_cmpuint (length, ==, strlen (want));
        }
    }
}

/* What json-glib writes wrongly is written as valid JSON that reads back
 * as the value. */
static void
test_valid_where_json_glib_is_not (void)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (TlJsonOut) b = tl_json_out_new_builder (builder);
  tl_json_out_begin_array (b);
  tl_json_out_double (b, 1e22);
  tl_json_out_double (b, 1e-8);
  tl_json_out_double (b, NAN);
  tl_json_out_double (b, -INFINITY);
  tl_json_out_string (b, "unit\x1fseparator");
  tl_json_out_end_array (b);
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = tl_json_to_data (root, FALSE, NULL);
  g_assert_cmpstr (text, ==, "[1e+22,1e-08,\"nan\",\"-inf\","
                             "\"unit\\u001fseparator\"]");
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) back = tl_json_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  JsonArray *array = json_node_get_array (back);
  g_assert_cmpfloat (json_array_get_double_element (array, 0), ==, 1e22);
  g_assert_cmpfloat (json_array_get_double_element (array, 1), ==, 1e-8);
  g_assert_cmpstr (json_array_get_string_element (array, 4), ==, "unit\x1fseparator");

  /* a file and memory give the same text */
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("tl-json-write-XXXXXX", &path, &error);
  g_assert_no_error (error);
  FILE *file = fdopen (fd, "w");
  TlJsonOut *out = tl_json_out_new_file (file, TRUE);
  tl_json_out_node (out, root);
  tl_json_out_free (out);
  fclose (file);
  g_autofree char *from_file = NULL;
  g_assert_true (g_file_get_contents (path, &from_file, NULL, NULL));
  g_autofree char *pretty = tl_json_to_data (root, TRUE, NULL);
  g_assert_cmpstr (from_file, ==, pretty);
  g_unlink (path);
}

/* The bytes of a file (g_free). */
static char *
contents (const char *path)
{
  char *text = NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* A GEMM record of n blocks and an extensions array that packs when read. */
static TlRunRecord *
block_record (gsize n)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (1024, 1024, 1024, TL_DTYPE_FLOAT32);
  TlRunRecord *record = tl_run_record_new (job);
  g_free (record->created);
  record->created = g_strdup ("2026-11-29T20:00:00Z");
  TlKernelRun *run = tl_kernel_run_new ("cpu-blocked", TL_BACKEND_CPU);
  const double samples[] = { 1.5, 0.25, 1e-9 };
  tl_kernel_run_set_samples (run, samples, 3);
  TlBlockRecord *blocks = g_new (TlBlockRecord, n);
  for (gsize i = 0; i < n; i++)
    /* a 1000×1000 grid of tiles, each once per launch */
    blocks[i] = (TlBlockRecord) { i % 1000, (i / 1000) % 1000, i % 3, i / 1000000, i * 7,
                                  i * 7 + 5 + (i % 5 == 0 ? G_GUINT64_CONSTANT (1) << 40 : 0) };
  tl_kernel_run_take_blocks (run, blocks, n, "thread");
  g_ptr_array_add (record->runs, run);
  record->extensions = json_object_new ();
  JsonArray *mixed = json_array_new ();
  for (int i = 0; i < 40; i++)
    if (i % 3 == 0)
      json_array_add_int_element (mixed, i);
    else
      json_array_add_double_element (mixed, i + 0.5);
  json_object_set_array_member (record->extensions, "mixed", mixed);
  return record;
}

/* A run record, pretty (few blocks) and compact (many), and a Gauss record
 * bare and inside a run record: saved, read and saved again, the same bytes. */
static void
test_round_trip (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tl-json-write-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *first = g_build_filename (dir, "first.json", NULL);
  g_autofree char *second = g_build_filename (dir, "second.json", NULL);
  const gsize sizes[] = { 100, TL_RUN_RECORD_PRETTY_BLOCKS + 1 };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autoptr (TlRunRecord) record = block_record (sizes[s]);
      g_assert_true (tl_run_record_save (record, first, TL_RECORD_SAVE_DEFAULT, &error));
      g_autoptr (TlRunRecord) back = tl_run_record_load (first, TL_RECORD_LOAD_DEFAULT, &error);
      g_assert_no_error (error);
      g_assert_true (tl_run_record_save (back, second, TL_RECORD_SAVE_DEFAULT, &error));
      g_autofree char *a = contents (first), *b = contents (second);
      g_assert_cmpstr (a, ==, b);
      /* and as the tree of the same record is written */
      g_autofree char *from_tree = tl_run_record_to_string (record, sizes[s] <= TL_RUN_RECORD_PRETTY_BLOCKS);
      g_assert_cmpstr (from_tree, ==, a);
    }

  g_autoptr (TlMatrix) m = tl_generate ("random-uniform", TL_DTYPE_FLOAT64, 70, 70, 3, &error);
  g_assert_no_error (error);
  g_autoptr (TlLuRecorder) rec = tl_lu_recorder_new (0);
  g_autoptr (TlLuResult) r = NULL;
  g_assert_true (tl_lu_factor ("lu-cpu-blocked", m, 16, TL_PIVOTING_PARTIAL, rec, NULL, &r, &error));
  g_assert_no_error (error);
  /* bare */
  g_assert_true (tl_lu_recorder_save (rec, first, &error));
  TlRecordFile file = { 0 };
  g_assert_true (tl_record_file_load (&file, first, TL_RECORD_LOAD_DEFAULT, &error));
  g_assert_no_error (error);
  g_assert_true (tl_lu_recorder_save (file.lu, second, &error));
  tl_record_file_clear (&file);
  g_autofree char *a = contents (first), *b = contents (second);
  g_assert_cmpstr (a, ==, b);
  /* streamed into a run record, as the tree of it is written */
  g_autoptr (TlRunRecord) plain = tl_lu_run_record_new (r, m, NULL, NULL, &error);
  g_assert_true (tl_lu_run_record_save (plain, rec, first, &error));
  g_autoptr (TlRunRecord) whole = tl_lu_run_record_new (r, m, NULL, rec, &error);
  g_free (whole->created);
  whole->created = g_strdup (plain->created);
  g_autofree char *from_tree = tl_run_record_to_string (whole, TRUE);
  g_autofree char *streamed = contents (first);
  g_assert_cmpstr (streamed, ==, from_tree);
  g_unlink (first);
  g_unlink (second);
  g_rmdir (dir);
}

/* Two million blocks are 64 MiB; as a json-glib tree they were some 1.5 GiB
 * and as text twice the file.  Saved under a limit of what the process
 * uses now + 32 MiB, the file is written, and reads back. */
static void
test_large_save (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif
  const gsize n = 2000000;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "tl-json-write-large.json", NULL);
  if (g_test_subprocess ())
    {
      g_autoptr (TlRunRecord) record = block_record (n);
      tl_test_limit_address_space (32 << 20);
      g_autoptr (GError) error = NULL;
      g_assert_true (tl_run_record_save (record, path, TL_RECORD_SAVE_DEFAULT, &error));
      g_assert_no_error (error);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_load (path, TL_RECORD_LOAD_DEFAULT, &error);
  g_assert_no_error (error);
  TlKernelRun *run = back->runs->pdata[0];
  g_assert_cmpuint (run->n_blocks, ==, n);
  g_assert_cmpuint (run->blocks[n - 1].end_ns, ==, (n - 1) * 7 + 5);
  g_assert_cmpuint (run->blocks[n - 5].end_ns, ==, (n - 5) * 7 + 5 + (G_GUINT64_CONSTANT (1) << 40));
  g_unlink (path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-write/like-json-glib", test_like_json_glib);
  g_test_add_func ("/json-write/valid", test_valid_where_json_glib_is_not);
  g_test_add_func ("/json-write/round-trip", test_round_trip);
  g_test_add_func ("/json-write/large-save", test_large_save);
  return g_test_run ();
}
