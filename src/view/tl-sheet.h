/* tl-sheet.h — a page of text to export as a picture: a kernel's listing
 * (numbered lines, coloured spans) or a table of label/value rows (the
 * Device page's facts).  The Source and Device pages fill one on the main
 * loop; paint/tl-paint-sheet.h draws it off the main loop. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint row;           /* the listing's line (0: its first) */
  guint start, end;    /* characters of that line */
  double rgb[3];
  gboolean bold;
} TlSheetInk;

typedef struct
{
  gatomicrefcount ref;
  char *name;          /* for the file's name: "source", "device" */
  char *title;
  char *subtitle;      /* may be NULL */
  gboolean listing;    /* TRUE: numbered lines of code; FALSE: a table */
  guint first_number;  /* listing: the number of its first line */
  GPtrArray *labels;   /* table: each row's label ("": a sentence across the table) */
  GPtrArray *values;   /* listing: the lines; table: each row's value ("": the label is a
                          heading) */
  GArray *inks;        /* listing: TlSheetInk */
} TlSheet;

TlSheet *tl_sheet_new   (const char *name, const char *title, gboolean listing);
TlSheet *tl_sheet_ref   (TlSheet *self);
void     tl_sheet_unref (TlSheet *self);
void     tl_sheet_add_row  (TlSheet *self, const char *label, const char *value);
void     tl_sheet_add_line (TlSheet *self, const char *line);
void     tl_sheet_add_ink  (TlSheet *self, const TlSheetInk *ink);
/* Rows from text laid out in columns: each line's label, then two or more
 * spaces, then its value; a line without such a gap is a sentence. */
void     tl_sheet_add_columns (TlSheet *self, const char *text);
guint    tl_sheet_get_n_rows (const TlSheet *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlSheet, tl_sheet_unref)

G_END_DECLS
