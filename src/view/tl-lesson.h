/* tl-lesson.h — "why is rung N faster than N−1?", computed from a record.
 *
 * The question every lecture on the ladder asks, answered on one screen: a
 * rung beside the rung below it (on a record made on the CPU, the blocked
 * kernel beside the naive one) — the rung its source header says it
 * changed from ("What changed from rung 8"), else the previous timed GPU
 * rung of its precision in the same record (cuBLAS is no rung) — with
 *
 *   - the answer in numbers: their median times and the ratio;
 *   - what changed, in the ladder's sentence for the rung (its registry
 *     row's `changed`, translated), and the two kernels' bodies as a diff
 *     (tl-kernel-source.h, tl-line-diff.h);
 *   - a table, before → after, with a trend per row: with hardware
 *     counters DRAM and L2 bytes, the L2 hit rate, shared-memory bank
 *     conflicts, achieved occupancy, FLOP per DRAM byte and the stall mix;
 *     without them what the record still knows — GFLOP/s, the share of
 *     the reference, registers, shared memory, occupancy and waves from
 *     the launch facts, and block times, waves and the tail from the block
 *     records;
 *   - the two points of the roofline (counters) and whether both rungs
 *     recorded their blocks (the painter stacks their timelines on one
 *     time scale).
 *
 * Plain data, no drawing: tl-paint-lesson.h draws it, `render --view
 * lesson` and the Lesson page host it.
 */
#pragma once

#include <glib.h>

#include "record/tl-record.h"
#include "view/tl-lesson-rows.h"
#include "view/tl-line-diff.h"
#include "view/tl-roofline.h"

G_BEGIN_DECLS

typedef struct
{
  char *lower_id, *upper_id;        /* the rung below, the rung */
  const TlKernelInfo *lower_info, *upper_info; /* their rows of the registry (the runs' own) */
  char *lower_name, *upper_name;    /* "03 shared memory 16×16" */
  char *lower_short, *upper_short;  /* "03", "10 BF16": for columns and markers */
  char *question;                   /* "Why is 04 … faster than 03 …?" (or slower) */
  char *answer;                     /* "1.06× faster: 16.9 ms → 16.0 ms at 4096×4096×4096" */
  char *what_changed;               /* the rung's `changed` sentence, translated (its lesson
                                       where it has none), or NULL */
  GPtrArray *rows;                  /* TlLessonRow */
  gboolean has_counters;            /* both runs have measured counters */
  TlLineDiff *diff;                 /* the kernels' bodies, in hunks; NULL without sources */
  char *diff_note;                  /* why there is no diff, or "the same file: …"; NULL otherwise */
  TlRoofline *roofline;             /* the two points (below first); NULL without counters */
  gboolean has_blocks;              /* both runs recorded their blocks */
  char *missing;                    /* what the record lacks, in a sentence, or NULL */
} TlLesson;

/* The record's ladder: its timed GPU rungs in ladder order (kernel ids,
 * borrowed from record); in a record with fewer than two of those (one
 * made on the CPU), its timed CPU kernels but the yardstick (naive, then
 * blocked).  A lesson needs two. */
GPtrArray *tl_lesson_ladder (const TlRunRecord *record);
/* The lesson of upper_id against the rung below it; NULL for upper_id the
 * ladder's first rung (the rung's lesson, then). NULL upper_id: the top
 * rung.  TL_ERROR_INVALID when the record has no such rung or fewer than
 * two. */
TlLesson  *tl_lesson_new      (const TlRunRecord *record, const char *upper_id, GError **error);
void       tl_lesson_free     (TlLesson *lesson);

/* The same without the source part (diff and diff_note NULL): only the
 * record's numbers and the registry's words, quick enough for the main
 * loop.  The source part reads two kernel files and compares their lines:
 * the app makes it on a worker (tl_lesson_source_new reads only the two
 * kernels' files: its strings are the rungs' TlKernelInfo source_path;
 * same_precision: the two compute alike, so one file means one kernel
 * twice) and moves it in when it is done. */
TlLesson  *tl_lesson_new_brief (const TlRunRecord *record, const char *upper_id, GError **error);

typedef struct
{
  TlLineDiff *diff;                 /* as in TlLesson */
  char *diff_note;
} TlLessonSource;

TlLessonSource *tl_lesson_source_new  (const char *lower_path, const char *upper_path,
                                       gboolean same_precision);
/* the same for the rungs of lesson, at once (not on the main loop) */
TlLessonSource *tl_lesson_source_new_for (const TlLesson *lesson);
void            tl_lesson_source_free (TlLessonSource *source);
/* Moves source's parts into lesson, replacing what it had. */
void            tl_lesson_take_source (TlLesson *lesson, TlLessonSource *source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlLesson, tl_lesson_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlLessonSource, tl_lesson_source_free)

G_END_DECLS
