/* test-json.c — the one door JSON comes through: strict, bounded, never
 * blocking on what is not a regular file. */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/stat.h>

#include "memory-test-util.h"
#include "core/tl-error.h"
#include "core/tl-file.h"
#include "core/tl-json.h"

static gboolean
strict (const char *text)
{
  return tl_json_check_text (text, strlen (text), NULL);
}

static void
test_strict (void)
{
  static const char *const good[] = {
    "{}", "[]", "0", "-0.5e+3", "\"a\\u00e9\\n\"", "true", " [1, {\"a\": null}] \n",
    "{\"s\": \"[[[{{{\\\"\"}", "[1e-400]", "[-9223372036854775808]", "[1.7976931348623157e308]",
    "\"\\ud83d\\ude00\"",
  };
  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    if (!strict (good[i]))
      g_error ("refused valid JSON %s", good[i]);

  /* json-glib accepts some of these; the door does not */
  static const char *const bad[] = {
    "", " ", "['a']", "{'a': 1}", "[/* c */ 1]", "[1,]", "{\"a\" 1}", "[01]", "[1.]", "[.5]",
    "[+1]", "[1e]", "[nan]", "[Infinity]", "\"\\x\"", "\"a\tb\"", "[1] [2]", "{\"a\":1",
    "[\"\\u12\"]", "tru", "\xef\xbb\xbf{}",
    /* what json-glib reads wrongly or silently: a member twice (the last
     * wins), an integer beyond 64 bits (garbage), 1e400 (infinity), bytes
     * that are not UTF-8, a lone surrogate */
    "{\"a\": 1, \"a\": 2}", "{\"a\": 1, \"\\u0061\": 2}", "[100000000000000000000000]",
    "[9223372036854775808]", "[1e400]", "[-1e400]", "[\"\xff\"]", "[\"\\ud800\"]",
  };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      if (tl_json_check_text (bad[i], strlen (bad[i]), &error))
        g_error ("accepted %s", bad[i]);
      g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
      g_assert_nonnull (strstr (error->message, "line 1, column"));
    }
}

