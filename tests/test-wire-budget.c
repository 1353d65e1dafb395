/* test-wire-budget.c — the worker protocol's messages read under the
 * bounds records are read under: what a broken or hostile peer sends is
 * refused with the message named, never a tree without bound. */
#include <string.h>

#include "core/tl-json-check.h"
#include "core/tl-json-read.h"
#include "memory-test-util.h"
#include "remote/tl-wire.h"

/* The line parsed: NULL and the error's message when refused. */
static JsonObject *
parse (const GString *line, char **message)
{
  g_autoptr (GError) error = NULL;
  const char *type = NULL;
  JsonObject *msg = tl_wire_parse (line->str, line->len, &type, &error);
  *message = msg ? NULL : g_strdup (error->message);
  if (msg == NULL)
    g_assert_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL);
  return msg;
}

/* {"type":"result","values":[ITEM,ITEM,…]} with n items. */
static GString *
message_of (const char *item, gsize n)
{
  GString *line = g_string_new ("{\"type\":\"result\",\"values\":[");
  for (gsize i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (line, ',');
      g_string_append (line, item);
    }
  g_string_append (line, "]}");
  return line;
}

static void
test_budgets (void)
{
  char *message = NULL;
  /* a long array of numbers is read (packed, then a tree within the budget) */
  GString *numbers = message_of ("12.5", 300000);
  g_autoptr (JsonObject) ok = parse (numbers, &message);
  g_assert_nonnull (ok);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (ok, "values")), ==,
                    300000);
  g_assert_cmpfloat (json_array_get_double_element (json_object_get_array_member (ok, "values"),
                                                    299999), ==, 12.5);
  g_string_free (numbers, TRUE);

  /* an array of more than 2²⁰ values that are not numbers */
  GString *strings = message_of ("\"x\"", TL_JSON_MAX_TREE_ARRAY + 1);
  g_assert_null (parse (strings, &message));
  g_assert_nonnull (strstr (message, "$.values["));
  g_assert_nonnull (strstr (message, "beginning “{\"type\":\"result\""));
  g_clear_pointer (&message, g_free);
  g_string_free (strings, TRUE);

  /* a string over 1 MiB */
  GString *text = g_string_new ("{\"type\":\"log\",\"text\":\"");
  for (gsize i = 0; i <= TL_JSON_MAX_STRING; i++)
    g_string_append_c (text, 'a');
  g_string_append (text, "\"}");
  g_assert_null (parse (text, &message));
  g_assert_nonnull (strstr (message, "beginning “{\"type\":\"log\""));
  g_clear_pointer (&message, g_free);
  g_string_free (text, TRUE);

  /* nesting beyond 64 levels */
  GString *deep = g_string_new ("{\"type\":\"x\",\"a\":");
  for (int i = 0; i < 100; i++)
    g_string_append_c (deep, '[');
  g_assert_null (parse (deep, &message));
  g_clear_pointer (&message, g_free);
  g_string_free (deep, TRUE);
}

/* A long array of numbers stays a typed array (8 bytes a number, no
 * tree of 80), read through the readers' accessors as any other array,
 * for as long as its hold is kept. */
static void
test_packed (void)
{
  g_autoptr (GString) line = message_of ("12.5", 300000);
  g_autoptr (GError) error = NULL;
  g_autoptr (TlJsonPackStore) arrays = NULL;
  const char *type = NULL;
  g_autoptr (JsonObject) msg = tl_wire_parse_packed (line->str, line->len, &type, &arrays,
                                                      &error);
  g_assert_no_error (error);
  g_assert_cmpstr (type, ==, "result");
  g_assert_nonnull (arrays);
  JsonArray *values = json_object_get_array_member (msg, "values");
  g_assert_cmpuint (json_array_get_length (values), ==, 1); /* its placeholder */
  g_assert_cmpuint (tl_json_array_length (values), ==, 300000);
  g_autofree double *v = NULL;
  g_assert_true (tl_json_array_values (values, "$.values", 300000, &v, &error));
  g_assert_cmpfloat (v[0], ==, 12.5);
  g_assert_cmpfloat (v[299999], ==, 12.5);

  /* a short array and a message without numbers: a tree, no hold */
  g_autoptr (GString) few = message_of ("1", 5);
  g_autoptr (TlJsonPackStore) none = NULL;
  g_autoptr (JsonObject) small = tl_wire_parse_packed (few->str, few->len, &type, &none, &error);
  g_assert_no_error (error);
  g_assert_null (none);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (small, "values")), ==, 5);
}

/* An array of numbers longer than the memory there is for it (16 M
 * numbers, 128 MiB as float64, under a limit of 96 MiB): refused as it
 * grows, the message naming the member and what it needed. */
static void
test_too_long (void)
{
#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer reserves terabytes of address space");
  return;
#endif
  if (g_test_subprocess ())
    {
      g_autoptr (GString) line = message_of ("1.5", 16u << 20);
      tl_test_limit_address_space (96 << 20);
      g_autoptr (TlJsonPackStore) arrays = NULL;
      const char *type = NULL;
      char *message = NULL;
      g_autoptr (GError) error = NULL;
      g_assert_null (tl_wire_parse_packed (line->str, line->len, &type, &arrays, &error));
      g_assert_error (error, TL_REMOTE_ERROR, TL_REMOTE_ERROR_PROTOCOL);
      g_assert_null (arrays);
      message = error->message;
      g_test_message ("%s", message);
      g_assert_nonnull (strstr (message, "$.values"));
      g_assert_nonnull (strstr (message, "an array of numbers in the JSON document needs"));
      g_assert_nonnull (strstr (message, "beginning “{\"type\":\"result\""));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wire/budgets", test_budgets);
  g_test_add_func ("/wire/packed", test_packed);
  g_test_add_func ("/wire/too-long", test_too_long);
  return g_test_run ();
}
