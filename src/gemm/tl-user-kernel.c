/* tl-user-kernel.c — a kernel file read: its declarations and geometry. */
#include "gemm/tl-user-kernel-private.h"
#include "gemm/tl-user-expr.h"
#include "core/tl-error.h"
#include "core/tl-file.h"

#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <string.h>

static const char *const dtype_keys[TL_DTYPE_COUNT] = {
  [TL_DTYPE_INT32] = "int32",
  [TL_DTYPE_FLOAT32] = "float32",
  [TL_DTYPE_FLOAT64] = "float64",
};

/* "mine.cu:4:17: " */
static void G_GNUC_PRINTF (5, 6)
set_parse_error (GError **error, const TlUserKernel *kernel, int line, int column,
                 const char *format, ...)
{
  va_list ap;
  va_start (ap, format);
  g_autofree char *text = g_strdup_vprintf (format, ap);
  va_end (ap);
  g_set_error (error, TL_ERROR, TL_ERROR_PARSE, "%s:%d:%d: %s", kernel->path, line, column, text);
}

/* ---- one declaration -------------------------------------------------- */

static TlUserValue *
value_slot (TlUserKernel *k, const char *key, int *n_items, gboolean *is_list)
{
  *n_items = 1;
  *is_list = FALSE;
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    if (strcmp (key, dtype_keys[d]) == 0)
      return &k->entry[d];
  if (strcmp (key, "shared") == 0)
    return &k->shared;
  if (strcmp (key, "title") == 0)
    return &k->title;
  *is_list = TRUE;
  *n_items = strcmp (key, "tile") == 0 ? 2 : 3;
  return strcmp (key, "block") == 0 ? k->block
         : strcmp (key, "grid") == 0 ? k->grid
         : strcmp (key, "tile") == 0 ? k->tile
                                     : NULL;
}

/* An entry is a C++ name expression: a name, maybe qualified (::) or a
 * template's instance (<float>).  Anything else would break the checks
 * compiled after the file. */
static gboolean
check_entry_name (TlUserKernel *k, const TlUserValue *v, GError **error)
{
  const char *t = v->text;
  if (!(g_ascii_isalpha (t[0]) || t[0] == '_' || t[0] == ':'))
    {
      set_parse_error (error, k, v->line, v->column,
                       _("an entry is a kernel's name, e.g. my_gemm or my_gemm<float>"));
      return FALSE;
    }
  for (const char *c = t; *c; c++)
    if (!(g_ascii_isalnum (*c) || strchr ("_:<>, ", *c) != NULL))
      {
        set_parse_error (error, k, v->line, v->column + (int) (c - t),
                         _("“%c” cannot be part of a kernel's name"), *c);
        return FALSE;
      }
  return TRUE;
}

/* The syntax of an expression (its values are checked at each size). */
static gboolean
check_expression (TlUserKernel *k, const TlUserValue *v, GError **error)
{
  gint64 ignored = 0;
  gsize at = 0;
  g_autofree char *why = NULL;
  if (tl_user_expr_eval (v->text, NULL, &ignored, &at, &why))
    return TRUE;
  set_parse_error (error, k, v->line, v->column + (int) at, "%s", why);
  return FALSE;
}

/* Splits a list at its top-level commas into items[n] (at most n), each
 * syntax-checked as an expression. */
static gboolean
parse_list (TlUserKernel *k, const char *key, const char *text, int line, int column,
            TlUserValue *items, int n, GError **error)
{
  int count = 0, depth = 0;
  const char *start = text;
  for (const char *c = text;; c++)
    {
      if (*c == '(')
        depth++;
      else if (*c == ')')
        depth--;
      if (*c != '\0' && (*c != ',' || depth > 0))
        continue;
      if (count == n)
        {
          while (g_ascii_isspace (*start))
            start++;
          set_parse_error (error, k, line, column + (int) (start - text),
                           ngettext ("“%s” takes at most %d value", "“%s” takes at most %d values",
                                     n),
                           key, n);
          return FALSE;
        }
      const char *a = start, *b = c;
      while (a < b && g_ascii_isspace (*a))
        a++;
      while (b > a && g_ascii_isspace (b[-1]))
        b--;
      TlUserValue *v = &items[count++];
      v->text = g_strndup (a, b - a);
      v->line = line;
      v->column = column + (int) (a - text);
      if (*v->text == '\0')
        {
          set_parse_error (error, k, line, v->column, _("a value is missing"));
          return FALSE;
        }
      if (!check_expression (k, v, error))
        return FALSE;
      if (*c == '\0')
        break;
      start = c + 1;
    }
  if (strcmp (key, "tile") == 0 && count != 2)
    {
      set_parse_error (error, k, line, column,
                       _("“tile” takes two values: the rows and the columns of C one block "
                         "computes"));
      return FALSE;
    }
  return TRUE;
}

