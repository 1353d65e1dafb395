/* tl-json-check.c — strict JSON, checked and counted before json-glib sees it.
 *
 * One pass, no recursion: the grammar of RFC 8259, and what json-glib
 * would take silently or badly — a member given twice (it keeps the
 * last), an integer beyond 64 bits (it reads garbage), a number beyond
 * float64 (it reads infinity), a string that is not UTF-8 — refused with
 * the line, the column and the JSON path ($.runs[1].kernel_id).  The
 * values, members and string bytes are counted as they go, and the tree
 * json-glib would build is priced against the memory budget before it is
 * built (core/tl-memory.h): a record of 240 MB of numbers needs some 5 GiB
 * as a tree.
 */
#include "core/tl-json-check.h"
#include "core/tl-error.h"
#include "core/tl-memory.h"

#include <errno.h>
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What json-glib 1.6 spends per value and per member (measured: about 80
 * bytes for a number in an array, 180 for an object member), rounded up. */
#define TREE_BYTES_PER_VALUE  128
#define TREE_BYTES_PER_MEMBER 96
/* The budget is asked again after this many values. */
#define CENSUS_STRIDE (1 << 18)
/* Reading a file: a token is whole in the window when this many bytes
 * are ahead (a string is at most TL_JSON_MAX_STRING), and the window holds
 * four times that. */
#define LOOKAHEAD (TL_JSON_MAX_STRING + 64)
#define WINDOW (4 * LOOKAHEAD)

typedef struct
{
  char kind;          /* '[' or '{' */
  guint64 count;      /* elements so far (arrays), members (objects) */
  char *key;          /* the member being read (objects) */
  GHashTable *keys;   /* the members seen (objects) */
} Level;

typedef struct
{
  const char *data, *p, *end;   /* the text in hand: all of it, or a file's window */
  GError **error;
  Level levels[TL_JSON_MAX_DEPTH];
  guint depth;
  guint64 values, members, string_bytes;
  guint64 next_census;
  const TlJsonScanHooks *hooks; /* NULL: check only */
  GString *text;                /* a string value unescaped, for the hooks */

  /* reading a file through a window (fd -1: the whole text is in memory) */
  int fd;
  gboolean eof;
  char *buf;
  guint64 offset;               /* bytes of the text before data */
  guint line, col;              /* where data starts */
} Scanner;

/* "$.runs[1].kernel_id": where the scanner is. */
static char *
scanner_path (const Scanner *s)
{
  GString *path = g_string_new ("$");
  for (guint d = 0; d < s->depth; d++)
    {
      const Level *l = &s->levels[d];
      if (l->kind == '[')
        g_string_append_printf (path, "[%" G_GUINT64_FORMAT "]", l->count);
      else if (l->key != NULL)
        {
          g_string_append_c (path, '.');
          g_string_append (path, l->key);
        }
    }
  return g_string_free (path, FALSE);
}

G_GNUC_PRINTF (2, 3) static gboolean
scan_fail (Scanner *s, const char *format, ...)
{
  guint line = s->line, col = s->col;
  for (const char *q = s->data; q < s->p && q < s->end; q++)
    {
      if (*q == '\n')
        line++, col = 1;
      else if (((guchar) *q & 0xc0) != 0x80) /* count characters, not UTF-8 bytes */
        col++;
    }
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);
  g_autofree char *path = scanner_path (s);
  g_set_error (s->error, TL_ERROR, TL_ERROR_PARSE,
               _("not valid JSON: line %u, column %u (%s): %s"), line, col, path, what);
  return FALSE;
}

static gboolean
too_large (GError **error, guint64 length)
{
  g_autofree char *have = g_format_size_full (length, G_FORMAT_SIZE_IEC_UNITS);
  g_autofree char *limit = g_format_size_full (TL_JSON_MAX_BYTES, G_FORMAT_SIZE_IEC_UNITS);
  g_set_error (error, TL_ERROR, TL_ERROR_TOO_LARGE,
               _("the JSON text is %s, more than the limit of %s"), have, limit);
  return FALSE;
}

/* The line and column of s->p become those of the window's start (columns
 * count characters: every byte but UTF-8's continuation bytes). */
static void
advance_position (Scanner *s)
{
  const char *q = s->data, *last_newline = NULL;
  for (const char *nl; (nl = memchr (q, '\n', (gsize) (s->p - q))) != NULL; q = nl + 1)
    s->line++, last_newline = nl;
  if (last_newline)
    s->col = 1;
  gsize continuation = 0;
  for (const char *c = q; c < s->p; c++)
    continuation += ((guchar) *c & 0xc0) == 0x80;
  s->col += (guint) ((gsize) (s->p - q) - continuation);
}

