/* tl-device-facts.h — what the Device page says, as rows of a sheet
 * (view/tl-sheet.h): a heading, then label/value rows and sentences.  The
 * page sets its text from these rows and exports the same rows as a
 * table, so a value with a space in it ("cores 2") stays one value. */
#pragma once

#include "record/tl-machine.h"
#include "record/tl-record.h"
#include "view/tl-sheet.h"

G_BEGIN_DECLS

/* a GPU's facts: its name as the heading, then its limits */
void tl_device_facts_gpu     (TlSheet *sheet, const TlGpuFacts *gpu);
/* the GPU a run record was made on, and the roofs its roofline draws */
void tl_device_facts_record  (TlSheet *sheet, const TlRunRecord *record);
/* no GPU in this session: this machine's facts, what to do, and why (may be NULL) */
void tl_device_facts_no_gpu  (TlSheet *sheet, const TlMachineFacts *machine, const char *why);
/* a kernel's run (NULL: none chosen): its name as the heading, its launch
 * facts or why there are none, then its hardware counters in record (the
 * run's record; NULL: a run not yet in one) */
void tl_device_facts_kernel  (TlSheet *sheet, const TlRunRecord *record, const TlKernelRun *run);

G_END_DECLS
