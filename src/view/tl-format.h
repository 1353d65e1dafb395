/* tl-format.h — numbers, times, rates and shares as a reader sees them.
 *
 * The labels of every view — axis ticks, bar notes, block-time summaries,
 * the CLI's and the app's text reports — come from here, so a time reads
 * "2.91 ms" everywhere.  Locale-independent (a point, never a comma), and
 * free of any drawing: tested on strings alone.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How a number becomes its label (an axis tick, a value in a cell). */
typedef void (*TlTickFormat) (double value, char *buf, gsize size);

/* Compact, locale-independent: 3 significant digits, exponent when needed. */
void         tl_format_value (double v, char *buf, gsize size);
/* Whole numbers: "4096". */
void         tl_format_index (double v, char *buf, gsize size);
/* Powers of ten as "10⁵", "10⁻³", "10⁰". */
void         tl_format_power10 (double v, char *buf, gsize size);
/* The labels of a log axis from lo to hi: plain numbers ("0.01", "1000")
 * when the axis stays between 0.001 and 10⁴, else 10ⁿ for every tick. */
TlTickFormat tl_format_for_decades (double lo, double hi);
/* Times with a unit that fits: "48 ns", "812 µs", "2.91 ms", "1.20 s". */
void         tl_format_ms (double ms, char *buf, gsize size);
/* Rates with a unit: "94.1 GFLOP/s", "47.2 TFLOP/s". */
void         tl_format_gflops (double gflops, char *buf, gsize size);
/* A percentage with two significant digits below 10: "0.48%", "7.2%", "94%". */
void         tl_format_percent (double percent, char *buf, gsize size);

G_END_DECLS
