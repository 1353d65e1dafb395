/* tl-sheet.h — a page of text to export as a picture: a kernel's listing
 * (numbered lines, coloured spans, lines marked as wrong) or a table of
 * facts (the Device page's: headings, label/value rows, sentences).  The
 * Source and Device pages fill one on the main loop; paint/tl-paint-sheet.h
 * draws it off the main loop. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TL_SHEET_ROW,      /* a label and its value (a listing's lines: the value) */
  TL_SHEET_HEADING,  /* a heading in bold: the label */
  TL_SHEET_SENTENCE, /* words across the table: the value */
  TL_SHEET_NOTE,     /* a remark on the row above (a comparison): the value, set apart */
} TlSheetKind;

typedef struct
{
  TlSheetKind kind;
  char *label;       /* never NULL */
  char *value;       /* never NULL */
  gboolean marked;   /* listing: a line the compiler found wrong */
} TlSheetRow;

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
  GArray *rows;        /* TlSheetRow */
  GArray *inks;        /* listing: TlSheetInk */
} TlSheet;

TlSheet *tl_sheet_new   (const char *name, const char *title, gboolean listing);
TlSheet *tl_sheet_ref   (TlSheet *self);
void     tl_sheet_unref (TlSheet *self);
void     tl_sheet_add_row      (TlSheet *self, const char *label, const char *value);
void     tl_sheet_add_heading  (TlSheet *self, const char *heading);
/* text's lines, each a sentence (or a note) of its own */
void     tl_sheet_add_sentence (TlSheet *self, const char *text);
void     tl_sheet_add_note     (TlSheet *self, const char *text);
/* a listing's next line; marked: the compiler found it wrong */
void     tl_sheet_add_line     (TlSheet *self, const char *line, gboolean marked);
void     tl_sheet_add_ink      (TlSheet *self, const TlSheetInk *ink);
/* other's rows after self's */
void     tl_sheet_append       (TlSheet *self, const TlSheet *other);
guint    tl_sheet_get_n_rows (const TlSheet *self);
const TlSheetRow *tl_sheet_get_row (const TlSheet *self, guint i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlSheet, tl_sheet_unref)

G_END_DECLS
