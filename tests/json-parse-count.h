/* json-parse-count.h — how many JSON texts this process has parsed.
 *
 * tl_json_parse logs "JSON: parsed N bytes" at debug level for every tree
 * it builds; a test installs this log writer first thing in main (a
 * process has one writer) and reads the count around what it checks —
 * opening a record file must parse it once, not once per reader. */
#pragma once

#include <glib.h>

static gint json_parses;

static GLogWriterOutput
json_parse_count_writer (GLogLevelFlags level, const GLogField *fields, gsize n_fields,
                         gpointer user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_strcmp0 (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0
        && g_str_has_prefix (fields[i].value, "JSON: parsed "))
      g_atomic_int_inc (&json_parses);
  return g_log_writer_default (level, fields, n_fields, user_data);
}

static inline void
json_parse_count_install (void)
{
  g_log_set_writer_func (json_parse_count_writer, NULL, NULL);
}

static inline guint
json_parse_count (void)
{
  return (guint) g_atomic_int_get (&json_parses);
}
