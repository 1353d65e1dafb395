/* tl-gauss-frame.h — one frame of the Gauss step player, built from a record.
 *
 * Frame N (0 ≤ N ≤ number of steps) is the moment before elimination
 * step k = N: the working matrix after N steps, the pivot search in
 * column N, the pivot chosen and the rows about to be swapped.  Frame
 * "number of steps" is the finished L\U.
 *
 * The record keeps only a few snapshots, so the working matrix is rebuilt:
 * from the latest snapshot at or before N that is a clean state (the
 * input, a block-step boundary, any snapshot of an unblocked kernel) the
 * recorded steps are replayed — swap rows k and pivot_row, store the
 * multipliers, update the Schur complement — in float64, or exactly in
 * GF(p).  A pooled snapshot (matrices above 512) cannot be replayed: the
 * nearest one is shown and `matrix_steps` says after how many steps.
 */
#pragma once

#include <gio/gio.h>
#include "lu/tl-lu-recorder.h"
#include "view/tl-pool.h"

G_BEGIN_DECLS

typedef struct
{
  const TlLuRecorder *record;  /* borrowed: outlive the frame */
  guint step;                  /* N */
  guint n_steps;
  const TlLuStep *current;     /* step N, NULL at the end */
  gint block;                  /* index of the block step containing N, -1: none */
  TlPooledGrid *matrix;        /* the working matrix (src shape rows × cols) */
  guint matrix_steps;          /* steps the matrix reflects (== step when exact) */
  gboolean exact;
  guint swaps_so_far;          /* row exchanges in steps 0..N−1 */
  double value_range;          /* colour scale ±value_range, the same for every frame of
                                  the record: the larger of max|A| and the 98th percentile
                                  of |L\U| (growth saturates instead of washing out) */
} TlGaussFrame;

/* NULL with TL_ERROR_INVALID when step > number of steps or the record has
 * no snapshot. */
TlGaussFrame *tl_gauss_frame_new  (const TlLuRecorder *record, guint step, GError **error);
void          tl_gauss_frame_free (TlGaussFrame *frame);

/* Number of frames: steps + 1. */
guint         tl_gauss_record_n_frames (const TlLuRecorder *record);
/* First step of each block step, for the player's ± one block. */
guint         tl_gauss_record_block_start (const TlLuRecorder *record, guint block);
/* The block step that contains step k, -1 when unblocked. */
gint          tl_gauss_record_block_of (const TlLuRecorder *record, guint k);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TlGaussFrame, tl_gauss_frame_free)

G_END_DECLS
