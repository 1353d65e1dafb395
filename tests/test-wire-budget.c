/* test-wire-budget.c — the worker protocol's messages read under the
 * bounds records are read under: what a broken or hostile peer sends is
 * refused with the message named, never a tree without bound. */
#include <string.h>

#include "core/tl-json-check.h"
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wire/budgets", test_budgets);
  return g_test_run ();
}
