/* tl-user-log.c — reading NVRTC's log: diagnostics and ptxas's report.
 *
 * NVRTC's messages have the EDG front end's form:
 *
 *   mine.cu(7): error: identifier "j" is undefined
 *            s += a[i * k + p] * b[p * n + j];
 *                                          ^
 *
 * the source line printed after two spaces, and a caret under the column.
 * ptxas's verbose report follows the diagnostics, one block per entry:
 *
 *   ptxas info    : Compiling entry function '_Z4gemmIfEv…' for 'sm_90'
 *   ptxas info    : Function properties for _Z4gemmIfEv…
 *   ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *   ptxas info    : Used 32 registers, used 1 barriers, 2048 bytes smem, 400 bytes cmem[0]
 */
#include "gemm/tl-user-kernel-private.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>

void
tl_user_diagnostic_free (TlUserDiagnostic *d)
{
  if (d == NULL)
    return;
  g_free (d->severity);
  g_free (d->file);
  g_free (d->message);
  g_free (d->context);
  g_free (d);
}

/* "FILE(LINE): SEVERITY[ #NUMBER-D]: MESSAGE" */
static TlUserDiagnostic *
parse_head (const char *line)
{
  const char *open = strstr (line, "(");
  if (open == NULL || open == line)
    return NULL;
  char *end = NULL;
  long number = strtol (open + 1, &end, 10);
  if (end == open + 1 || strncmp (end, "): ", 3) != 0 || number < 1 || number > G_MAXINT)
    return NULL;
  const char *sev = end + 3;
  static const char *const severities[] = { "catastrophic error", "error", "warning", "remark" };
  for (guint i = 0; i < G_N_ELEMENTS (severities); i++)
    {
      gsize len = strlen (severities[i]);
      if (strncmp (sev, severities[i], len) != 0 || (sev[len] != ':' && sev[len] != ' '))
        continue;
      const char *msg = strstr (sev + len, ": ");
      if (msg == NULL)
        return NULL;
      TlUserDiagnostic *d = g_new0 (TlUserDiagnostic, 1);
      d->severity = g_strdup (i < 2 ? "error" : severities[i]);
      d->file = g_strndup (line, open - line);
      d->line = (int) number;
      d->message = g_strdup (msg + 2);
      return d;
    }
  return NULL;
}

/* The column from the caret line (the source line is printed after two
 * spaces, so the caret's index less two is the byte's). */
static int
caret_column (const char *const *context, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const char *caret = strchr (context[i], '^');
      if (caret != NULL && strspn (context[i], " ") == (gsize) (caret - context[i]))
        return MAX ((int) (caret - context[i]) - 2, 0) + 1;
    }
  return 0;
}

/* A diagnostic of the entry checks (the tail's lines carry the line of
 * the declaration they check): said at the declaration, with what the
 * entry must look like. */
static void
map_entry_check (TlUserDiagnostic *d, const TlUserKernel *k)
{
  for (int t = 0; t < TL_DTYPE_COUNT; t++)
    {
      const TlUserValue *v = tl_user_kernel_entry (k, (TlDtype) t);
      if (v == NULL || v->line != d->line)
        continue;
      static const char *const c_types[TL_DTYPE_COUNT] = {
        [TL_DTYPE_INT32] = "int", [TL_DTYPE_FLOAT32] = "float", [TL_DTYPE_FLOAT64] = "double"
      };
      const char *ct = c_types[t];
      char *message = g_strdup_printf (
        _("%s — the %s entry must be a kernel __global__ void %s (int m, int n, int k, const "
          "%s *A, const %s *B, %s *C)"),
        d->message, tl_user_kernel_dtype_key ((TlDtype) t), v->text, ct, ct, ct);
      g_free (d->message);
      d->message = message;
      d->column = v->column;
      g_autofree char *pad = g_strnfill (v->column - 1 + 2, ' ');
      g_auto (GStrv) lines = g_strsplit (tl_user_kernel_source (k), "\n", -1);
      g_free (d->context);
      d->context = g_strv_length (lines) >= (guint) d->line
                     ? g_strdup_printf ("  %s\n%s^", lines[d->line - 1], pad)
                     : NULL;
      return;
    }
}

