/* tl-io-source.c — a text file through a window: tokens, lines, marks. */
#include "io/tl-io-source.h"
#include "io/tl-io-error.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

/* A byte order mark is not part of the first line: columns count after it. */
static void
skip_bom (TlIoSource *s)
{
  if (s->end - s->p >= 3 && memcmp (s->p, "\xef\xbb\xbf", 3) == 0)
    {
      s->p += 3;
      s->line_start = 3;
    }
}

void
tl_io_source_init_fd (TlIoSource *s, const char *path, int fd, guint64 size,
                      GCancellable *cancellable)
{
  *s = (TlIoSource) { .path = path, .fd = fd, .size = size, .line = 1,
                      .cancellable = cancellable };
  s->window = g_malloc (TL_IO_WINDOW);
  s->p = s->end = s->window;
  tl_io_source_refill (s, NULL);
  skip_bom (s);
}

void
tl_io_source_init_memory (TlIoSource *s, const char *path, const char *buf, gsize len)
{
  *s = (TlIoSource) { .path = path, .fd = -1, .size = len, .line = 1, .at_eof = TRUE };
  s->window = (char *) buf;
  s->p = buf;
  s->end = buf + len;
  skip_bom (s);
}

void
tl_io_source_clear (TlIoSource *s)
{
  if (s->fd >= 0)
    {
      close (s->fd);
      g_free (s->window);
    }
  s->fd = -1;
  s->window = NULL;
  s->p = s->end = NULL;
  g_clear_error (&s->error);
}

static void
source_error (TlIoSource *s, GError *error)
{
  if (s->error == NULL)
    s->error = error;
  else
    g_error_free (error);
  s->at_eof = TRUE;
  s->end = s->p; /* nothing more to read: every loop ends */
}

gboolean
tl_io_source_refill (TlIoSource *s, const char **keep)
{
  if (s->at_eof)
    return FALSE;
  GError *cancelled = NULL;
  if (g_cancellable_set_error_if_cancelled (s->cancellable, &cancelled))
    {
      source_error (s, cancelled);
      return FALSE;
    }
  /* how far the parse has come: published as the window moves on */
  guint64 parsed = s->base + (guint64) (s->p - s->window);
  if (s->progress && !s->counting && parsed > (guint64) g_atomic_pointer_get (s->progress))
    g_atomic_pointer_set (s->progress, (gsize) parsed);
  /* keep [from, end) at the start of the window, read after it */
  const char *from = keep && *keep ? *keep : s->p;
  gsize kept = (gsize) (s->end - from);
  gsize shift = (gsize) (from - s->window);
  if (shift > 0 && kept > 0)
    memmove (s->window, from, kept);
  s->base += shift;
  s->p -= shift;
  if (keep && *keep)
    *keep -= shift;
  s->end = s->window + kept;
  while (s->end < s->window + TL_IO_WINDOW)
    {
      ssize_t n = read (s->fd, (char *) s->end, (gsize) (s->window + TL_IO_WINDOW - s->end));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int e = errno;
          GError *error = NULL;
          tl_io_set_error (&error, TL_ERROR_IO, s->path, 0, 0, _("cannot read: %s"),
                           g_strerror (e));
          source_error (s, error);
          return FALSE;
        }
      if (n == 0)
        {
          s->at_eof = TRUE;
          break;
        }
      s->end += n;
      if (s->end - s->p > 0) /* enough to go on with; the next refill reads more */
        break;
    }
  return s->p < s->end;
}

void
tl_io_byte_set_init (TlIoByteSet *set, const char *members)
{
  memset (set, 0, sizeof *set);
  for (const char *m = members; *m; m++)
    set->has[(guchar) *m] = TRUE;
}

const TlIoByteSet *
tl_io_blanks (void)
{
  static TlIoByteSet blanks;
  static gsize once;
  if (g_once_init_enter (&once))
    {
      tl_io_byte_set_init (&blanks, " \t\v\f");
      g_once_init_leave (&once, 1);
    }
  return &blanks;
}