/* Reading a file: at least LOOKAHEAD bytes ahead of s->p, or all that is
 * left.  Only between tokens (it moves the text). */
static gboolean
fill (Scanner *s)
{
  if (s->eof || (gsize) (s->end - s->p) >= LOOKAHEAD)
    return TRUE;
  advance_position (s);
  gsize keep = (gsize) (s->end - s->p);
  s->offset += (guint64) (s->p - s->data);
  memmove (s->buf, s->p, keep);
  char *end = s->buf + keep;
  while (end < s->buf + WINDOW)
    {
      ssize_t n = read (s->fd, end, (gsize) (s->buf + WINDOW - end));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int e = errno;
          g_set_error (s->error, TL_ERROR, TL_ERROR_IO, _("cannot read: %s"), g_strerror (e));
          return FALSE;
        }
      if (n == 0)
        {
          s->eof = TRUE;
          break;
        }
      end += n;
    }
  s->data = s->p = s->buf;
  s->end = end;
  if (s->offset + (guint64) (end - s->buf) > TL_JSON_MAX_BYTES)
    return too_large (s->error, s->offset + (guint64) (end - s->buf));
  return TRUE;
}

static gboolean
skip_space (Scanner *s)
{
  for (;;)
    {
      while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
        s->p++;
      if (s->eof || (gsize) (s->end - s->p) >= LOOKAHEAD)
        return TRUE;
      if (!fill (s))
        return FALSE;
    }
}

static int
hex4 (const char *p)
{
  int v = 0;
  for (int k = 0; k < 4; k++)
    v = v * 16 + g_ascii_xdigit_value (p[k]);
  return v;
}

/* "…" with JSON's escapes, no raw control characters, UTF-8 and no lone
 * surrogate; at most TL_JSON_MAX_STRING bytes.  With out, the string
 * unescaped (for member names). */
static gboolean
scan_string (Scanner *s, GString *out)
{
  const char *open = s->p++;
  const char *run = s->p;
  while (s->p < s->end)
    {
      guchar c = (guchar) *s->p;
      if (c == '"' || c == '\\')
        {
          if (out)
            g_string_append_len (out, run, s->p - run);
        }
      if (c == '"')
        {
          gsize len = (gsize) (s->p - open - 1);
          if (!g_utf8_validate_len (open + 1, len, NULL))
            {
              const char *bad;
              g_utf8_validate_len (open + 1, len, &bad);
              s->p = bad;
              return scan_fail (s, _("a string that is not UTF-8 (byte 0x%02x)"),
                                (guchar) *bad);
            }
          s->string_bytes += len;
          s->p++;
          return TRUE;
        }
      if ((gsize) (s->p - open) > TL_JSON_MAX_STRING)
        return scan_fail (s, _("a string longer than %u bytes"), (guint) TL_JSON_MAX_STRING);
      if (c < 0x20)
        return scan_fail (s, _("a control character inside a string"));
      if (c != '\\')
        {
          s->p++;
          continue;
        }
      if (s->p + 1 >= s->end)
        break;
      char e = s->p[1];
      if (e == 'u')
        {
          for (int k = 2; k < 6; k++)
            if (s->p + k >= s->end || !g_ascii_isxdigit (s->p[k]))
              return scan_fail (s, _("expected four hex digits after \\u"));
          int u = hex4 (s->p + 2);
          /* C strings end there: "cpu-naive\u0000…" was read as "cpu-naive" */
          if (u == 0)
            return scan_fail (s, _("\\u0000 inside a string: Tilelab's strings cannot hold "
                                   "the character NUL"));
          if (u >= 0xd800 && u <= 0xdbff) /* a high surrogate needs its low half */
            {
              if (s->p + 12 > s->end || s->p[6] != '\\' || s->p[7] != 'u'
                  || !g_ascii_isxdigit (s->p[8]) || !g_ascii_isxdigit (s->p[9])
                  || !g_ascii_isxdigit (s->p[10]) || !g_ascii_isxdigit (s->p[11])
                  || hex4 (s->p + 8) < 0xdc00 || hex4 (s->p + 8) > 0xdfff)
                return scan_fail (s, _("a lone surrogate \\u%04x: not a character"), u);
              if (out)
                g_string_append_unichar (out, 0x10000 + ((u - 0xd800) << 10)
                                                + (hex4 (s->p + 8) - 0xdc00));
              s->p += 12;
            }
          else if (u >= 0xdc00 && u <= 0xdfff)
            return scan_fail (s, _("a lone surrogate \\u%04x: not a character"), u);
          else
            {
              if (out)
                g_string_append_unichar (out, (gunichar) u);
              s->p += 6;
            }
        }
      else if (e != '\0' && strchr ("\"\\/bfnrt", e) != NULL)
        {
          if (out)
            g_string_append_c (out, strchr ("\"\\/", e) ? e
                                    : e == 'b' ? '\b' : e == 'f' ? '\f'
                                    : e == 'n' ? '\n' : e == 'r' ? '\r' : '\t');
          s->p += 2;
        }
      else
        return scan_fail (s, _("an unknown escape in a string"));
      run = s->p;
    }
  return scan_fail (s, _("the text ends inside a string"));
}

