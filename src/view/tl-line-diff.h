/* tl-line-diff.h — what changed between two texts, line by line.
 *
 * The longest common subsequence of the two texts' lines (compared with
 * their spacing collapsed, so re-indented code is not a change) gives the
 * lines removed, added and kept, in order — what `diff` prints.  For a
 * slide, the changes come in hunks with a few lines of context and the
 * long unchanged stretches between them folded into one line.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TL_DIFF_SAME,
  TL_DIFF_REMOVED,
  TL_DIFF_ADDED,
  TL_DIFF_FOLDED,   /* n unchanged lines left out */
} TlDiffOp;

typedef struct
{
  TlDiffOp op;
  char *text;       /* the line (the new one for SAME); NULL for FOLDED */
  guint old_line;   /* 1-based, 0 where it has none */
  guint new_line;
  guint n_folded;   /* FOLDED: how many lines */
} TlDiffLine;

typedef struct
{
  GArray *lines;    /* TlDiffLine */
  guint n_removed, n_added;
} TlLineDiff;

/* The whole diff; texts may be NULL (no lines). */
TlLineDiff *tl_line_diff_new  (const char *old_text, const char *new_text);
/* Only the changes, each with up to context unchanged lines around it;
 * the stretches between them (and before, and after) folded. */
TlLineDiff *tl_line_diff_hunks (const TlLineDiff *diff, guint context);
void        tl_line_diff_free (TlLineDiff *diff);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlLineDiff, tl_line_diff_free)

G_END_DECLS