/* "// tilelab: KEY = VALUE" at text (the line, without its newline). */
static gboolean
parse_declaration (TlUserKernel *k, const char *line_text, const char *after_tag, int line,
                   GError **error)
{
  const char *c = after_tag;
  while (*c == ' ' || *c == '\t')
    c++;
  const char *key_start = c;
  while (g_ascii_isalnum (*c) || *c == '_')
    c++;
  g_autofree char *key = g_strndup (key_start, c - key_start);
  int key_column = (int) (key_start - line_text) + 1;
  int n_items = 0;
  gboolean is_list = FALSE;
  TlUserValue *slot = *key ? value_slot (k, key, &n_items, &is_list) : NULL;
  if (slot == NULL)
    {
      set_parse_error (error, k, line, key_column,
                       _("unknown declaration “%s”: a kernel file declares float32, float64, "
                         "int32, block, grid, shared, tile and title"),
                       key);
      return FALSE;
    }
  while (*c == ' ' || *c == '\t')
    c++;
  if (*c != '=')
    {
      set_parse_error (error, k, line, (int) (c - line_text) + 1,
                       _("expected “=” after “%s”"), key);
      return FALSE;
    }
  if (slot->line > 0)
    {
      set_parse_error (error, k, line, key_column, _("“%s” is declared twice (first on line %d)"),
                       key, slot->line);
      return FALSE;
    }
  c++;
  while (*c == ' ' || *c == '\t')
    c++;
  g_autofree char *value = g_strchomp (g_strdup (c));
  int column = (int) (c - line_text) + 1;
  if (*value == '\0')
    {
      set_parse_error (error, k, line, column, _("“%s” has no value"), key);
      return FALSE;
    }
  if (is_list)
    {
      slot->line = line; /* the list's first item marks it declared */
      return parse_list (k, key, value, line, column, slot, n_items, error);
    }
  slot->text = g_steal_pointer (&value);
  slot->line = line;
  slot->column = column;
  if (slot == &k->title)
    return TRUE;
  return slot == &k->shared ? check_expression (k, slot, error) : check_entry_name (k, slot, error);
}

/* ---- the file --------------------------------------------------------- */

static gboolean
parse_declarations (TlUserKernel *k, GError **error)
{
  g_auto (GStrv) lines = g_strsplit (k->source, "\n", -1);
  for (int i = 0; lines[i]; i++)
    {
      char *text = lines[i];
      gsize len = strlen (text);
      if (len > 0 && text[len - 1] == '\r')
        text[len - 1] = '\0';
      const char *c = text;
      while (*c == ' ' || *c == '\t')
        c++;
      if (strncmp (c, "//", 2) != 0)
        continue;
      c += 2;
      while (*c == ' ' || *c == '\t')
        c++;
      if (strncmp (c, "tilelab:", 8) != 0)
        continue;
      if (!parse_declaration (k, text, c + 8, i + 1, error))
        return FALSE;
    }
  if (tl_user_kernel_dtypes (k) == 0)
    {
      set_parse_error (error, k, 1, 1,
                       _("the file declares no kernel: add a line “// tilelab: float32 = "
                         "NAME” naming its entry for float32 (float64 and int32 likewise)"));
      return FALSE;
    }
  if (k->block[0].text == NULL || k->grid[0].text == NULL)
    {
      set_parse_error (error, k, 1, 1,
                       _("the file declares no %s: add a line “// tilelab: %s”"),
                       k->block[0].text == NULL ? "block" : "grid",
                       k->block[0].text == NULL ? "block = 16, 16"
                                                : "grid = ceil_div(n, 16), ceil_div(m, 16)");
      return FALSE;
    }
  return TRUE;
}

