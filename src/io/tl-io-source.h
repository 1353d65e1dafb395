/* tl-io-source.h — reading a text matrix file a window at a time.
 *
 * The text readers (CSV, Tilelab text, Matrix Market) never hold a whole
 * file: a source reads it through a window of TL_IO_WINDOW bytes (or
 * walks a buffer already in memory, for the fuzzers and tests) and hands
 * out tokens — runs of bytes that stop at a byte of a stop set — with
 * their line and column.  A token longer than TL_IO_MAX_TOKEN is an error,
 * so no line, however long, is buffered whole: a one-row CSV of a billion
 * values streams like any other.
 *
 * Line ends are "\n", "\r\n" and a lone "\r" (classic Mac OS), even mixed;
 * a UTF-8 byte order mark at the start is skipped.  Lines count from 1,
 * columns are 1-based byte offsets within the line.  A source can go back
 * to a place it marked (the CSV reader reads its first row more than once
 * and counts rows in a first pass); the cancellable is polled at every
 * window, and a read error is kept (tl_io_source_failed) and ends the
 * input.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define TL_IO_WINDOW    ((gsize) 1 << 20)
#define TL_IO_MAX_TOKEN ((gsize) 1 << 16)
#define TL_IO_EOF       (-1)

typedef struct
{
  guint64 offset;     /* in the file */
  guint64 line;
  guint64 line_start; /* offset of that line's first byte */
} TlIoMark;

typedef struct
{
  const char *path;   /* as the user named it, for messages */
  int fd;             /* -1 for a buffer in memory */
  char *window;       /* fd: TL_IO_WINDOW bytes; memory: the buffer */
  const char *p;      /* the next unread byte */
  const char *end;    /* the end of the bytes in the window */
  guint64 base;       /* file offset of window[0] */
  gboolean at_eof;    /* end is the end of the file */
  guint64 size;       /* the file's size when it was opened */
  guint64 line;       /* the line p is on */
  guint64 line_start;
  GCancellable *cancellable;
  GError *error;      /* the first read error, cancellation or over-long token */
  gsize *progress;    /* NULL, or where the furthest byte read is published
                       * (atomically) for another thread's progress bar */
  gboolean counting;  /* a first pass: not published */
} TlIoSource;

/* Takes fd (closed by tl_io_source_clear); size is the file's size. */
void      tl_io_source_init_fd     (TlIoSource *s, const char *path, int fd, guint64 size,
                                    GCancellable *cancellable);
/* Walks buf[0 .. len) in place (no copy). */
void      tl_io_source_init_memory (TlIoSource *s, const char *path, const char *buf, gsize len);
void      tl_io_source_clear       (TlIoSource *s);

/* Reads more into the window, keeping the bytes from *keep on (keep may
 * be NULL); *keep is moved with them.  FALSE at the end or on an error. */
gboolean  tl_io_source_refill      (TlIoSource *s, const char **keep);

/* The next byte (0 … 255) without taking it, or TL_IO_EOF. */
static inline int
tl_io_source_peek (TlIoSource *s)
{
  if (G_LIKELY (s->p < s->end))
    return (guchar) *s->p;
  if (!tl_io_source_refill (s, NULL))
    return TL_IO_EOF;
  return (guchar) *s->p;
}

static inline void
tl_io_source_advance (TlIoSource *s)
{
  s->p++;
}

/* A 256-entry set of bytes (TRUE for members). */
typedef struct
{
  guint8 has[256];
} TlIoByteSet;

void      tl_io_byte_set_init      (TlIoByteSet *set, const char *members);
/* The blanks between tokens: space, tab, vertical tab, form feed. */
const TlIoByteSet *tl_io_blanks    (void);

/* Skips bytes in set (never a line end unless set holds it). */
void      tl_io_source_skip        (TlIoSource *s, const TlIoByteSet *set);
/* The bytes up to the first in stop (or the end), contiguous in the window
 * until the next call; FALSE with s->error set when they run beyond
 * TL_IO_MAX_TOKEN.  *len may be 0. */
gboolean  tl_io_source_span        (TlIoSource *s, const TlIoByteSet *stop, const char **tok,
                                    gsize *len);
/* Takes a line end ("\n", "\r\n" or "\r") if p is at one. */
gboolean  tl_io_source_newline     (TlIoSource *s);
/* Skips to the line's end (left unread), or the end of the input. */
void      tl_io_source_skip_to_eol (TlIoSource *s);
/* Skips the rest of the line and its end. */
void      tl_io_source_skip_line   (TlIoSource *s);

typedef enum
{
  TL_IO_LINE_CONTENT,
  TL_IO_LINE_BLANK,   /* only blanks */
  TL_IO_LINE_COMMENT, /* its first byte that is not a blank is the comment byte */
  TL_IO_LINE_END,     /* no line: the end of the input */
} TlIoLineKind;

/* What the line at p (at its start) is, looking ahead without taking
 * anything; comment is the comment byte, or 0 for none. */
TlIoLineKind tl_io_source_line_kind (TlIoSource *s, char comment);
/* Skips blank and comment lines to the start of the next content line;
 * FALSE at the end of the input. */
gboolean  tl_io_source_next_content (TlIoSource *s, char comment);
/* The lines from p to the end whose kind is TL_IO_LINE_CONTENT: a fast
 * first pass (line ends by memchr).  Leaves p at the end. */
guint64   tl_io_source_count_content_lines (TlIoSource *s, char comment);

/* Where the source is, and back there. */
void      tl_io_source_mark        (const TlIoSource *s, TlIoMark *mark);
gboolean  tl_io_source_seek        (TlIoSource *s, const TlIoMark *mark);

/* The 1-based column of a byte in the window, and its line. */
guint     tl_io_source_col         (const TlIoSource *s, const char *at);
guint     tl_io_source_line        (const TlIoSource *s);
/* The line number after the end (where "the file ends early" points). */
guint     tl_io_source_end_line    (TlIoSource *s);
/* Bytes of the file not read yet. */
guint64   tl_io_source_left        (const TlIoSource *s);

/* When the source hit a read error, was cancelled or met an over-long
 * token: that error (moved into *error) and TRUE. */
gboolean  tl_io_source_failed      (TlIoSource *s, GError **error);

G_END_DECLS
