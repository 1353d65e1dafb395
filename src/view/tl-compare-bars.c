/* tl-compare-bars.c — the Compare page's models (bars, size sweep) from run records. */
#include "view/tl-compare-bars.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

void
tl_compare_model_init (TlCompareModel *model)
{
  g_return_if_fail (model != NULL);
  *model = (TlCompareModel) {0};
  model->reference_index = -1;
  model->baseline_index = -1;
  model->selected_index = -1;
  model->reference_name = "cuBLAS";
  model->baseline_name = "CPU naive";
}

double
tl_compare_bar_value (const TlCompareModel *model, guint index, double *out_lo, double *out_hi)
{
  g_return_val_if_fail (model != NULL && index < model->n_bars, NAN);

  const TlCompareBar *b = &model->bars[index];
  double v, lo, hi;

  if (!tl_compare_bar_is_timed (b))
    {
      if (out_lo)
        *out_lo = NAN;
      if (out_hi)
        *out_hi = NAN;
      return NAN;
    }

  double min_ms = b->min_ms > 0 ? b->min_ms : b->median_ms;
  double max_ms = b->max_ms > 0 ? b->max_ms : b->median_ms;
  if (model->metric == TL_COMPARE_GFLOPS)
    {
      /* flops / (ms · 1e-3 s) / 1e9 */
      v = b->flops / (b->median_ms * 1e6);
      lo = b->flops / (max_ms * 1e6);
      hi = b->flops / (min_ms * 1e6);
    }
  else
    {
      v = b->median_ms;
      lo = min_ms;
      hi = max_ms;
    }
  if (out_lo)
    *out_lo = lo;
  if (out_hi)
    *out_hi = hi;
  return v;
}

GArray *
tl_compare_bars_from_runs (GPtrArray *runs, double flops, gboolean by_title,
                           GPtrArray *strings, gint *out_baseline_index)
{
  GArray *bars = g_array_new (FALSE, TRUE, sizeof (TlCompareBar));
  *out_baseline_index = -1;

  for (guint i = 0; i < runs->len; i++)
    {
      const TlKernelRun *r = runs->pdata[i];
      const TlKernelInfo *info = r->info;
      TlCompareBar b = { 0 };

      if (by_title)
        {
          char *label = tl_kernel_display_name (info, r->kernel_id);
          g_ptr_array_add (strings, label);
          b.label = label;
        }
      else
        b.label = r->kernel_id;
      b.kernel_id = r->kernel_id;
      b.residual = NAN;
      b.cpu = r->backend == TL_BACKEND_CPU;
      b.reference = info && info->reference;
      b.flops = flops;
      b.percent_of_reference = NAN;
      if (r->status == TL_RUN_OK && r->time.count > 0)
        {
          b.median_ms = r->time.median;
          b.min_ms = r->time.min;
          b.max_ms = r->time.max;
        }
      else
        {
          char *why = g_strdup_printf ("%s: %s", tl_run_status_name (r->status),
                                       r->message ? r->message : "");
          g_ptr_array_add (strings, why);
          b.failed = why;
        }
      /* the yardstick's short name: "cuBLAS BF16", "OpenBLAS ?gemm" */
      if (r->reference != NULL)
        {
          b.percent_of_reference = r->percent_of_reference;
          b.reference_label = _(r->reference->title);
        }
      if (info != NULL && info->baseline && !b.failed)
        *out_baseline_index = (gint) bars->len;
      g_array_append_val (bars, b);
    }
  return bars;
}

static gboolean
job_is_lu (const TlJob *job)
{
  return job && g_strcmp0 (job->kind, "lu") == 0;
}

/* m·n² − n³/3 for m ≥ n (⅔·n³ for a square matrix), and the transpose's otherwise */
static double
lu_flops (double m, double n)
{
  return m >= n ? m * n * n - n * n * n / 3.0 : n * m * m - m * m * m / 3.0;
}