void
tl_io_source_skip (TlIoSource *s, const TlIoByteSet *set)
{
  for (;;)
    {
      while (s->p < s->end && set->has[(guchar) *s->p])
        s->p++;
      if (s->p < s->end || !tl_io_source_refill (s, NULL))
        return;
    }
}

gboolean
tl_io_source_span (TlIoSource *s, const TlIoByteSet *stop, const char **tok, gsize *len)
{
  const char *start = s->p;
  for (;;)
    {
      const char *q = s->p;
      while (q < s->end && !stop->has[(guchar) *q])
        q++;
      s->p = q;
      if (q < s->end || s->at_eof)
        break;
      if ((gsize) (q - start) > TL_IO_MAX_TOKEN)
        break;
      if (!tl_io_source_refill (s, &start))
        break;
    }
  if ((gsize) (s->p - start) > TL_IO_MAX_TOKEN)
    {
      GError *error = NULL;
      g_autofree char *limit = g_format_size_full (TL_IO_MAX_TOKEN, G_FORMAT_SIZE_IEC_UNITS);
      tl_io_set_error (&error, TL_ERROR_PARSE, s->path, tl_io_source_line (s),
                       tl_io_source_col (s, start),
                       _("a value or field longer than %s: expected numbers"), limit);
      source_error (s, error);
      return FALSE;
    }
  *tok = start;
  *len = (gsize) (s->p - start);
  return s->error == NULL;
}

gboolean
tl_io_source_newline (TlIoSource *s)
{
  int c = tl_io_source_peek (s);
  if (c != '\n' && c != '\r')
    return FALSE;
  s->p++;
  if (c == '\r' && tl_io_source_peek (s) == '\n')
    s->p++;
  s->line++;
  s->line_start = s->base + (guint64) (s->p - s->window);
  return TRUE;
}

void
tl_io_source_skip_to_eol (TlIoSource *s)
{
  for (;;)
    {
      /* the first '\n' or '\r': '\r' is looked for only up to the '\n',
       * so a long run of lines costs two memchr per line */
      gsize n = (gsize) (s->end - s->p);
      const char *nl = memchr (s->p, '\n', n);
      const char *cr = memchr (s->p, '\r', nl ? (gsize) (nl - s->p) : n);
      const char *at = cr ? cr : nl;
      if (at != NULL)
        {
          s->p = at;
          return;
        }
      s->p = s->end;
      if (!tl_io_source_refill (s, NULL))
        return;
    }
}

void
tl_io_source_skip_line (TlIoSource *s)
{
  tl_io_source_skip_to_eol (s);
  tl_io_source_newline (s);
}

TlIoLineKind
tl_io_source_line_kind (TlIoSource *s, char comment)
{
  TlIoMark start;
  tl_io_source_mark (s, &start);
  tl_io_source_skip (s, tl_io_blanks ());
  int c = tl_io_source_peek (s);
  TlIoLineKind kind;
  if (c == TL_IO_EOF)
    kind = s->base + (guint64) (s->p - s->window) == start.offset ? TL_IO_LINE_END
                                                                   : TL_IO_LINE_BLANK;
  else if (c == '\n' || c == '\r')
    kind = TL_IO_LINE_BLANK;
  else if (comment != 0 && c == comment)
    kind = TL_IO_LINE_COMMENT;
  else
    kind = TL_IO_LINE_CONTENT;
  tl_io_source_seek (s, &start);
  return kind;
}

/* Takes a run of line ends ("\n", "\r\n", "\r": empty lines) in one loop:
 * a file of a billion empty lines costs a byte loop, not a billion calls. */