static gboolean
scan_digits (Scanner *s)
{
  const char *start = s->p;
  while (s->p < s->end && g_ascii_isdigit (*s->p))
    s->p++;
  return s->p > start;
}

/* The number [start, end) as JSON wrote it, for messages (at most 40 bytes). */
static char *
number_text (const char *start, const char *end)
{
  gsize n = (gsize) (end - start);
  return n <= 40 ? g_strndup (start, n) : g_strdup_printf ("%.37s…", start);
}

/* A number json-glib would read wrongly: an integer beyond 64 bits, a
 * number beyond float64.  Only numbers near the edge are converted. */
static gboolean
check_number_range (Scanner *s, const char *start, const char *int_end, gboolean integer)
{
  const char *digits = *start == '-' ? start + 1 : start;
  gsize int_digits = (gsize) (int_end - digits);
  if (integer)
    {
      if (int_digits < 19)
        return TRUE;
      g_autofree char *text = number_text (start, s->p);
      gint64 v;
      if (int_digits == 19
          && g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &v, NULL))
        return TRUE;
      const char *p = s->p;
      s->p = start;
      scan_fail (s, _("the integer %s is beyond the range of a 64-bit integer"), text);
      s->p = p;
      return FALSE;
    }
  /* the decimal exponent, roughly: digits before the point plus the
   * exponent; only beyond ±300 can it overflow (underflow gives 0) */
  const char *e = memchr (int_end, 'e', (gsize) (s->p - int_end));
  if (e == NULL)
    e = memchr (int_end, 'E', (gsize) (s->p - int_end));
  gint64 exponent = 0;
  if (e != NULL)
    {
      const char *q = e + 1;
      gboolean minus = *q == '-';
      q += (*q == '+' || *q == '-');
      for (; q < s->p && exponent < 100000; q++)
        exponent = exponent * 10 + (*q - '0');
      exponent = minus ? -exponent : exponent;
    }
  if ((gint64) int_digits + exponent < 300)
    return TRUE;
  g_autofree char *copy = g_strndup (start, (gsize) (s->p - start));
  if (isfinite (g_ascii_strtod (copy, NULL)))
    return TRUE;
  g_autofree char *text = number_text (start, s->p);
  const char *p = s->p;
  s->p = start;
  scan_fail (s, _("the number %s is beyond the range of float64"), text);
  s->p = p;
  return FALSE;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
scan_number (Scanner *s)
{
  const char *start = s->p;
  if (*s->p == '-')
    s->p++;
  if (s->p < s->end && *s->p == '0')
    s->p++;
  else if (!scan_digits (s))
    return scan_fail (s, _("expected a value"));
  const char *int_end = s->p;
  gboolean integer = TRUE;
  if (s->p < s->end && *s->p == '.')
    {
      s->p++;
      integer = FALSE;
      if (!scan_digits (s))
        return scan_fail (s, _("expected digits after the decimal point"));
    }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E'))
    {
      s->p++;
      integer = FALSE;
      if (s->p < s->end && (*s->p == '+' || *s->p == '-'))
        s->p++;
      if (!scan_digits (s))
        return scan_fail (s, _("expected digits in the exponent"));
    }
  if (s->p == s->end && !s->eof)
    {
      s->p = start;
      return scan_fail (s, _("a number longer than %u bytes"), (guint) LOOKAHEAD);
    }
  return check_number_range (s, start, int_end, integer);
}

/* A hook failed: its error says where. */
static gboolean
hook_failed (Scanner *s)
{
  g_autofree char *path = scanner_path (s);
  g_prefix_error (s->error, "%s: ", path);
  return FALSE;
}

