/* tl-compare-counters.h — the Compare page's bars coloured by a counter.
 *
 * Instead of its kernel's colour, each bar takes a colour from viridis by
 * one counter view of its run (tl-counters.h: DRAM bytes, sectors per
 * load, occupancy …), so the bars' lengths (time) and colours (why) sit
 * side by side.  Amounts (bytes, FLOPs, wavefronts) go on a log scale,
 * shares and per-request counts on a linear one.  A bar whose run has no
 * such counter (a CPU kernel, a record without counters) is grey: never
 * the colour of 0.
 */
#pragma once

#include <glib.h>

#include "view/tl-compare-bars.h"
#include "record/tl-record.h"

G_BEGIN_DECLS

/* Colours bars[i] (matched to record's runs by kernel_id) by the counter
 * view view_key.  Returns the legend line (translated: "Colour: DRAM
 * bytes, dark 211 MB … yellow 16.8 GB (log scale); grey: not counted"),
 * or NULL with every bar left alone when no bar's run has that counter
 * or the key is unknown. */
char *tl_compare_bars_color_by_counter (TlCompareBar *bars, guint n_bars,
                                        const TlRunRecord *record, const char *view_key);

/* The bars as the Compare page colours them by choice (NULL or "kernel":
 * their kernels' colours, and NULL is returned): coloured by the counter
 * view and its legend line returned, or — no run on show has it — left
 * alone and a line that says so.  An unknown key is NULL with
 * TL_ERROR_INVALID naming the keys there are. */
char *tl_compare_bars_color_by_choice (TlCompareBar *bars, guint n_bars,
                                       const TlRunRecord *record, const char *choice,
                                       GError **error);

G_END_DECLS