void
tl_user_log_diagnostics (const char *log, const TlUserKernel *kernel, GPtrArray *diagnostics)
{
  g_auto (GStrv) lines = g_strsplit (log ? log : "", "\n", -1);
  guint n = g_strv_length (lines), first_new = diagnostics->len;
  gboolean file_errors = FALSE;
  for (guint i = 0; i < n; i++)
    {
      TlUserDiagnostic *d = parse_head (lines[i]);
      if (d == NULL)
        continue;
      guint first = i + 1, end = first;
      while (end < n && lines[end][0] != '\0' && !g_str_has_prefix (lines[end], "ptxas"))
        {
          TlUserDiagnostic *next = parse_head (lines[end]);
          tl_user_diagnostic_free (next);
          if (next != NULL)
            break;
          end++;
        }
      d->column = caret_column ((const char *const *) lines + first, end - first);
      if (end > first)
        {
          g_autofree char **context = g_new0 (char *, end - first + 1);
          for (guint j = first; j < end; j++)
            context[j - first] = lines[j];
          d->context = g_strjoinv ("\n", context);
        }
      i = end - 1;
      if (strcmp (d->file, tl_user_kernel_file_name (kernel)) == 0)
        {
          file_errors = file_errors || strcmp (d->severity, "error") == 0;
          if (d->context && strstr (d->context, "tilelab_gemm_entry<") != NULL)
            map_entry_check (d, kernel);
          g_clear_pointer (&d->file, g_free);
        }
      g_ptr_array_add (diagnostics, d);
    }
  /* NVRTC's look-ups of the entries' names repeat what the file's own
   * errors (the entry checks among them) already said */
  for (guint i = diagnostics->len; file_errors && i-- > first_new;)
    {
      TlUserDiagnostic *d = diagnostics->pdata[i];
      if (d->file && strcmp (d->file, "__nv_name_map") == 0)
        g_ptr_array_remove_index (diagnostics, i);
    }
}

/* "N bytes WHAT" anywhere in line, summed over every occurrence (cmem[0],
 * cmem[2], …). */
static int
sum_bytes (const char *line, const char *what)
{
  int total = 0;
  for (const char *at = strstr (line, what); at != NULL; at = strstr (at + 1, what))
    {
      const char *b = at;
      while (b > line && b[-1] == ' ')
        b--;
      if (b - line < 6 || strncmp (b - 6, " bytes", 6) != 0)
        continue;
      const char *num = b - 6;
      while (num > line && g_ascii_isdigit (num[-1]))
        num--;
      total += atoi (num);
    }
  return total;
}

static int
number_before (const char *line, const char *what)
{
  const char *at = strstr (line, what);
  if (at == NULL)
    return 0;
  const char *num = at;
  while (num > line && num[-1] == ' ')
    num--;
  while (num > line && g_ascii_isdigit (num[-1]))
    num--;
  return atoi (num);
}

gboolean
tl_user_log_resources (const char *log, const char *lowered, TlUserResources *out)
{
  memset (out, 0, sizeof *out);
  if (log == NULL || lowered == NULL)
    return FALSE;
  g_autofree char *head = g_strdup_printf ("Compiling entry function '%s'", lowered);
  const char *at = strstr (log, head);
  if (at == NULL)
    return FALSE;
  g_auto (GStrv) lines = g_strsplit (at + strlen (head), "\n", -1);
  for (guint i = 1; lines[i] && strstr (lines[i], "Compiling entry function") == NULL; i++)
    {
      const char *l = lines[i];
      if (strstr (l, "bytes stack frame"))
        {
          out->stack_bytes = number_before (l, "bytes stack frame");
          out->spill_stores = number_before (l, "bytes spill stores");
          out->spill_loads = number_before (l, "bytes spill loads");
        }
      else if (strstr (l, "Used ") && strstr (l, "registers"))
        {
          out->found = TRUE;
          out->registers = number_before (l, "registers");
          out->barriers = number_before (l, "barriers");
          out->smem_bytes = sum_bytes (l, "smem");
          out->cmem_bytes = sum_bytes (l, "cmem[");
        }
    }
  return out->found;
}