/* A scalar value: read, and told to the hooks. */
static gboolean
scan_scalar (Scanner *s)
{
  static const char *const words[] = { "true", "false", "null" };
  static const TlJsonScalar word_kinds[] = { TL_JSON_SCALAR_TRUE, TL_JSON_SCALAR_FALSE,
                                             TL_JSON_SCALAR_NULL };
  const char *start = s->p;
  if (*s->p == '"')
    {
      if (s->hooks)
        g_string_truncate (s->text, 0);
      if (!scan_string (s, s->hooks ? s->text : NULL))
        return FALSE;
      return !s->hooks
             || s->hooks->scalar (s->hooks->self, TL_JSON_SCALAR_STRING, s->text->str,
                                  s->text->len, s->error)
             || hook_failed (s);
    }
  if (*s->p == '-' || g_ascii_isdigit (*s->p))
    {
      if (!scan_number (s))
        return FALSE;
      if (!s->hooks)
        return TRUE;
      gboolean integer = TRUE;
      for (const char *q = start; q < s->p && integer; q++)
        integer = *q != '.' && *q != 'e' && *q != 'E';
      return s->hooks->scalar (s->hooks->self,
                               integer ? TL_JSON_SCALAR_INT : TL_JSON_SCALAR_DOUBLE, start,
                               (gsize) (s->p - start), s->error)
             || hook_failed (s);
    }
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    {
      gsize n = strlen (words[i]);
      if ((gsize) (s->end - s->p) >= n && memcmp (s->p, words[i], n) == 0)
        {
          s->p += n;
          return !s->hooks
                 || s->hooks->scalar (s->hooks->self, word_kinds[i], start, n, s->error)
                 || hook_failed (s);
        }
    }
  return scan_fail (s, _("expected a value"));
}

/* What the tree would cost so far, against the budget; a tree being
 * built also holds at most TL_JSON_MAX_TREE_VALUES values. */
static gboolean
census (Scanner *s)
{
  /* the values an array being packed holds so far are not the tree's */
  guint64 pending = s->hooks ? s->hooks->pending (s->hooks->self) : 0;
  guint64 tree = s->values - MIN (pending, s->values);
  if (s->hooks && tree > TL_JSON_MAX_TREE_VALUES)
    return scan_fail (s, _("more than %" PRIu64 " values outside arrays of numbers "
                           "(arrays of numbers of one kind have no such limit)"),
                      TL_JSON_MAX_TREE_VALUES);
  guint64 bytes = tree * TREE_BYTES_PER_VALUE + s->members * TREE_BYTES_PER_MEMBER
                  + s->string_bytes;
  g_autoptr (GError) local = NULL;
  if (tl_memory_check (bytes, _("the JSON document as a tree"), &local))
    {
      s->next_census = s->values + CENSUS_STRIDE;
      return TRUE;
    }
  g_autofree char *path = scanner_path (s);
  g_set_error (s->error, TL_ERROR, TL_ERROR_TOO_LARGE,
               _("%s: %s (%" PRIu64 " values, %" PRIu64 " members so far)"), path,
               local->message, s->values, s->members);
  return FALSE;
}

/* A value begins: one more element of the array it is in. */
static gboolean
count_value (Scanner *s)
{
  s->values++;
  return s->values < s->next_census || census (s);
}

static void
level_clear (Level *l)
{
  g_clear_pointer (&l->key, g_free);
  g_clear_pointer (&l->keys, g_hash_table_unref);
}

/* A member name at p: refused when its object has it already. */
static gboolean
scan_member_name (Scanner *s)
{
  Level *l = &s->levels[s->depth - 1];
  const char *at = s->p;
  g_autoptr (GString) name = g_string_new (NULL);
  if (!scan_string (s, name))
    return FALSE;
  g_clear_pointer (&l->key, g_free);
  l->key = g_strdup (name->str);
  if (l->keys == NULL)
    l->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (!g_hash_table_add (l->keys, g_string_free (g_steal_pointer (&name), FALSE)))
    {
      s->p = at;
      return scan_fail (s, _("the member “%s” is given twice in one object"), l->key);
    }
  s->members++;
  l->count++;
  return !s->hooks || s->hooks->member (s->hooks->self, l->key, s->error) || hook_failed (s);
}

/* What the scanner expects next. */
typedef enum { VALUE, VALUE_OR_CLOSE, KEY, KEY_OR_CLOSE, AFTER_VALUE } ScanState;

/* The innermost level closes just before s->p: the values the builder
 * lifted out of it leave the tree's count. */
static void
close_level (Scanner *s)
{
  level_clear (&s->levels[--s->depth]);
  if (s->hooks)
    {
      guint64 lifted = s->hooks->close (s->hooks->self);
      s->values -= MIN (s->values, lifted);
    }
}

