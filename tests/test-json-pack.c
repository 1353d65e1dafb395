/* test-json-pack.c — long arrays of numbers packed out of the tree: read
 * as the tree reads them, refused with the same words at the same index,
 * and made whole again for what keeps a tree. */
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "memory-test-util.h"
#include "core/tl-error.h"
#include "core/tl-json.h"
#include "core/tl-json-pack.h"
#include "core/tl-json-read.h"
#include "record/tl-record.h"

/* "[v0, v1, …]" of n elements, element i written by fmt with i. */
static char *
array_text (guint n, const char *fmt, guint bad_at, const char *bad)
{
  GString *s = g_string_new ("[");
  for (guint i = 0; i < n; i++)
    {
      if (i)
        g_string_append_c (s, ',');
      if (i == bad_at)
        g_string_append (s, bad);
      else
        g_string_append_printf (s, fmt, i);
    }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

/* {"a": ARRAY} parsed both ways: packed, and as a plain tree. */
typedef struct
{
  TlJsonDoc *doc;
  JsonNode *tree;
  JsonArray *packed, *plain;
} Both;

static void
both_parse (Both *b, const char *array)
{
  g_autofree char *text = g_strdup_printf ("{\"a\": %s}", array);
  g_autoptr (GError) error = NULL;
  b->doc = tl_json_doc_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  b->tree = tl_json_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  b->packed = json_object_get_array_member (json_node_get_object (tl_json_doc_root (b->doc)), "a");
  b->plain = json_object_get_array_member (json_node_get_object (b->tree), "a");
}

static void
both_clear (Both *b)
{
  g_clear_pointer (&b->doc, tl_json_doc_free);
  g_clear_pointer (&b->tree, json_node_unref);
}

/* The three readers of numbers give the same values, or the same error. */
static void
assert_read_alike (Both *b)
{
  const guint n = tl_json_array_length (b->plain);
  g_assert_cmpuint (tl_json_array_length (b->packed), ==, n);
  g_autofree guint64 *u1 = g_new0 (guint64, n + 1), *u2 = g_new0 (guint64, n + 1);
  g_autoptr (GError) e1 = NULL, e2 = NULL;
  gboolean ok1 = tl_json_array_uints (b->packed, "$.a", 1000, u1, &e1);
  gboolean ok2 = tl_json_array_uints (b->plain, "$.a", 1000, u2, &e2);
  g_assert_cmpint (ok1, ==, ok2);
  if (ok1)
    g_assert_cmpmem (u1, n * 8, u2, n * 8);
  else
    g_assert_cmpstr (e1->message, ==, e2->message);
  g_clear_error (&e1);
  g_clear_error (&e2);

  g_autofree double *v1 = NULL, *v2 = NULL;
  ok1 = tl_json_array_values (b->packed, "$.a", n, &v1, &e1);
  ok2 = tl_json_array_values (b->plain, "$.a", n, &v2, &e2);
  g_assert_cmpint (ok1, ==, ok2);
  if (ok1)
    for (guint i = 0; i < n; i++)
      g_assert_true (v1[i] == v2[i] || (isnan (v1[i]) && isnan (v2[i])));
  else
    g_assert_cmpstr (e1->message, ==, e2->message);
  g_clear_error (&e1);
  g_clear_error (&e2);
  g_clear_pointer (&v1, g_free);
  g_clear_pointer (&v2, g_free);

  guint n1 = 0, n2 = 0;
  ok1 = tl_json_array_numbers (b->packed, "$.a", &v1, &n1, &e1);
  ok2 = tl_json_array_numbers (b->plain, "$.a", &v2, &n2, &e2);
  g_assert_cmpint (ok1, ==, ok2);
  if (ok1)
    g_assert_cmpmem (v1, n1 * 8, v2, n2 * 8);
  else
    g_assert_cmpstr (e1->message, ==, e2->message);
  /* what expects objects or strings fails at index 0, as on the number */
  if (tl_json_packed_of (b->packed))
    g_assert_null (tl_json_array_element (b->packed, 0));
}

static void
test_read_alike (void)
{
  static const struct { const char *fmt, *bad; gboolean packs; } cases[] = {
    { "%u", NULL, TRUE },                  /* integers */
    { "%u.5", NULL, TRUE },                /* doubles */
    { "%ue-3", NULL, TRUE },               /* an exponent: a double */
    { "%u", "-7", TRUE },                  /* below 0 at index 37 */
    { "%u", "1001", TRUE },                /* beyond hi */
    { "%u", "9223372036854775807", TRUE },
    { "%u.25", "\"nan\"", TRUE },          /* "nan": a value, not a number */
    { "%u.25", "\"-inf\"", TRUE },
    { "%u", "2.5", TRUE },                 /* integers and a double: doubles, the integers marked */
    { "%u.5", "3", TRUE },                 /* a double first: uints fail at 0 */
    { "%u", "\"inf\"", TRUE },             /* integers and "inf" */
    { "%u.5", "9007199254740993", FALSE }, /* beyond 2^53: no double holds it, stays a tree */
    { "%u", "9007199254740993", TRUE },    /* among integers it packs */
    { "%u", "2147483648", TRUE },          /* int32 so far, widened to int64 at 37 */
    { "%u", "-2147483648", TRUE },         /* still int32 */
    { "%u", "4294967296.5", TRUE },        /* int32 so far, then doubles */
    { "%u", "\"x\"", FALSE },
    { "%u", "null", FALSE },
    { "%u", "[1]", FALSE },
    { "%u", "{}", FALSE },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *array = array_text (60, cases[c].fmt, cases[c].bad ? 37 : G_MAXUINT,
                                           cases[c].bad);
      Both b = { 0 };
      both_parse (&b, array);
      g_assert_cmpint (tl_json_packed_of (b.packed) != NULL, ==, cases[c].packs);
      assert_read_alike (&b);
      both_clear (&b);
    }
  /* short arrays stay in the tree */
  Both b = { 0 };
  both_parse (&b, "[1, 2, 3]");
  g_assert_null (tl_json_packed_of (b.packed));
  both_clear (&b);
}

/* Integers pack as int32 while every one fits, else as int64 (widened
 * once, the values kept); a struct's field is read straight from either. */
static void
test_narrow (void)
{
  static const struct { const char *bad; TlJsonPackedKind kind; gint64 at_bad; } cases[] = {
    { "2147483647", TL_JSON_PACKED_INT32, G_MAXINT32 },
    { "-2147483648", TL_JSON_PACKED_INT32, G_MININT32 },
    { "2147483648", TL_JSON_PACKED_INT, (gint64) G_MAXINT32 + 1 },
    { "-9223372036854775808", TL_JSON_PACKED_INT, G_MININT64 },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *array = array_text (3000, "%u", 2500, cases[c].bad);
      Both b = { 0 };
      both_parse (&b, array);
      const TlJsonPacked *pa = tl_json_packed_of (b.packed);
      g_assert_nonnull (pa);
      g_assert_cmpint (pa->kind, ==, cases[c].kind);
      g_assert_cmpint (tl_json_packed_int (pa, 2499), ==, 2499);
      g_assert_cmpint (tl_json_packed_int (pa, 2500), ==, cases[c].at_bad);
      g_assert_cmpint (tl_json_packed_int (pa, 2999), ==, 2999);
      both_clear (&b);
    }
  /* into 32- and 64-bit fields of structs, from a packed and a plain array */
  typedef struct { guint32 narrow; guint64 wide; } Pair;
  g_autofree char *array = array_text (40, "%u", 39, "4000000000");
  Both b = { 0 };
  both_parse (&b, array);
  Pair packed[40], plain[40];
  g_autoptr (GError) error = NULL;
  g_assert_true (tl_json_array_uints_into (b.packed, "$.a", G_MAXUINT32, &packed[0].narrow,
                                           sizeof (guint32), sizeof (Pair), &error));
  g_assert_true (tl_json_array_uints_into (b.plain, "$.a", G_MAXUINT32, &plain[0].narrow,
                                           sizeof (guint32), sizeof (Pair), &error));
  g_assert_true (tl_json_array_uints_into (b.packed, "$.a", G_MAXUINT64, &packed[0].wide,
                                           sizeof (guint64), sizeof (Pair), &error));
  g_assert_true (tl_json_array_uints_into (b.plain, "$.a", G_MAXUINT64, &plain[0].wide,
                                           sizeof (guint64), sizeof (Pair), &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 40; i++)
    {
      guint64 expected = i == 39 ? 4000000000u : i;
      g_assert_cmpuint (packed[i].narrow, ==, expected);
      g_assert_cmpuint (plain[i].narrow, ==, expected);
      g_assert_cmpuint (packed[i].wide, ==, expected);
      g_assert_cmpuint (plain[i].wide, ==, expected);
    }
  /* beyond hi: the same words at the same index */
  g_autoptr (GError) e1 = NULL, e2 = NULL;
  g_assert_false (tl_json_array_uints_into (b.packed, "$.a", 1000, &packed[0].narrow,
                                            sizeof (guint32), sizeof (Pair), &e1));
  g_assert_false (tl_json_array_uints_into (b.plain, "$.a", 1000, &plain[0].narrow,
                                            sizeof (guint32), sizeof (Pair), &e2));
  g_assert_cmpstr (e1->message, ==, e2->message);
  g_assert_nonnull (strstr (e1->message, "$.a[39]"));
  both_clear (&b);
}

/* Arrays of an integer and a double, one after another: each reuses the
 * room of the one before and is widened; the room once doubled with each
 * array (the 23rd asked the budget for 32 GiB, the fuzzer's 615-byte
 * Gauss record for 512 MiB). */
static void
test_many_mixed (void)
{
  GString *t = g_string_new ("{\"a\": [");
  for (int i = 0; i < 40; i++)
    g_string_append_printf (t, "%s[%d, 0.5]", i ? ", " : "", i);
  g_string_append (t, "]}");
  g_autoptr (GError) error = NULL;
  g_autoptr (TlJsonDoc) doc = tl_json_doc_parse (t->str, t->len, &error);
  g_assert_no_error (error);
  JsonArray *a = json_object_get_array_member (json_node_get_object (tl_json_doc_root (doc)), "a");
  g_assert_cmpuint (json_array_get_length (a), ==, 40);
  JsonArray *last = json_array_get_array_element (a, 39);
  g_assert_cmpint (json_array_get_int_element (last, 0), ==, 39);
  g_assert_cmpfloat (json_array_get_double_element (last, 1), ==, 0.5);
  g_string_free (t, TRUE);
}

/* Made whole again, a document writes as the tree of the same text does. */
static void
test_unpack (void)
{
  g_autofree char *ints = array_text (100, "%u", 5, "-9223372036854775808");
  g_autofree char *doubles = array_text (50, "%u.125", 3, "\"inf\"");
  g_autofree char *mixed = array_text (40, "%u.5", 7, "12");
  g_autofree char *text = g_strdup_printf ("{\"x\": [%s, {\"y\": %s}], \"z\": 1, \"m\": %s}", ints,
                                           doubles, mixed);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlJsonDoc) doc = tl_json_doc_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  g_assert_true (tl_json_doc_unpack (tl_json_doc_root (doc), &error));
  g_assert_no_error (error);
  g_autoptr (JsonNode) tree = tl_json_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  g_autofree char *a = tl_json_to_data (tl_json_doc_root (doc), FALSE, NULL);
  g_autofree char *b = tl_json_to_data (tree, FALSE, NULL);
  g_assert_cmpstr (a, ==, b);
}

/* A placeholder written into a file is a string like any other: only the
 * document that packed an array knows its key. */
static void
test_forged (void)
{
  const char *text = "{\"a\": [\"tl-packed:0000000000000001:0\"]}";
  g_autoptr (GError) error = NULL;
  g_autoptr (TlJsonDoc) doc = tl_json_doc_parse (text, strlen (text), &error);
  g_assert_no_error (error);
  JsonArray *a = json_object_get_array_member (json_node_get_object (tl_json_doc_root (doc)), "a");
  g_assert_null (tl_json_packed_of (a));
  g_assert_cmpuint (tl_json_array_length (a), ==, 1);
  g_assert_nonnull (tl_json_array_element (a, 0));
}

/* Errors of the scan are the strict check's, with line and column. */
static void
test_errors (void)
{
  g_autofree char *array = array_text (100, "%u", 70, "1e400");
  g_autofree char *text = g_strdup_printf ("{\"a\": %s}", array);
  g_autoptr (GError) error = NULL;
  g_assert_null (tl_json_doc_parse (text, strlen (text), &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
  g_assert_nonnull (strstr (error->message, "($.a[70]): the number 1e400 is beyond"));
}

/* A run record's samples and block timings packed: read as before, a
 * wrong element named at its index. */
static void
test_record (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (64, 64, 64, TL_DTYPE_FLOAT32);
  g_autoptr (TlRunRecord) record = tl_run_record_new (job);
  TlKernelRun *run = tl_kernel_run_new ("cpu-naive", TL_BACKEND_CPU);
  double samples[40];
  for (guint i = 0; i < 40; i++)
    samples[i] = 1.0 + i / 8.0;
  tl_kernel_run_set_samples (run, samples, 40);
  TlBlockRecord *blocks = g_new0 (TlBlockRecord, 48);
  for (guint i = 0; i < 48; i++)
    blocks[i] = (TlBlockRecord) { i % 8, i / 8, i % 2, 0, 100 * i, 100 * i + 50 };
  tl_kernel_run_take_blocks (run, blocks, 48, "thread");
  g_ptr_array_add (record->runs, run);
  g_autofree char *text = tl_run_record_to_string (record, FALSE);

  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (text, -1, &error);
  g_assert_no_error (error);
  const TlKernelRun *r = back->runs->pdata[0];
  g_assert_cmpuint (r->n_samples, ==, 40);
  g_assert_cmpmem (r->samples_ms, 40 * sizeof (double), samples, 40 * sizeof (double));
  g_assert_cmpuint (r->n_blocks, ==, 48);
  g_assert_cmpuint (r->blocks[47].end_ns, ==, 100 * 47 + 50);
  g_assert_cmpuint (r->blocks[13].block_y, ==, 1);

  /* end_ns[45] before its start */
  g_autoptr (GString) bad = g_string_new (text);
  g_autofree char *where = g_strdup_printf ("%u,%u,%u", 100 * 45 + 50, 100 * 46 + 50, 100 * 47 + 50);
  char *w = strstr (bad->str, where);
  g_assert_nonnull (w);
  memcpy (w, "1   ", 4); /* 4550 → 1: ends before it starts */
  g_autoptr (TlRunRecord) none = tl_run_record_from_data (bad->str, -1, &error);
  g_assert_null (none);
  g_assert_nonnull (strstr (error->message, "$.runs[0].blocks.end_ns[45]: a block ends before it starts"));
}

/* Two million numbers need 16 MiB packed and some 250 MiB as a tree: under
 * a limit between the two they parse, and only making them a tree again
 * is refused, with the room there is. */
static void
test_budget (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif
  if (g_test_subprocess ())
    {
      GString *t = g_string_new ("{\"extensions\": {\"big\": [0.5");
      for (int i = 0; i < 2000000; i++)
        g_string_append (t, ",1.5");
      g_string_append (t, "]}}");
      tl_test_limit_address_space (96 << 20);
      g_autoptr (GError) error = NULL;
      g_autoptr (TlJsonDoc) doc = tl_json_doc_parse (t->str, t->len, &error);
      g_assert_no_error (error);
      g_assert_false (tl_json_doc_unpack (tl_json_doc_root (doc), &error));
      g_assert_error (error, TL_ERROR, TL_ERROR_TOO_LARGE);
      g_assert_nonnull (strstr (error->message, "the JSON document as a tree needs"));
      g_assert_nonnull (strstr (error->message, "available"));
      g_string_free (t, TRUE);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* text written to a temporary file and loaded from it (a window at a
 * time), and parsed from memory: the same tree, or the same error with
 * the same line and column after the file's name. */
static void
assert_file_alike (const char *text, gsize length)
{
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("tl-json-XXXXXX", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents_full (path, text, (gssize) length, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  g_autoptr (GError) e1 = NULL, e2 = NULL;
  g_autoptr (TlJsonDoc) from_file = tl_json_doc_load_file (path, &e1);
  g_autoptr (TlJsonDoc) from_memory = tl_json_doc_parse (text, length, &e2);
  g_unlink (path);
  g_assert_cmpint (from_file != NULL, ==, from_memory != NULL);
  if (from_file == NULL)
    {
      g_autofree char *name = g_filename_display_name (path);
      g_autofree char *expected = g_strdup_printf ("%s: %s", name, e2->message);
      g_assert_cmpstr (e1->message, ==, expected);
      g_assert_cmpint (e1->code, ==, e2->code);
      return;
    }
  g_assert_true (tl_json_doc_unpack (tl_json_doc_root (from_file), NULL));
  g_assert_true (tl_json_doc_unpack (tl_json_doc_root (from_memory), NULL));
  g_autofree char *a = tl_json_to_data (tl_json_doc_root (from_file), FALSE, NULL);
  g_autofree char *b = tl_json_to_data (tl_json_doc_root (from_memory), FALSE, NULL);
  g_assert_cmpstr (a, ==, b);
}

/* A file of some 6 MiB: tokens cross the scanner's window, strings of
 * almost the longest length, UTF-8 before an error (columns count
 * characters), and errors far into the file. */
static void
test_stream (void)
{
  GString *t = g_string_new ("{\"a\": [\n");
  for (guint i = 0; i < 200000; i++)
    g_string_append_printf (t, "%s          %u.%u", i ? ",\n" : "", i, i % 7);
  g_string_append (t, "],\n \"s\": [\"");
  for (gsize i = 0; i < (1 << 20) - 8; i++)
    g_string_append_c (t, "abcdefgh"[i % 8]);
  g_string_append (t, "\", \"\\u00e9\\ud83d\\ude00\"],\n \"n\": [1, 2.5, \"x\"]");
  gsize good = t->len;
  const char *tails[] = {
    "}",                                 /* whole */
    ", \"é\": 1, \"é\": 2}",              /* a member twice, after UTF-8 */
    ", \"big\": 1e400}",
    ", \"cut\": [1, 2",                  /* the text ends early */
    ", \"lone\": \"\\ud800\"}",
  };
  for (guint i = 0; i < G_N_ELEMENTS (tails); i++)
    {
      g_string_truncate (t, good);
      g_string_append (t, tails[i]);
      assert_file_alike (t->str, t->len);
    }
  /* a number longer than the window's lookahead */
  g_string_assign (t, "[");
  for (gsize i = 0; i < (6 << 20); i++)
    g_string_append_c (t, '7');
  g_string_append_c (t, ']');
  g_autofree char *path = NULL;
  int fd = g_file_open_tmp ("tl-json-XXXXXX", &path, NULL);
  close (fd);
  g_assert_true (g_file_set_contents_full (path, t->str, (gssize) t->len, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  g_autoptr (GError) error = NULL;
  g_assert_null (tl_json_doc_load_file (path, &error));
  g_unlink (path);
  g_assert_nonnull (strstr (error->message, "line 1, column 2 ($[0]): a number longer than"));
  g_string_free (t, TRUE);
}

/* Arrays that stay a tree are bounded in length, with the path. */
static void
test_tree_array_bound (void)
{
  GString *t = g_string_new ("{\"extensions\": {\"names\": [");
  for (guint64 i = 0; i <= TL_JSON_MAX_TREE_ARRAY; i++)
    g_string_append (t, i ? ",\"x\"" : "\"x\"");
  g_string_append (t, "]}}");
  g_autoptr (GError) error = NULL;
  g_assert_null (tl_json_doc_parse (t->str, t->len, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_TOO_LARGE);
  g_autofree char *expected = g_strdup_printf ("$.extensions.names[%" G_GUINT64_FORMAT "]: an array of more than",
                                               TL_JSON_MAX_TREE_ARRAY);
  g_assert_nonnull (strstr (error->message, expected));
  g_string_free (t, TRUE);
}

/* A run record's extensions keep their long arrays packed, and the record
 * writes them back as the numbers they were (integers, doubles, the two
 * mixed, "nan"), as a tree of the same text writes them. */
static void
test_record_extensions (void)
{
  g_autoptr (TlJob) job = tl_job_new_gemm (8, 8, 8, TL_DTYPE_FLOAT32);
  g_autoptr (TlRunRecord) record = tl_run_record_new (job);
  g_autofree char *text = tl_run_record_to_string (record, FALSE);
  g_autofree char *ints = array_text (100, "%u", 5, "-9223372036854775808");
  g_autofree char *doubles = array_text (50, "%u.125", 3, "\"nan\"");
  g_autofree char *mixed = array_text (40, "%u.5", 7, "12");
  g_autofree char *ext = g_strdup_printf ("{\"a\": %s, \"b\": {\"c\": [%s, %s]}, \"s\": [1, 2]}",
                                          ints, doubles, mixed);
  char *last = strrchr (text, '}');
  g_autofree char *with = g_strdup_printf ("%.*s, \"extensions\": %s}", (int) (last - text), text,
                                           ext);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlRunRecord) back = tl_run_record_from_data (with, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (back->extensions_packed);
  g_assert_nonnull (tl_json_packed_of (json_object_get_array_member (back->extensions, "a")));
  g_autoptr (TlRunRecord) copy = tl_run_record_copy (back);
  g_clear_pointer (&back, tl_run_record_unref);

  /* written back: the extensions as json-glib writes the same text's tree */
  g_autofree char *written = tl_run_record_to_string (copy, FALSE);
  g_autoptr (JsonNode) tree = tl_json_parse (written, strlen (written), &error);
  g_assert_no_error (error);
  g_autoptr (JsonNode) expected = tl_json_parse (ext, strlen (ext), &error);
  g_assert_no_error (error);
  JsonNode *got = json_object_get_member (json_node_get_object (tree), "extensions");
  g_autofree char *a = tl_json_to_data (got, FALSE, NULL);
  g_autofree char *b = tl_json_to_data (expected, FALSE, NULL);
  g_assert_cmpstr (a, ==, b);
  g_autofree char *pretty = tl_run_record_to_string (copy, TRUE);
  g_autoptr (TlRunRecord) again = tl_run_record_from_data (pretty, -1, &error);
  g_assert_no_error (error);
  g_autofree char *written_again = tl_run_record_to_string (again, FALSE);
  g_assert_cmpstr (written_again, ==, written);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-pack/read-alike", test_read_alike);
  g_test_add_func ("/json-pack/narrow", test_narrow);
  g_test_add_func ("/json-pack/many-mixed", test_many_mixed);
  g_test_add_func ("/json-pack/unpack", test_unpack);
  g_test_add_func ("/json-pack/forged", test_forged);
  g_test_add_func ("/json-pack/errors", test_errors);
  g_test_add_func ("/json-pack/record", test_record);
  g_test_add_func ("/json-pack/budget", test_budget);
  g_test_add_func ("/json-pack/stream", test_stream);
  g_test_add_func ("/json-pack/record-extensions", test_record_extensions);
  g_test_add_func ("/json-pack/tree-array-bound", test_tree_array_bound);
  return g_test_run ();
}