/* Messages say where: the line, the column and the JSON path. */
static void
test_paths (void)
{
  static const struct { const char *text, *where; } cases[] = {
    { "{\"runs\": [{\"id\": 1}, {\"id\": 2, \"id\": 3}]}", "($.runs[1].id): the member “id” is given twice" },
    { "{\"job\": {\"m\": 100000000000000000000000}}", "($.job.m): the integer 100000000000000000000000 is beyond" },
    { "{\"a\": [0, 1, 2e999]}", "line 1, column 14 ($.a[2]): the number 2e999 is beyond the range of float64" },
    { "{\"kernel_id\": \"gemm\xc3\x28\"}", "($.kernel_id): a string that is not UTF-8 (byte 0xc3)" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (tl_json_check_text (cases[i].text, strlen (cases[i].text), &error));
      g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
      if (strstr (error->message, cases[i].where) == NULL)
        g_error ("“%s” lacks “%s”", error->message, cases[i].where);
    }
}

/* A document whose tree would not fit the budget is refused before
 * json-glib builds it (here under a real ulimit -v, in a child). */
static void
test_tree_budget (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif
  if (g_test_subprocess ())
    {
      GString *t = g_string_new ("{\"extensions\": {\"big\": [0");
      for (int i = 0; i < 2000000; i++)
        g_string_append (t, ",1.5");
      g_string_append (t, "]}}");
      tl_test_limit_address_space (96 << 20);
      g_autoptr (GError) error = NULL;
      g_assert_null (tl_json_parse (t->str, t->len, &error));
      g_assert_error (error, TL_ERROR, TL_ERROR_TOO_LARGE);
      g_assert_nonnull (strstr (error->message, "the JSON document as a tree needs"));
      g_string_free (t, TRUE);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_depth (void)
{
  /* exactly TL_JSON_MAX_DEPTH levels pass, one more does not */
  GString *t = g_string_new (NULL);
  for (int i = 0; i < TL_JSON_MAX_DEPTH; i++)
    g_string_append_c (t, '[');
  for (int i = 0; i < TL_JSON_MAX_DEPTH; i++)
    g_string_append_c (t, ']');
  g_assert_true (strict (t->str));
  g_autoptr (JsonNode) root = tl_json_parse (t->str, t->len, NULL);
  g_assert_nonnull (root);
  g_string_insert_c (t, 0, '[');
  g_string_append_c (t, ']');
  g_autoptr (GError) error = NULL;
  g_assert_false (tl_json_check_text (t->str, t->len, &error));
  g_assert_nonnull (strstr (error->message, "nested deeper"));
  g_string_free (t, TRUE);

  /* a million brackets: refused on the raw text, no recursion anywhere */
  g_autofree char *deep = g_strnfill (1000000, '{');
  g_clear_error (&error);
  g_assert_null (tl_json_parse (deep, strlen (deep), &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_PARSE);
}

static void
test_files (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tilelab-json-XXXXXX", &error);
  g_assert_no_error (error);

  /* a FIFO without a writer is refused at once, not waited on */
  g_autofree char *fifo = g_build_filename (dir, "fifo.json", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  gint64 t0 = g_get_monotonic_time ();
  g_assert_null (tl_json_load_file (fifo, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 5 * G_USEC_PER_SEC);
  g_clear_error (&error);

  g_assert_null (tl_json_load_file (dir, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "folder"));
  g_clear_error (&error);

  g_autofree char *missing = g_build_filename (dir, "missing.json", NULL);
  g_assert_null (tl_json_load_file (missing, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_IO);
  g_clear_error (&error);

  /* a file over the reader's limit is refused before it is read */
  g_autofree char *big = g_build_filename (dir, "big.json", NULL);
  g_assert_true (g_file_set_contents (big, "[1, 2, 3, 4, 5]", -1, NULL));
  g_autofree char *data = NULL;
  gsize len = 0;
  g_assert_false (tl_file_read_all (big, 8, &data, &len, &error));
  g_assert_error (error, TL_ERROR, TL_ERROR_TOO_LARGE);
  g_clear_error (&error);
  g_assert_true (tl_file_read_all (big, 15, &data, &len, &error));
  g_assert_cmpuint (len, ==, 15);
  g_autoptr (JsonNode) root = tl_json_load_file (big, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (root)), ==, 5);

  g_unlink (big);
  g_unlink (fifo);
  g_rmdir (dir);
}

/* What the writer prints is strict JSON and reads back exactly: json-glib
 * alone prints 1e22 as "1e+22.0"; a string that looks like a number is
 * left alone. */
static void
test_write (void)
{
  const double values[] = { 1e22, -1e108, 1e-8, 5e-324, 1.7976931348623157e308, 3.0, -0.0,
                            0.1, 1e16, 123.5 };
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    json_builder_add_double_value (b, values[i]);
  json_builder_end_array (b);
  tl_json_member_string (b, "text", "1e+22.0 \"2e5.0\"");
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  for (int pretty = 0; pretty <= 1; pretty++)
    {
      gsize len = 0;
      g_autofree char *text = tl_json_to_data (root, pretty, &len);
      g_assert_cmpuint (len, ==, strlen (text));
      g_autoptr (GError) error = NULL;
      g_autoptr (JsonNode) back = tl_json_parse (text, len, &error);
      g_assert_no_error (error);
      JsonObject *o = json_node_get_object (back);
      JsonArray *a = json_object_get_array_member (o, "values");
      g_assert_cmpuint (json_array_get_length (a), ==, G_N_ELEMENTS (values));
      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        g_assert_cmpfloat (json_array_get_double_element (a, i), ==, values[i]);
      g_assert_cmpstr (json_object_get_string_member (o, "text"), ==, "1e+22.0 \"2e5.0\"");
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/strict", test_strict);
  g_test_add_func ("/json/depth", test_depth);
  g_test_add_func ("/json/paths", test_paths);
  g_test_add_func ("/json/tree-budget", test_tree_budget);
  g_test_add_func ("/json/files", test_files);
  g_test_add_func ("/json/write", test_write);
  return g_test_run ();
}