/* A value at c: an array or object opens a level, a scalar is read. */
static gboolean
step_value (Scanner *s, char c, ScanState *state)
{
  if (!count_value (s))
    return FALSE;
  if (c == '[' || c == '{')
    {
      if (s->depth == TL_JSON_MAX_DEPTH)
        return scan_fail (s, _("nested deeper than %d levels"), TL_JSON_MAX_DEPTH);
      if (s->hooks && !s->hooks->open (s->hooks->self, c == '[', s->error))
        return hook_failed (s);
      s->levels[s->depth++] = (Level) { c, 0, NULL, NULL };
      s->p++;
      *state = c == '[' ? VALUE_OR_CLOSE : KEY_OR_CLOSE;
      return TRUE;
    }
  if (!scan_scalar (s))
    return FALSE;
  *state = AFTER_VALUE;
  return TRUE;
}

/* A member name at c and the colon after it. */
static gboolean
step_key (Scanner *s, char c, ScanState *state)
{
  if (c != '"')
    return scan_fail (s, _("expected a member name in double quotes"));
  if (!scan_member_name (s) || !skip_space (s))
    return FALSE;
  if (s->p >= s->end || *s->p != ':')
    return scan_fail (s, _("expected “:” after the member name"));
  s->p++;
  *state = VALUE;
  return TRUE;
}

/* After a value: a comma for the next one, or the end of its level. */
static gboolean
step_after_value (Scanner *s, char c, ScanState *state)
{
  if (s->depth == 0)
    return scan_fail (s, _("expected the end of the text"));
  Level *l = &s->levels[s->depth - 1];
  if (c == ',')
    {
      if (l->kind == '[')
        l->count++;
      *state = l->kind == '[' ? VALUE : KEY;
    }
  else if (c == (l->kind == '[' ? ']' : '}'))
    {
      s->p++;
      close_level (s);
      return TRUE;
    }
  else
    return scan_fail (s, l->kind == '[' ? _("expected “,” or “]”") : _("expected “,” or “}”"));
  s->p++;
  return TRUE;
}

/* The scan itself, over s's text (all of it, or a file's window). */
static gboolean
scan (Scanner *s)
{
  ScanState state = VALUE;
  gboolean ok = FALSE;
  s->next_census = CENSUS_STRIDE;
  if (s->hooks)
    s->text = g_string_new (NULL);
  for (;;)
    {
      if (!skip_space (s))
        break;
      if (s->p >= s->end)
        {
          if (state == AFTER_VALUE && s->depth == 0)
            ok = census (s);
          else
            scan_fail (s, s->offset + (guint64) (s->end - s->data) == 0 || state == VALUE
                            ? _("expected a value") : _("the text ends early"));
          break;
        }
      char c = *s->p;
      gboolean go;
      if ((state == VALUE_OR_CLOSE && c == ']') || (state == KEY_OR_CLOSE && c == '}'))
        {
          s->p++, state = AFTER_VALUE; /* an empty array or object */
          close_level (s);
          go = TRUE;
        }
      else if (state == VALUE || state == VALUE_OR_CLOSE)
        go = step_value (s, c, &state);
      else if (state == KEY || state == KEY_OR_CLOSE)
        go = step_key (s, c, &state);
      else
        go = step_after_value (s, c, &state);
      if (!go)
        break;
    }
  while (s->depth > 0)
    level_clear (&s->levels[--s->depth]);
  if (s->text)
    g_string_free (s->text, TRUE);
  return ok;
}

gboolean
tl_json_check_text (const char *data, gsize length, GError **error)
{
  return tl_json_check_text_hooked (data, length, NULL, error);
}

gboolean
tl_json_check_text_hooked (const char *data, gsize length, const TlJsonScanHooks *hooks,
                           GError **error)
{
  g_return_val_if_fail (data != NULL || length == 0, FALSE);
  if (length > TL_JSON_MAX_BYTES)
    return too_large (error, length);
  g_autofree Scanner *s = g_new0 (Scanner, 1);
  *s = (Scanner) { data, data, data + length, error, .hooks = hooks, .fd = -1, .eof = TRUE,
                   .line = 1, .col = 1 };
  return scan (s);
}

gboolean
tl_json_scan_fd (int fd, const TlJsonScanHooks *hooks, GError **error)
{
  g_return_val_if_fail (fd >= 0, FALSE);
  g_autofree char *buf = g_malloc (WINDOW);
  g_autofree Scanner *s = g_new0 (Scanner, 1);
  *s = (Scanner) { buf, buf, buf, error, .hooks = hooks, .fd = fd, .buf = buf, .line = 1,
                   .col = 1 };
  return scan (s);
}
