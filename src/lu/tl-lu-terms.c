/* tl-lu-terms.c — names of pivoting modes and block-step phases. */
#include "lu/tl-lu-terms.h"

const char *
tl_pivoting_name (TlPivoting pivoting)
{
  return pivoting == TL_PIVOTING_NONE ? "none" : "partial";
}

gboolean
tl_pivoting_from_name (const char *name, TlPivoting *out)
{
  if (g_strcmp0 (name, "none") == 0)
    *out = TL_PIVOTING_NONE;
  else if (g_strcmp0 (name, "partial") == 0)
    *out = TL_PIVOTING_PARTIAL;
  else
    return FALSE;
  return TRUE;
}

const char *
tl_lu_phase_name (TlLuPhase phase)
{
  static const char *const names[] = { "panel", "swap", "trsm", "gemm" };
  g_return_val_if_fail (phase < TL_LU_N_PHASES, "");
  return names[phase];
}
