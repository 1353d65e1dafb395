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
      "renamed, so a failure never leaves a half-written file."));
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
  TlFormat used;
  g_autoptr (TlMatrix) m = tl_matrix_load_full (argv[1], from, &used, &error);
  if (m == NULL)
    return tl_cli_fail ("convert", error);
  if (dtype_name && dtype != m->dtype)
    {
      if (dtype == TL_DTYPE_INT32 && !round_values && !check_int32 (m, &error))
        return tl_cli_fail ("convert", error);
      TlMatrix *c = tl_matrix_convert (m, dtype, &error);
      if (c == NULL)
        return tl_cli_fail ("convert", error);
      tl_matrix_unref (m);
      m = c;
    }
  if (!tl_matrix_save (m, argv[2], to, &error))
    return tl_cli_fail ("convert", error);
  TlFormat written = to != TL_FORMAT_AUTO ? to : tl_format_from_path (argv[2]);
  printf (_("%s (%s) → %s (%s): %zu × %zu %s\n"), argv[1], tl_format_name (used), argv[2],
          tl_format_name (written), m->rows, m->cols, tl_dtype_name (m->dtype));
  return TL_CLI_OK;
}
