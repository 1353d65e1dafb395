/* tl-lesson-rows.h — the lesson's table: before → after, with a trend per row.
 *
 * Each row compares one quantity of the rung below with the rung
 * (tl-lesson.h): its two values as a reader sees them, the change in
 * words and as a factor, which way it went, and whether that helps —
 * fewer DRAM bytes do, a higher L2 hit rate does, occupancy and the stall
 * mix move without being good or bad in themselves.
 */
#pragma once

#include <glib.h>

#include "record/tl-record.h"

G_BEGIN_DECLS

typedef enum
{
  TL_LESSON_SAME,     /* no change worth a word */
  TL_LESSON_BETTER,   /* the change helps (fewer bytes, more hits) */
  TL_LESSON_WORSE,    /* it costs */
  TL_LESSON_NEUTRAL,  /* it moved, neither good nor bad in itself (the stall mix) */
} TlLessonTrend;

typedef struct
{
  char *title;        /* "DRAM bytes" */
  char *before;       /* "8.45 GB" (the rung below), "—" when unknown */
  char *after;        /* "1.07 GB" (the rung) */
  char *change;       /* "7.9× fewer", "+21 points", "" */
  char *factor;       /* the same, short, for a narrow column: "7.9×", "+21", "" (none,
                         or from or to zero: the arrow alone) */
  TlLessonTrend trend;
  int direction;      /* the value went up (+1), down (−1) or stayed (0) */
  gboolean heading;   /* a heading over the rows under it ("stalls:"): its title only,
                         the cells "" */
  gboolean indented;  /* a row under a heading ("long scoreboard") */
} TlLessonRow;

/* An empty array of TlLessonRow that frees them. */
GPtrArray *tl_lesson_rows_new (void);
/* The median times and the share of the reference (or GFLOP/s). */
void tl_lesson_rows_add_times (GPtrArray *rows, const TlKernelRun *lower, const TlKernelRun *upper);
/* DRAM and L2 bytes, L2 hit rate, bank conflicts, achieved occupancy,
 * FLOP per byte, then the stall mix under a heading of its own (both runs
 * have measured counters). */
void tl_lesson_rows_add_counters (GPtrArray *rows, const TlRunRecord *record,
                                  const TlKernelRun *lower, const TlKernelRun *upper);
/* Registers, shared memory, occupancy and waves from the launch facts
 * (nothing unless both runs have them). */
void tl_lesson_rows_add_launch (GPtrArray *rows, const TlKernelRun *lower, const TlKernelRun *upper);
/* Blocks, their median time, waves and the last partial wave (nothing
 * unless both runs recorded their blocks). */
void tl_lesson_rows_add_blocks (GPtrArray *rows, const TlRunRecord *record,
                                const TlKernelRun *lower, const TlKernelRun *upper);

G_END_DECLS