GArray *
tl_compare_model_fill (TlCompareModel *model, const TlJob *job, GPtrArray *runs,
                       gboolean by_title, GPtrArray *strings)
{
  g_return_val_if_fail (model != NULL && runs != NULL && strings != NULL, NULL);

  gboolean lu = job_is_lu (job);
  double flops = job == NULL ? 0
                 : lu ? lu_flops ((double) job->m, (double) job->n)
                      : tl_stats_gemm_flops (job->m, job->k, job->n);
  GArray *bars = tl_compare_bars_from_runs (runs, flops, by_title, strings, &model->baseline_index);

  model->bars = (const TlCompareBar *) bars->data;
  model->n_bars = bars->len;
  model->work = lu ? TL_COMPARE_WORK_LU : TL_COMPARE_WORK_GEMM;
  model->baseline_name = _("CPU naive");
  if (lu)
    for (guint i = 0; i < runs->len; i++)
      {
        const TlKernelRun *r = runs->pdata[i];
        if (r->verified && isfinite (r->normwise))
          g_array_index (bars, TlCompareBar, i).residual = r->normwise;
      }
  if (job)
    {
      char *title = lu ? g_strdup_printf (_("PA = LU, %zu×%zu (%s)"), job->m, job->n,
                                          tl_dtype_name (job->dtype))
                       : g_strdup_printf (_("C = A·B, %zu×%zu · %zu×%zu (%s)"), job->m, job->k,
                                          job->k, job->n, tl_dtype_name (job->dtype));
      g_ptr_array_add (strings, title);
      model->title = title;
    }
  return bars;
}

/* ---- size sweep ------------------------------------------------------- */

typedef struct
{
  char *kernel_id;
  const TlKernelInfo *info; /* the runs' registry row */
  char *machine;
  gboolean reference;
  GArray *points; /* 2 doubles each: size ∛(m·k·n), GFLOP/s; sorted by size */
  GArray *shapes; /* 3 gsize each: m, k, n of the same point */
} SweepLine;

static void
sweep_line_free (SweepLine *l)
{
  g_free (l->kernel_id);
  g_free (l->machine);
  g_array_unref (l->points);
  g_array_unref (l->shapes);
  g_free (l);
}

/* "NVIDIA H200"; a CPU without its "(R)", "CPU" and clock */
static char *
machine_name (const TlRunRecord *rec, const TlKernelRun *run)
{
  if (run->backend == TL_BACKEND_GPU && rec->has_device && rec->device.name[0])
    return g_strdup (rec->device.name);
  const char *cpu = rec->machine.cpu_model ? rec->machine.cpu_model
                    : rec->machine.host_name ? rec->machine.host_name : _("this machine");
  GString *s = g_string_new (cpu);
  static const char *const noise[] = { "(R)", "(TM)", "(tm)", " CPU", "Processor" };
  for (guint i = 0; i < G_N_ELEMENTS (noise); i++)
    {
      char *at;
      while ((at = strstr (s->str, noise[i])) != NULL)
        g_string_erase (s, at - s->str, strlen (noise[i]));
    }
  char *clock = strstr (s->str, " @");
  if (clock)
    g_string_truncate (s, clock - s->str);
  return g_strstrip (g_string_free (s, FALSE));
}

static void
sweep_add_point (SweepLine *l, const TlJob *job, double gflops)
{
  double size = cbrt ((double) job->m * job->k * job->n);
  gsize shape[3] = { job->m, job->k, job->n };
  guint count = l->points->len / 2;
  /* the latest measurement of a problem wins */
  for (guint j = 0; j < count; j++)
    {
      const gsize *q = &g_array_index (l->shapes, gsize, 3 * j);
      if (q[0] == shape[0] && q[1] == shape[1] && q[2] == shape[2])
        {
          g_array_index (l->points, double, 2 * j + 1) = gflops;
          return;
        }
    }
  double p[2] = { size, gflops };
  /* sorted by size */
  guint at = 0;
  while (at < count && g_array_index (l->points, double, 2 * at) <= size)
    at++;
  g_array_insert_vals (l->points, 2 * at, p, 2);
  g_array_insert_vals (l->shapes, 3 * at, shape, 3);
}

TlSweepData *
tl_sweep_data_new (GPtrArray *records, const char *title)
{
  return tl_sweep_data_new_metric (records, title, FALSE);
}

/* A point's value: GFLOP/s, or % of the vendor in the same run. */
static double
sweep_value (const TlKernelRun *r, double flops, gboolean percent)
{
  if (r->status != TL_RUN_OK || r->time.count == 0)
    return NAN;
  return percent ? r->percent_of_reference : tl_stats_gflops (flops, r->time.median);
}

/* The index of name in machines, or machines->len. */
static guint
machine_index (GPtrArray *machines, const char *name)
{
  guint j = 0;
  while (j < machines->len && g_strcmp0 (machines->pdata[j], name) != 0)
    j++;
  return j;
}