TlUserKernel *
tl_user_kernel_parse (const char *path, const char *source, GError **error)
{
  g_return_val_if_fail (path != NULL && source != NULL, NULL);
  g_autoptr (TlUserKernel) k = g_new0 (TlUserKernel, 1);
  k->ref_count = 1;
  g_mutex_init (&k->lock);
  k->builds = g_ptr_array_new_with_free_func ((GDestroyNotify) tl_user_build_unref);
  k->path = g_strdup (path);
  k->file_name = g_path_get_basename (path);
  k->source = g_strdup (source);
  if (strlen (source) > TL_USER_KERNEL_MAX_BYTES)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
                   _("%s: a kernel file may have at most %d bytes"), path,
                   TL_USER_KERNEL_MAX_BYTES);
      return NULL;
    }
  const char *bad = NULL;
  if (!g_utf8_validate (source, -1, &bad))
    {
      int line = 1;
      for (const char *c = source; c < bad; c++)
        line += *c == '\n';
      set_parse_error (error, k, line, 1, _("the file is not UTF-8 text"));
      return NULL;
    }
  if (!parse_declarations (k, error))
    return NULL;
  return g_steal_pointer (&k);
}

TlUserKernel *
tl_user_kernel_load (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autofree char *text = NULL;
  gsize length = 0;
  if (!tl_file_read_all (path, TL_USER_KERNEL_MAX_BYTES, &text, &length, error))
    return NULL;
  if (memchr (text, '\0', length) != NULL)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_PARSE, _("%s: not a text file (it holds NUL bytes)"),
                   path);
      return NULL;
    }
  return tl_user_kernel_parse (path, text, error);
}

TlUserKernel *
tl_user_kernel_ref (TlUserKernel *kernel)
{
  g_return_val_if_fail (kernel != NULL, NULL);
  g_atomic_int_inc (&kernel->ref_count);
  return kernel;
}

static void
value_clear (TlUserValue *v)
{
  g_clear_pointer (&v->text, g_free);
}

void
tl_user_kernel_unref (TlUserKernel *kernel)
{
  if (kernel == NULL || !g_atomic_int_dec_and_test (&kernel->ref_count))
    return;
  for (int i = 0; i < TL_DTYPE_COUNT; i++)
    value_clear (&kernel->entry[i]);
  for (int i = 0; i < 3; i++)
    {
      value_clear (&kernel->block[i]);
      value_clear (&kernel->grid[i]);
    }
  value_clear (&kernel->tile[0]);
  value_clear (&kernel->tile[1]);
  value_clear (&kernel->shared);
  value_clear (&kernel->title);
  g_ptr_array_unref (kernel->builds);
  g_mutex_clear (&kernel->lock);
  g_free (kernel->path);
  g_free (kernel->file_name);
  g_free (kernel->source);
  g_free (kernel);
}

const char *
tl_user_kernel_path (const TlUserKernel *kernel)
{
  return kernel->path;
}

const char *
tl_user_kernel_file_name (const TlUserKernel *kernel)
{
  return kernel->file_name;
}

const char *
tl_user_kernel_source (const TlUserKernel *kernel)
{
  return kernel->source;
}

const char *
tl_user_kernel_title (const TlUserKernel *kernel)
{
  return kernel->title.text ? kernel->title.text : kernel->file_name;
}

guint
tl_user_kernel_dtypes (const TlUserKernel *kernel)
{
  guint mask = 0;
  for (int d = 0; d < TL_DTYPE_COUNT; d++)
    if (kernel->entry[d].text != NULL)
      mask |= TL_DTYPE_BIT (d);
  return mask;
}

const TlUserValue *
tl_user_kernel_entry (const TlUserKernel *kernel, TlDtype dtype)
{
  g_return_val_if_fail ((unsigned) dtype < TL_DTYPE_COUNT, NULL);
  return kernel->entry[dtype].text ? &kernel->entry[dtype] : NULL;
}

const char *
tl_user_kernel_dtype_key (TlDtype dtype)
{
  return (unsigned) dtype < TL_DTYPE_COUNT ? dtype_keys[dtype] : "?";
}

gboolean
tl_user_kernel_has_marks (const TlUserKernel *kernel)
{
  return strstr (kernel->source, "TILELAB_BLOCK_BEGIN") != NULL
         && strstr (kernel->source, "TILELAB_BLOCK_END") != NULL;
}

