/* tl-plan-view.c — a planned rung's plan, laid on C's tiles. */
#include "view/tl-plan-view.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "gemm/tl-gemm-plan.h"

static guint
ceil_div (gsize a, guint b)
{
  return (guint) ((a + b - 1) / b);
}

/* Marks the tiles of the units from `first_unit` on (the last wave), in
 * the launch order of the header: bands of `group` unit-rows, each band
 * down its rows first. */
static guint
mark_last_wave (TlPlanView *v, guint unit_m, guint group, guint first_unit)
{
  const guint units_m = ceil_div (v->tiles_m, unit_m);
  const guint units_n = v->tiles_n;
  const guint64 units = (guint64) units_m * units_n;
  guint marked = 0;
  for (guint64 u = first_unit; u < units; u++)
    {
      const guint64 per_band = (guint64) group * units_n;
      const guint band = (guint) (u / per_band);
      const guint64 r = u % per_band;
      const guint rows = MIN (group, units_m - band * group);
      const guint um = band * group + (guint) (r % rows);
      const guint un = (guint) (r / rows);
      for (guint t = 0; t < unit_m; t++)
        {
          const guint tm = um * unit_m + t;
          if (tm < v->tiles_m && !v->last_wave[(gsize) tm * v->tiles_n + un])
            {
              v->last_wave[(gsize) tm * v->tiles_n + un] = 1;
              marked++;
            }
        }
    }
  return marked;
}

static char *
summary_of (const TlPlanView *v)
{
  g_autofree char *k_part =
      v->splits > 1 ? g_strdup_printf (_("k in %u slices of %u"), v->splits, v->k_per_split)
                    : g_strdup (_("k whole"));
  g_autofree char *idle =
      v->sm_count > 0
          ? g_strdup_printf (_("%u of %u SMs idle in the last"), v->idle_sms, v->sm_count)
          : g_strdup_printf (_("%u SMs idle in the last"), v->idle_sms);
  return g_strdup_printf (
      /* TRANSLATORS: plan 128x128/s4: 8 rows × 9 columns of 128×128 tiles · k in 4 slices of
         195 · 288 CTAs in 3 waves · 92 of 132 SMs idle in the last (the rung's largest tile,
         k whole: 92) */
      ngettext ("plan %s%s: %u rows × %u columns of %u×%u tiles · %s · %u CTAs in %u wave · %s "
                "(the rung's largest tile, k whole: %u)",
                "plan %s%s: %u rows × %u columns of %u×%u tiles · %s · %u CTAs in %u waves · %s "
                "(the rung's largest tile, k whole: %u)",
                v->waves),
      v->name, v->pinned ? _(" (pinned)") : "", v->tiles_m, v->tiles_n, v->tile_m, v->tile_n,
      k_part, v->work, v->waves, idle, v->idle_sms_default);
}

TlPlanView *
tl_plan_view_new (const TlKernelRun *run, gsize m, gsize k, gsize n, guint sm_count)
{
  g_return_val_if_fail (run != NULL, NULL);
  const TlGpuGemmPlan *p = &run->plan;
  if (!run->has_plan || p->tile_m <= 0 || p->tile_n <= 0 || m == 0 || n == 0 || k == 0)
    return NULL;
  TlPlanView *v = g_new0 (TlPlanView, 1);
  v->tile_m = (guint) p->tile_m;
  v->tile_n = (guint) p->tile_n;
  v->tiles_m = ceil_div (m, v->tile_m);
  v->tiles_n = ceil_div (n, v->tile_n);
  v->splits = (guint) MAX (p->splits, 1);
  v->k_per_split = p->k_per_split > 0 ? (guint) p->k_per_split : ceil_div (k, v->splits);
  v->cluster = (guint) MAX (p->cluster, 1);
  v->work = p->work > 0 ? (guint) p->work : v->tiles_m * v->tiles_n * v->splits;
  v->slots = p->slots > 0 ? (guint) p->slots : MAX (sm_count, 1u);
  v->waves = p->waves > 0 ? (guint) p->waves : ceil_div (v->work, v->slots);
  v->idle_sms = (guint) MAX (p->idle_sms, 0);
  v->idle_sms_default = (guint) MAX (p->idle_sms_default, 0);
  v->sm_count = sm_count;
  v->last_wave_fill = isfinite (p->last_wave_fill) ? CLAMP (p->last_wave_fill, 0.0, 1.0) : NAN;
  v->pinned = p->pinned != 0;
  v->name = g_strdup (p->name[0] ? p->name : "?");
  v->why = g_strdup (p->why);
  v->last_wave = g_new0 (guint8, (gsize) v->tiles_m * v->tiles_n);

  /* a multicast pair is two tiles stacked along m; a split's cluster is one tile */
  const guint unit_m = v->splits == 1 && v->cluster > 1 ? v->cluster : 1;
  const guint unit_ctas = v->cluster;
  const guint group = p->raster > 0 ? (guint) p->raster : 1;
  const guint64 first_cta = (guint64) (v->waves - 1) * v->slots;
  const guint first_unit = (guint) MIN (first_cta / unit_ctas, (guint64) G_MAXUINT);
  v->last_wave_tiles = mark_last_wave (v, unit_m, group, first_unit);

  v->summary = summary_of (v);
  v->legend = g_strdup_printf (
      ngettext ("outlined: the %u tile of the last wave (wave %u of %u)",
                   "outlined: the %u tiles of the last wave (wave %u of %u)", v->last_wave_tiles),
      v->last_wave_tiles, v->waves, v->waves);
  return v;
}