/* The line of run's kernel on machine, added (with the machine) when new. */
static SweepLine *
sweep_line_for (GPtrArray *lines, GPtrArray *machines, const TlKernelRun *r, const char *machine)
{
  for (guint j = 0; j < lines->len; j++)
    {
      SweepLine *c = lines->pdata[j];
      if (g_strcmp0 (c->kernel_id, r->kernel_id) == 0 && g_strcmp0 (c->machine, machine) == 0)
        return c;
    }
  SweepLine *l = g_new0 (SweepLine, 1);
  l->kernel_id = g_strdup (r->kernel_id);
  l->info = r->info;
  l->machine = g_strdup (machine);
  l->reference = r->info && r->info->reference;
  l->points = g_array_new (FALSE, FALSE, sizeof (double));
  l->shapes = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_ptr_array_add (lines, l);
  if (machine_index (machines, machine) == machines->len)
    g_ptr_array_add (machines, g_strdup (machine));
  return l;
}

/* The short name at the end of line l: the rung's number, with its
 * precision where another line has the same number ("10 TF32", "10
 * BF16"); a GPU reference as "cuBLAS TF32", the CPU's as "OpenBLAS"; NULL
 * for a kernel off the ladder (the legend names it). */
static char *
sweep_tag (const SweepLine *l, GPtrArray *lines)
{
  const TlKernelInfo *info = l->info;
  if (info == NULL || (info->number <= 0 && !info->reference))
    return NULL;
  g_autofree char *precision = g_ascii_strup (info->precision ? info->precision : "", -1);
  if (info->reference)
    return info->backend == TL_BACKEND_GPU ? g_strdup_printf ("cuBLAS %s", precision) : g_strdup ("OpenBLAS");
  for (guint j = 0; j < lines->len; j++)
    {
      const SweepLine *o = lines->pdata[j];
      if (o->info && o->info->number == info->number && g_strcmp0 (o->kernel_id, l->kernel_id) != 0)
        return g_strdup_printf ("%02d %s", info->number, precision);
    }
  return g_strdup_printf ("%02d", info->number);
}

/* A series of data from line l, its arrays kept by data; labelled by its
 * kernel (the legend keys the machines apart). */
static void
sweep_add_series (TlSweepData *data, const SweepLine *l, GPtrArray *lines, GPtrArray *machines)
{
  TlSweepSeries s = { 0 };
  char *label = tl_kernel_display_name (l->info, l->kernel_id);
  char *tag = sweep_tag (l, lines);
  if (tag)
    g_ptr_array_add (data->keep, tag);
  s.tag = tag;
  guint count = l->points->len / 2;
  double *n = g_new (double, MAX (count, 1)), *gf = g_new (double, MAX (count, 1));
  gsize *shape = g_memdup2 (l->shapes->data, sizeof (gsize) * 3 * MAX (count, 1));
  for (guint j = 0; j < count; j++)
    {
      n[j] = g_array_index (l->points, double, 2 * j);
      gf[j] = g_array_index (l->points, double, 2 * j + 1);
    }
  char *id = g_strdup (l->kernel_id);
  g_ptr_array_add (data->keep, label);
  g_ptr_array_add (data->keep, id);
  g_ptr_array_add (data->keep, n);
  g_ptr_array_add (data->keep, gf);
  g_ptr_array_add (data->keep, shape);
  s.label = label;
  s.kernel_id = id;
  s.machine = machine_index (machines, l->machine);
  s.n = n;
  s.gflops = gf;
  s.shape = shape;
  s.count = count;
  s.reference = l->reference;
  g_array_append_val (data->series, s);
}

