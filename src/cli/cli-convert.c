/* tilelab-cli convert — read a matrix in one format, write it in another. */
#include "tl-cli.h"
#include "core/tl-error.h"
#include "io/tl-io.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>

/* Converting to int32 must not lose anything silently: every value has to
 * be a whole number in range, unless --round asks for rounding. */
static gboolean
check_int32 (const TlMatrix *m, GError **error)
{
  if (m->dtype == TL_DTYPE_INT32)
    return TRUE;
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      {
        double v = tl_matrix_get (m, i, j);
        if (!isfinite (v) || v != nearbyint (v) || v < G_MININT32 || v > G_MAXINT32)
          {
            g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                         _("the value at row %zu, column %zu (%.17g) is not an int32 integer; "
                           "use --round to round to the nearest (NaN becomes 0, the rest "
                           "saturates)"), i + 1, j + 1, v);
            return FALSE;
          }
      }
  return TRUE;
}

typedef struct
{
  const char *in, *out;
  TlFormat from, to, used;
  gboolean change_dtype, round_values;
  TlDtype dtype;
  TlMatrix *m;
} Convert;

/* Load, convert, save: on the worker of tl_cli_run_work, cancellable by
 * Ctrl+C at any point (the save's temporary file removed). */
static gboolean
convert_work (gpointer data, GCancellable *cancellable, GError **error)
{
  Convert *c = data;
  TlLoadInfo info;
  c->m = tl_matrix_load_with (c->in, c->from, cancellable, &info, error);
  if (c->m == NULL)
    return FALSE;
  c->used = info.format;
  tl_load_info_clear (&info);
  if (c->change_dtype && c->dtype != c->m->dtype)
    {
      if (c->dtype == TL_DTYPE_INT32 && !c->round_values && !check_int32 (c->m, error))
        return FALSE;
      if (c->dtype == TL_DTYPE_FLOAT32 && !tl_matrix_fits_float32 (c->m, error))
        return FALSE;
      TlMatrix *converted = tl_matrix_convert (c->m, c->dtype, error);
      if (converted == NULL)
        return FALSE;
      tl_matrix_unref (c->m);
      c->m = converted;
    }
  return tl_matrix_save_with (c->m, c->out, c->to, cancellable, error);
}

int
tl_cli_convert (int argc, char **argv)
{
  g_autofree char *format_name = NULL, *from_name = NULL, *dtype_name = NULL;
  gboolean round_values = FALSE;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_("Write OUT as F: mtx, npy, csv or text (default: by OUT's extension)"), "F" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_name,
      N_("Read IN as F (default: by content and extension)"), "F" },
    { "dtype", 'd', 0, G_OPTION_ARG_STRING, &dtype_name,
      N_("Convert to D: int32, float32 or float64 (default: keep)"), "D" },
    { "round", 0, 0, G_OPTION_ARG_NONE, &round_values,
      N_("Allow rounding when converting to int32"), NULL },
    { NULL }
  };
  g_set_prgname ("tilelab-cli convert");
  g_autoptr (GOptionContext) context = g_option_context_new (N_("IN OUT — convert a matrix file"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    _("Reads IN and writes OUT, in the format OUT's extension names (.mtx, .npy,\n"
      ".csv, .tsv, .txt) or --format.  OUT is written to a temporary file and\n"
      "renamed, so a failure never leaves a half-written file; OUT “-” is standard\n"
      "output (with --format)."));
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;

  TlFormat to = TL_FORMAT_AUTO, from = TL_FORMAT_AUTO;
  TlDtype dtype = TL_DTYPE_FLOAT64;
  if (format_name && (!tl_format_from_name (format_name, &to) || to == TL_FORMAT_AUTO))
    return tl_cli_usage_error ("convert", _("unknown format “%s”: expected mtx, npy, csv or text"),
                               format_name);
  if (from_name && !tl_format_from_name (from_name, &from))
    return tl_cli_usage_error ("convert", _("unknown format “%s”: expected mtx, npy, csv or text"),
                               from_name);
  if (dtype_name && !tl_dtype_from_name (dtype_name, &dtype))
    return tl_cli_usage_error ("convert", _("unknown dtype “%s”: expected int32, float32 or float64"),
                               dtype_name);
  if (argc != 3)
    return tl_cli_usage_error ("convert", _("expected IN and OUT"));
  if (to == TL_FORMAT_AUTO && tl_format_from_path (argv[2]) == TL_FORMAT_AUTO)
    return tl_cli_usage_error ("convert",
                               _("cannot tell the format of “%s” from its name: use --format"),
                               argv[2]);

  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  tl_cli_catch_interrupts (cancellable);
  Convert c = { .in = argv[1], .out = argv[2], .from = from, .to = to,
                .change_dtype = dtype_name != NULL, .round_values = round_values,
                .dtype = dtype };
  gboolean ok = tl_cli_run_work (convert_work, &c, cancellable, &error);
  g_autoptr (TlMatrix) m = c.m;
  if (!ok)
    return tl_cli_fail ("convert", error);
  /* standard output holds the matrix: no summary there */
  if (g_strcmp0 (argv[2], "-") == 0)
    return TL_CLI_OK;
  TlFormat written = to != TL_FORMAT_AUTO ? to : tl_format_from_path (argv[2]);
  printf (_("%s (%s) → %s (%s): %zu × %zu %s\n"), argv[1], tl_format_name (c.used), argv[2],
          tl_format_name (written), m->rows, m->cols, tl_dtype_name (m->dtype));
  return TL_CLI_OK;
}
