/* tl-counters-lesson.h — the counters a rung's lesson is about, in words.
 *
 * A rung's registry row names the counter views its lesson is about
 * (TlKernelInfo.counters: "gld_sectors_per_request dram_bytes" for rung
 * 02).  Beside the lesson (Source page) and the launch facts (Device
 * page) those views are shown for the run in a record, each compared with
 * the rung below it in the same record — the nearest lower rung number
 * with counters: "DRAM bytes 16.1× fewer than 02".
 */
#pragma once

#include <glib.h>

#include "record/tl-record.h"

G_BEGIN_DECLS

typedef struct
{
  char *title;      /* "DRAM bytes" */
  char *value;      /* "1.07 GB" */
  char *comparison; /* "DRAM bytes 16.1× fewer than 02", or NULL (no rung below) */
} TlCounterLine;

void tl_counter_line_free (TlCounterLine *line);

/* The run of the rung below kernel_id in record: the GPU rung with the
 * highest number under kernel_id's that has measured counters; NULL for
 * references, the first rung, or when none ran. */
const TlKernelRun *tl_counters_rung_below (const TlRunRecord *record, const char *kernel_id);

/* The lines of kernel_id's lesson counters (GPtrArray of TlCounterLine,
 * empty when the run has no counters or its row names none). */
GPtrArray *tl_counters_lesson (const TlRunRecord *record, const char *kernel_id);

/* A run's counters as Pango markup for a side panel: its lesson counters
 * with their comparisons, then the top three warp-stall reasons; or the
 * sentence that says why there are none.  NULL when the run is not in the
 * record. */
char      *tl_counters_lesson_markup (const TlRunRecord *record, const char *kernel_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlCounterLine, tl_counter_line_free)

G_END_DECLS