static void
take_empty_lines (TlIoSource *s)
{
  for (;;)
    {
      const char *p = s->p, *end = s->end;
      guint64 lines = 0;
      while (p < end)
        {
          if (*p == '\n')
            p++, lines++;
          else if (*p == '\r' && p + 1 < end)
            p += p[1] == '\n' ? 2 : 1, lines++;
          else
            break;
        }
      s->p = p;
      if (lines > 0)
        {
          s->line += lines;
          s->line_start = s->base + (guint64) (p - s->window);
        }
      /* a '\r' as the window's last byte, or the window used up */
      if (p < end && *p != '\r')
        return;
      if (p < end)
        tl_io_source_newline (s); /* reads on to see a '\n' after it */
      else if (!tl_io_source_refill (s, NULL))
        return;
    }
}

gboolean
tl_io_source_next_content (TlIoSource *s, char comment)
{
  const TlIoByteSet *blanks = tl_io_blanks ();
  for (;;)
    {
      take_empty_lines (s);
      TlIoMark start;
      tl_io_source_mark (s, &start);
      tl_io_source_skip (s, blanks);
      int c = tl_io_source_peek (s);
      if (c == TL_IO_EOF)
        return FALSE;
      if (c == '\n' || c == '\r')
        tl_io_source_newline (s); /* blanks only */
      else if (comment != 0 && c == comment)
        tl_io_source_skip_line (s);
      else
        return tl_io_source_seek (s, &start); /* back to the line's first byte */
    }
}

guint64
tl_io_source_count_content_lines (TlIoSource *s, char comment)
{
  guint64 count = 0;
  const TlIoByteSet *blanks = tl_io_blanks ();
  s->counting = TRUE;
  for (;;)
    {
      take_empty_lines (s);
      tl_io_source_skip (s, blanks);
      int c = tl_io_source_peek (s);
      if (c == TL_IO_EOF)
        {
          s->counting = FALSE;
          return count;
        }
      if (c == '\n' || c == '\r')
        {
          tl_io_source_newline (s);
          continue;
        }
      if (comment == 0 || c != comment)
        count++;
      tl_io_source_skip_line (s);
    }
}

void
tl_io_source_mark (const TlIoSource *s, TlIoMark *mark)
{
  mark->offset = s->base + (guint64) (s->p - s->window);
  mark->line = s->line;
  mark->line_start = s->line_start;
}

gboolean
tl_io_source_seek (TlIoSource *s, const TlIoMark *mark)
{
  s->line = mark->line;
  s->line_start = mark->line_start;
  if (mark->offset >= s->base && mark->offset <= s->base + (guint64) (s->end - s->window))
    {
      s->p = s->window + (mark->offset - s->base);
      return TRUE;
    }
  /* outside the window: read again from there */
  g_assert (s->fd >= 0);
  if (s->error != NULL)
    return FALSE;
  if (lseek (s->fd, (off_t) mark->offset, SEEK_SET) < 0)
    {
      int e = errno;
      GError *error = NULL;
      tl_io_set_error (&error, TL_ERROR_IO, s->path, 0, 0, _("cannot read: %s"), g_strerror (e));
      source_error (s, error);
      return FALSE;
    }
  s->base = mark->offset;
  s->p = s->end = s->window;
  s->at_eof = FALSE;
  tl_io_source_refill (s, NULL);
  return s->error == NULL;
}

guint
tl_io_source_col (const TlIoSource *s, const char *at)
{
  guint64 col = s->base + (guint64) (at - s->window) - s->line_start + 1;
  return (guint) MIN (col, G_MAXUINT);
}

guint
tl_io_source_line (const TlIoSource *s)
{
  return (guint) MIN (s->line, G_MAXUINT);
}

guint
tl_io_source_end_line (TlIoSource *s)
{
  return tl_io_source_line (s);
}

guint64
tl_io_source_left (const TlIoSource *s)
{
  guint64 at = s->base + (guint64) (s->p - s->window);
  return s->size > at ? s->size - at : 0;
}

gboolean
tl_io_source_failed (TlIoSource *s, GError **error)
{
  if (s->error == NULL)
    return FALSE;
  g_propagate_error (error, g_error_copy (s->error));
  return TRUE;
}
