/* cli-counters.h — the hardware counters of `gemm --counters` as a table (cli-counters.c). */
#pragma once

#include <stdio.h>

#include "record/tl-record.h"

G_BEGIN_DECLS

/* The hardware counters of a record's GPU kernels: one row per kernel with
 * the views a lecture uses and the roofline's limiter, or the sentence
 * that says why a kernel has none. */
void tl_cli_print_counters (const TlRunRecord *record, FILE *out);

G_END_DECLS