/* ---- the geometry at one size ---------------------------------------- */

static gboolean
eval_value (const TlUserKernel *k, const TlUserValue *v, const char *what, const TlUserVars *vars,
            gint64 lo, gint64 hi, gint64 *out, GError **error)
{
  gsize at = 0;
  g_autofree char *why = NULL;
  if (!tl_user_expr_eval (v->text, vars, out, &at, &why))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE, "%s:%d:%d: %s %s (m = %" G_GINT64_FORMAT
                   ", n = %" G_GINT64_FORMAT ", k = %" G_GINT64_FORMAT ")",
                   k->path, v->line, v->column + (int) at, what, why, vars->m, vars->n, vars->k);
      return FALSE;
    }
  if (*out < lo || *out > hi)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("%s:%d:%d: %s is %" PRId64 " at m = %" PRId64
                     ", n = %" PRId64 ", k = %" PRId64
                     "; it must be between %" PRId64 " and %" PRId64),
                   k->path, v->line, v->column, what, *out, vars->m, vars->n, vars->k, lo, hi);
      return FALSE;
    }
  return TRUE;
}

gboolean
tl_user_kernel_geometry (const TlUserKernel *kernel, gsize m, gsize k, gsize n, TlDtype dtype,
                         TlUserGeometry *out, GError **error)
{
  g_return_val_if_fail (kernel != NULL && out != NULL, FALSE);
  memset (out, 0, sizeof *out);
  TlUserVars vars = { (gint64) m, (gint64) n, (gint64) k, (gint64) tl_dtype_size (dtype) };
  static const char *const axis[3] = { "x", "y", "z" };
  for (int i = 0; i < 3; i++)
    {
      gint64 g = 1, b = 1;
      g_autofree char *gname = g_strdup_printf (_("grid %s"), axis[i]);
      g_autofree char *bname = g_strdup_printf (_("block %s"), axis[i]);
      if (kernel->grid[i].text
          && !eval_value (kernel, &kernel->grid[i], gname, &vars, 1, G_MAXINT32, &g, error))
        return FALSE;
      if (kernel->block[i].text
          && !eval_value (kernel, &kernel->block[i], bname, &vars, 1, 1024, &b, error))
        return FALSE;
      out->grid[i] = (guint) g;
      out->block[i] = (guint) b;
    }
  gint64 smem = 0;
  if (kernel->shared.text
      && !eval_value (kernel, &kernel->shared, _("shared"), &vars, 0, G_MAXINT32, &smem, error))
    return FALSE;
  out->dynamic_smem = (guint) smem;
  gint64 rows = 0, cols = 0;
  if (kernel->tile[0].text
      && (!eval_value (kernel, &kernel->tile[0], _("tile rows"), &vars, 1, G_MAXINT32, &rows, error)
          || !eval_value (kernel, &kernel->tile[1], _("tile columns"), &vars, 1, G_MAXINT32, &cols,
                          error)))
    return FALSE;
  /* without a declared tile: C's size over the grid, blockIdx.x over columns */
  out->tile_m = rows > 0 ? (guint) rows : (guint) ((m + out->grid[1] - 1) / out->grid[1]);
  out->tile_n = cols > 0 ? (guint) cols : (guint) ((n + out->grid[0] - 1) / out->grid[0]);
  return TRUE;
}

void
tl_user_kernel_tile (const TlUserKernel *kernel, int *rows, int *cols)
{
  gint64 r = 0, c = 0;
  *rows = *cols = 0;
  /* a tile that depends on the size has no one value */
  TlUserVars probe = { 4096, 4096, 4096, 4 }, other = { 1000, 1111, 777, 8 };
  gint64 r2 = 0, c2 = 0;
  if (kernel->tile[0].text && tl_user_expr_eval (kernel->tile[0].text, &probe, &r, NULL, NULL)
      && tl_user_expr_eval (kernel->tile[1].text, &probe, &c, NULL, NULL)
      && tl_user_expr_eval (kernel->tile[0].text, &other, &r2, NULL, NULL)
      && tl_user_expr_eval (kernel->tile[1].text, &other, &c2, NULL, NULL) && r == r2 && c == c2
      && r > 0 && c > 0 && r <= G_MAXINT && c <= G_MAXINT)
    {
      *rows = (int) r;
      *cols = (int) c;
    }
}