TlSweepData *
tl_sweep_data_new_metric (GPtrArray *records, const char *title, gboolean percent)
{
  g_return_val_if_fail (records != NULL, NULL);

  TlSweepData *data = g_new0 (TlSweepData, 1);
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func ((GDestroyNotify) sweep_line_free);
  g_autoptr (GPtrArray) machines = g_ptr_array_new_with_free_func (g_free);

  data->series = g_array_new (FALSE, TRUE, sizeof (TlSweepSeries));
  data->keep = g_ptr_array_new_with_free_func (g_free);
  for (guint h = 0; h < records->len; h++)
    {
      const TlRunRecord *rec = records->pdata[h];
      if (rec->job == NULL || job_is_lu (rec->job))
        continue;
      double flops = tl_stats_gemm_flops (rec->job->m, rec->job->k, rec->job->n);
      for (guint i = 0; i < rec->runs->len; i++)
        {
          const TlKernelRun *r = rec->runs->pdata[i];
          double gf = sweep_value (r, flops, percent);
          if (!(gf > 0))
            continue;
          g_autofree char *machine = machine_name (rec, r);
          sweep_add_point (sweep_line_for (lines, machines, r, machine), rec->job, gf);
        }
    }

  for (guint i = 0; i < lines->len; i++)
    sweep_add_series (data, lines->pdata[i], lines, machines);
  const char **names = g_new0 (const char *, machines->len + 1);
  for (guint j = 0; j < machines->len; j++)
    {
      names[j] = g_strdup (machines->pdata[j]);
      g_ptr_array_add (data->keep, (gpointer) names[j]);
    }
  g_ptr_array_add (data->keep, names);
  data->model.machines = names;
  data->model.n_machines = machines->len;
  data->model.series = (const TlSweepSeries *) data->series->data;
  data->model.n_series = data->series->len;
  data->model.percent = percent;
  if (title)
    {
      char *t = g_strdup (title);
      g_ptr_array_add (data->keep, t);
      data->model.title = t;
    }
  return data;
}

void
tl_sweep_data_free (TlSweepData *data)
{
  if (data == NULL)
    return;
  g_array_unref (data->series);
  g_ptr_array_unref (data->keep);
  g_free (data);
}

/* the sweep's title (taken), and after it the words a narrow picture
 * keeps: the metric alone */
static TlSweepData *
title_with_short_form (TlSweepData *data, gboolean percent, char *title)
{
  /* xgettext:no-c-format */
  const char *short_form = percent ? _("Size sweep: % of the vendor") : _("Size sweep: GFLOP/s");
  char *choices = g_strconcat (title, "\n", short_form, NULL);
  g_free (title);
  g_ptr_array_add (data->keep, choices);
  data->model.title = choices;
  return data;
}

TlSweepData *
tl_sweep_data_new_session (GPtrArray *records, gboolean percent)
{
  TlSweepData *data = tl_sweep_data_new_metric (records, NULL, percent);
  /* xgettext:no-c-format */
  const char *title = percent ? _("Size sweep: % of the vendor in the same run, every run of this session")
                              : _("Size sweep: GFLOP/s of every run of this session");
  return title_with_short_form (data, percent, g_strdup (title));
}

/* "on NVIDIA H200", or "on 2 machines" where the legend keys them */
static char *
sweep_where (const TlSweepModel *model)
{
  if (model->n_machines == 1)
    return g_strdup (model->machines[0]);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u machine", "%u machines", model->n_machines),
                          model->n_machines);
}

TlSweepData *
tl_sweep_data_new_records (GPtrArray *records, gboolean percent)
{
  g_return_val_if_fail (records != NULL, NULL);
  TlSweepData *data = tl_sweep_data_new_metric (records, NULL, percent);
  guint n = 0;
  for (guint h = 0; h < records->len; h++)
    {
      const TlRunRecord *rec = records->pdata[h];
      n += rec->job != NULL && !job_is_lu (rec->job);
    }
  g_autofree char *where = sweep_where (&data->model);
  char *title
    = percent ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                              "Size sweep: %% of the vendor in the same run, %u record on %s",
                                              "Size sweep: %% of the vendor in the same run, %u records on %s", n),
                                 n, where)
              : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Size sweep: GFLOP/s of %u record on %s",
                                              "Size sweep: GFLOP/s of %u records on %s", n),
                                 n, where);
  return title_with_short_form (data, percent, title);
}

gboolean
tl_sweep_model_has_sizes (const TlSweepModel *model)
{
  g_return_val_if_fail (model != NULL, FALSE);
  double first = NAN;
  for (guint i = 0; i < model->n_series; i++)
    for (guint j = 0; j < model->series[i].count; j++)
      {
        double n = model->series[i].n[j], g = model->series[i].gflops[j];
        if (!(g > 0) || !isfinite (n))
          continue;
        if (isnan (first))
          first = n;
        else if (fabs (n - first) > 1e-9 * first)
          return TRUE;
      }
  return FALSE;
}
