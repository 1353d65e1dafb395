/* tilelab-cli info — what is in a matrix file: format, shape, dtype,
 * range, NaN/Inf counts and norms; for a run or Gauss record, what it
 * holds (cli-info-record.c).  A malformed file gives one line,
 * "tilelab-cli info: FILE:LINE:COL: what was expected". */
#include "tl-cli.h"
#include "io/tl-io-summary.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>

static void
print_info (const char *path, const TlFileSummary *file, const TlLoadInfo *info)
{
  TlFormat format = info->format;
  const TlMatrixStats *st = &file->summary.stats;
  g_autofree char *bytes = g_format_size_full ((guint64) file->rows * file->cols
                                               * tl_dtype_size (file->dtype),
                                               G_FORMAT_SIZE_IEC_UNITS);

  printf ("%s\n", path);
  printf ("  %-10s %s (%s)\n", _("format"), tl_format_title (format), tl_format_name (format));
  /* a choice the reader made: what a .txt's first line "2 2" was taken for */
  if (info->note)
    printf ("  %-10s %s\n", _("read as"), info->note);
  printf ("  %-10s %zu × %zu\n", _("shape"), file->rows, file->cols);
  printf ("  %-10s %s (%s in memory)\n", _("dtype"), tl_dtype_name (file->dtype), bytes);
  if (st->n_finite > 0)
    {
      printf ("  %-10s %.9g\n", _("min"), st->min);
      printf ("  %-10s %.9g\n", _("max"), st->max);
      printf ("  %-10s %.9g\n", _("mean"), st->mean);
    }
  else
    printf ("  %-10s %s\n", _("values"), _("no finite values"));
  printf ("  %-10s %zu\n", _("NaN"), st->n_nan);
  printf ("  %-10s %zu\n", _("Inf"), st->n_inf);
  printf ("  %-10s 1: %.9g   ∞: %.9g   Frobenius: %.9g   max: %.9g\n", _("norms"),
          file->summary.norm_one, file->summary.norm_inf, file->summary.norm_frobenius,
          file->summary.norm_max);
}

int
tl_cli_info (int argc, char **argv)
{
  g_autofree char *format_name = NULL;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      N_("Read the files as F: mtx, npy, csv or text (default: by content and name)"), "F" },
    { NULL }
  };
  g_set_prgname ("tilelab-cli info");
  g_autoptr (GOptionContext) context = g_option_context_new (N_("FILE… — describe matrix files"));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    _("Prints each file's format, shape, dtype, min/max/mean, NaN and Inf counts\n"
      "and norms.  Formats: Matrix Market (.mtx), NumPy (.npy), CSV/TSV (.csv,\n"
      ".tsv) and Tilelab text (.txt).  A run record or Gauss step record (.json)\n"
      "gets a summary: its kind, job, kernels, device and date.  A malformed file\n"
      "gives one line naming the file, the line and what was expected; the exit\n"
      "code is then 1."));
  if (!tl_cli_parse (context, &argc, &argv))
    return TL_CLI_USAGE;

  TlFormat format = TL_FORMAT_AUTO;
  if (format_name && !tl_format_from_name (format_name, &format))
    return tl_cli_usage_error ("info", _("unknown format “%s”: expected mtx, npy, csv or text"),
                               format_name);
  if (argc < 2)
    return tl_cli_usage_error ("info", _("name at least one FILE"));

  int status = TL_CLI_OK;
  for (int k = 1; k < argc; k++)
    {
      g_autoptr (GError) error = NULL;
      TlCliInfoKind kind = format == TL_FORMAT_AUTO ? tl_cli_info_sniff (argv[k])
                                                    : TL_CLI_INFO_MATRIX;
      if (kind == TL_CLI_INFO_RECORD)
        {
          if (tl_cli_info_record (argv[k], k > 1) != TL_CLI_OK)
            status = TL_CLI_FAILURE;
          continue;
        }
      TlLoadInfo info;
      TlFileSummary file;
      gboolean read = tl_matrix_file_summarize (argv[k], format, &info, &file, &error);
      if (!read && kind == TL_CLI_INFO_UNKNOWN)
        {
          /* nothing named the format: say what was tried */
          g_autofree char *name = g_filename_display_name (argv[k]);
          g_printerr (_("tilelab-cli info: %s: not a format Tilelab reads: tried Matrix Market "
                        "(no “%%%%MatrixMarket” banner), NumPy .npy (no magic), run and Gauss "
                        "records (no JSON object), then text and CSV: %s\n"),
                      name, error->message);
          status = TL_CLI_FAILURE;
          continue;
        }
      if (!read)
        {
          tl_cli_fail ("info", error);
          status = TL_CLI_FAILURE;
          continue;
        }
      if (k > 1)
        printf ("\n");
      print_info (argv[k], &file, &info);
      tl_load_info_clear (&info);
    }
  return status;
}
