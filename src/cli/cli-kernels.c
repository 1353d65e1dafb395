/* tilelab-cli kernels — every GEMM kernel Tilelab knows, CPU and GPU. */
#include "tl-cli.h"
#include "gemm/tl-kernels.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

static char *
dtypes_text (guint mask)
{
  GString *s = g_string_new (NULL);
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    if (mask & TL_DTYPE_BIT (d))
      g_string_append_printf (s, "%s%s", s->len ? "," : "", tl_dtype_name (d));
  return g_string_free (s, FALSE);
}

static const char *
backend_name (TlBackend backend)
{
  return backend == TL_BACKEND_CPU ? "cpu" : "gpu";
}

/* pads by characters, not bytes: titles hold × and · */
static void
print_padded (const char *text, int width)
{
  long chars = g_utf8_strlen (text, -1);
  fputs (text, stdout);
  for (long i = chars; i < width; i++)
    fputc (' ', stdout);
}

static void
print_json (GPtrArray *rows)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const TlKernelInfo *k = rows->pdata[i];
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, k->id);
      json_builder_set_member_name (b, "backend");
      json_builder_add_string_value (b, backend_name (k->backend));
      json_builder_set_member_name (b, "number");
      json_builder_add_int_value (b, k->number);
      json_builder_set_member_name (b, "title");
      json_builder_add_string_value (b, k->title);
      json_builder_set_member_name (b, "lesson");
      json_builder_add_string_value (b, k->lesson);
      json_builder_set_member_name (b, "seed");
      json_builder_add_string_value (b, k->seed);
      json_builder_set_member_name (b, "dtypes");
      json_builder_begin_array (b);
      for (int d = 0; d < TL_DTYPE_COUNT; d++)
        if (tl_kernel_supports (k, d))
          json_builder_add_string_value (b, tl_dtype_name (d));
      json_builder_end_array (b);
      json_builder_set_member_name (b, "reference");
      json_builder_add_boolean_value (b, k->reference);
      json_builder_set_member_name (b, "records_blocks");
      json_builder_add_boolean_value (b, k->records_blocks);
      json_builder_set_member_name (b, "tile_m");
      json_builder_add_int_value (b, k->tile_m);
      json_builder_set_member_name (b, "tile_n");
      json_builder_add_int_value (b, k->tile_n);
      json_builder_set_member_name (b, "min_cc");
      json_builder_add_int_value (b, k->min_cc);
      json_builder_set_member_name (b, "precision");
      json_builder_add_string_value (b, k->precision);
      json_builder_set_member_name (b, "source_path");
      json_builder_add_string_value (b, k->source_path);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  g_autofree char *text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
}

static void
print_table (GPtrArray *rows)
{
  int w_id = 2, w_title = 5;
  for (guint i = 0; i < rows->len; i++)
    {
      const TlKernelInfo *k = rows->pdata[i];
      w_id = MAX (w_id, (int) g_utf8_strlen (k->id, -1));
      w_title = MAX (w_title, (int) g_utf8_strlen (_(k->title), -1));
    }
  print_padded ("ID", w_id + 2);
  print_padded ("BACKEND", 9);
  print_padded ("DTYPES", 23);
  print_padded ("SEED", 10);
  print_padded ("TITLE", w_title + 2);
  printf ("LESSON\n");
  for (guint i = 0; i < rows->len; i++)
    {
      const TlKernelInfo *k = rows->pdata[i];
      g_autofree char *dt = dtypes_text (k->dtypes);
      g_autofree char *backend = g_strdup_printf ("%s%s", backend_name (k->backend),
                                                  k->reference ? " ref" : "");
      print_padded (k->id, w_id + 2);
      print_padded (backend, 9);
      print_padded (dt, 23);
      print_padded (*k->seed ? k->seed : "-", 10);
      print_padded (_(k->title), w_title + 2);
      printf ("%s\n", *k->lesson ? _(k->lesson) : "");
    }
}

int
tl_cli_kernels (int argc, char **argv)
{
  gboolean json = FALSE;
  g_autofree char *backend = NULL;
  g_autofree char *dtype_name = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON instead of a table"), NULL },
    { "backend", 'b', 0, G_OPTION_ARG_STRING, &backend, N_("Only kernels of BACKEND (cpu, gpu)"),
      "BACKEND" },
    { "dtype", 'd', 0, G_OPTION_ARG_STRING, &dtype_name,
      N_("Only kernels that multiply DTYPE (int32, float32, float64)"), "DTYPE" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (N_("— list every GEMM kernel"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    N_("Lists the CPU kernels and the GPU ladder as one table: id, backend (\"ref\" marks\n"
    "the reference libraries), dtypes, the seed each comes from, title and lesson.\n"
    "The GPU rows are listed even without a GPU."));
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;
  if (argc > 1)
    return tl_cli_usage_error ("kernels", _("unexpected argument “%s”"), argv[1]);

  int want_backend = -1;
  if (backend)
    {
      if (g_ascii_strcasecmp (backend, "cpu") == 0)
        want_backend = TL_BACKEND_CPU;
      else if (g_ascii_strcasecmp (backend, "gpu") == 0)
        want_backend = TL_BACKEND_GPU;
      else
        return tl_cli_usage_error ("kernels", _("unknown backend “%s” (cpu or gpu)"), backend);
    }
  TlDtype dtype = TL_DTYPE_FLOAT32;
  if (dtype_name && !tl_dtype_from_name (dtype_name, &dtype))
    return tl_cli_usage_error ("kernels", _("unknown dtype “%s” (int32, float32, float64)"),
                               dtype_name);

  g_autoptr (GPtrArray) rows = g_ptr_array_new ();
  for (guint i = 0; i < tl_kernel_count (); i++)
    {
      const TlKernelInfo *k = tl_kernel_get (i);
      if (want_backend >= 0 && (int) k->backend != want_backend)
        continue;
      if (dtype_name && !tl_kernel_supports (k, dtype))
        continue;
      g_ptr_array_add (rows, (gpointer) k);
    }
  if (json)
    print_json (rows);
  else
    print_table (rows);
  return TL_CLI_OK;
}
