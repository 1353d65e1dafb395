/* tl-lu-terms.h — the words elimination is described in: how rows are
 * pivoted and the phases a block step's time splits into.  The factoriser
 * (tl-lu.h) and the step recorder (tl-lu-recorder.h) both speak them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  TL_PIVOTING_NONE = 0,
  TL_PIVOTING_PARTIAL = 1,
} TlPivoting;

const char *tl_pivoting_name      (TlPivoting pivoting); /* "none", "partial" */
gboolean    tl_pivoting_from_name (const char *name, TlPivoting *out);

/* Phases of one block step, as seed 004's Figure 5 splits the time. */
typedef enum
{
  TL_LU_PHASE_PANEL = 0, /* factor the b columns of the panel (pivot search, scale, rank-1) */
  TL_LU_PHASE_SWAP,      /* apply the panel's row swaps left and right of it */
  TL_LU_PHASE_TRSM,      /* U12 = L11⁻¹ A12 */
  TL_LU_PHASE_GEMM,      /* A22 −= L21 · U12: the matrix multiplication */
} TlLuPhase;
#define TL_LU_N_PHASES 4
const char *tl_lu_phase_name (TlLuPhase phase); /* "panel", "swap", "trsm", "gemm" */

G_END_DECLS