TlPlanView *
tl_plan_view_new_for_record (const TlRunRecord *record, const TlKernelRun *run)
{
  g_return_val_if_fail (record != NULL && record->job != NULL, NULL);
  const TlJob *job = record->job;
  guint sms = record->has_device && record->device.sm_count > 0 ? (guint) record->device.sm_count : 0;
  return tl_plan_view_new (run, job->m, job->k, job->n, sms);
}

TlPlanView *
tl_plan_view_predict (const char *kernel_id, gsize m, gsize k, gsize n, const TlGpuFacts *facts)
{
  g_return_val_if_fail (kernel_id != NULL, NULL);
  g_autoptr (TlKernelRun) run = tl_kernel_run_new (kernel_id, TL_BACKEND_GPU);
  if (!tl_gemm_plan_predict (kernel_id, m, k, n, facts, &run->plan))
    return NULL;
  run->has_plan = TRUE;
  guint sms = facts != NULL && facts->sm_count > 0 ? (guint) facts->sm_count : 132;
  TlPlanView *v = tl_plan_view_new (run, m, k, n, sms);
  if (v != NULL)
    v->predicted = TRUE;
  return v;
}

void
tl_plan_view_free (TlPlanView *view)
{
  if (view == NULL)
    return;
  g_free (view->last_wave);
  g_free (view->name);
  g_free (view->why);
  g_free (view->summary);
  g_free (view->legend);
  g_free (view);
}

gboolean
tl_plan_view_in_last_wave (const TlPlanView *view, guint tile_x, guint tile_y)
{
  g_return_val_if_fail (view != NULL, FALSE);
  if (tile_x >= view->tiles_n || tile_y >= view->tiles_m)
    return FALSE;
  return view->last_wave[(gsize) tile_y * view->tiles_n + tile_x] != 0;
}

char *
tl_plan_view_explain (const TlPlanView *v, gsize m, gsize k, gsize n)
{
  g_return_val_if_fail (v != NULL, NULL);
  GString *s = g_string_new (NULL);
  if (v->predicted)
    g_string_append_printf (s, _("The plan the cost model chooses for %zu×%zu×%zu, before a run, is %s: "),
                            m, k, n, v->name);
  else
    g_string_append_printf (s, _("This run's plan, %s%s, for %zu×%zu×%zu: "), v->name,
                            v->pinned ? _(" (pinned by --plan)") : "", m, k, n);
  g_string_append_printf (s, _("C is cut into %u×%u = %u tiles of %u×%u"), v->tiles_m, v->tiles_n,
                          v->tiles_m * v->tiles_n, v->tile_m, v->tile_n);
  if (v->splits > 1)
    g_string_append_printf (s, _(", and k into %u slices of %u, summed in one cluster per tile"),
                            v->splits, v->k_per_split);
  else if (v->cluster > 1)
    g_string_append_printf (s, _(", in clusters of %u that share their operand tiles"), v->cluster);
  g_string_append_printf (
      s, ngettext (": %u CTAs, %u at a time, so %u wave", ": %u CTAs, %u at a time, so %u waves", v->waves),
      v->work, v->slots, v->waves);
  if (isfinite (v->last_wave_fill))
    g_string_append_printf (s, _(", the last %.0f%% full"), 100.0 * v->last_wave_fill);
  if (v->sm_count > 0)
    g_string_append_printf (s, _(" (%u of %u SMs idle in it; the rung's largest tile without a split "
                                 "would leave %u idle)."),
                            v->idle_sms, v->sm_count, v->idle_sms_default);
  else
    g_string_append_printf (s, _(" (%u SMs idle in it; the rung's largest tile without a split would "
                                 "leave %u idle)."),
                            v->idle_sms, v->idle_sms_default);
  g_string_append (s, _(" The cost model (gpu/tl-gpu-plan.c) prices every plan as its waves' fill, "
                        "drain and split exchange plus the arithmetic of the CTAs its busiest SM runs, "
                        "at the rate the tile's size sustains, and runs the cheapest: a smaller tile or "
                        "a split of k fills idle SMs but adds waves and exchange."));
  if (v->why && v->why[0])
    g_string_append_printf (s, " %s", v->why);
  return g_string_free (s, FALSE);
}
