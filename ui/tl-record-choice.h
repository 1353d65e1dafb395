/* tl-record-choice.h — which of the session's GEMM records a view shows.
 *
 * The Roofline and Lesson pages draw one run record; a lecturer may have
 * opened several (a ladder with counters, an instrumented run at lecture
 * size).  A combo box lists every GEMM record of the session (its size,
 * machine and date, and whether it has counters); the page shows the one
 * chosen, or by default the one on show when it has what the page needs,
 * else the newest that has it.
 */
#pragma once

#include <gtk/gtk.h>
#include "record/tl-record.h"
#include "tl-session.h"

G_BEGIN_DECLS

/* What a page needs of a record for its default choice. */
typedef gboolean (*TlRecordWanted) (const TlRunRecord *record);

/* TRUE for a record with a GPU run whose counters were measured. */
gboolean     tl_record_has_counters (const TlRunRecord *record);

/* "4096×4096×4096 · NVIDIA H200 · 2026-11-24 07:08", then " — no counters"
 * where say_counters and it has none */
char        *tl_record_choice_label (const TlRunRecord *record, gboolean say_counters);

/* Refills combo with the session's GEMM records, keeping the record chosen
 * before when it is still there (else the default); hides it while there
 * are none. */
void         tl_record_choice_fill (GtkComboBoxText *combo, TlSession *session, TlRecordWanted wanted);
/* Refills combo with the session's GEMM records that wanted accepts, a
 * record opened twice listed once (its newest copy).  The record the user
 * chose stays chosen as others open; until the user chooses, the one on
 * show where wanted accepts it, else the newest that it does.  Returns
 * how many are listed. */
guint        tl_record_choice_fill_wanted (GtkComboBoxText *combo, TlSession *session, TlRecordWanted wanted);
/* The record chosen (borrowed from the session), or NULL. */
TlRunRecord *tl_record_choice_get  (GtkComboBox *combo, TlSession *session);

G_END_DECLS
