/* tl-generate.c — the generator table and the spec parser (see tl-generate.h).
 *
 * Every generator draws from one TlRng stream in row-major order, so the
 * values depend only on spec, seed, shape and dtype, never on threads.
 * Values are computed in double and rounded once into the dtype.  The
 * integer and uniform generators use only exact IEEE operations; normal,
 * condition and rank-deficient also use libm's log (tl-rng.h) and
 * condition uses pow, so their last bits assume a libm that rounds like
 * glibc's.
 */
#include "gen/tl-generate.h"
#include "core/tl-error.h"
#include "core/tl-rng.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF /* GCC: -std=c17 already means -ffp-contract=off */
#endif

#define MAX_PARAMS 3

typedef struct
{
  const char *key;
  double def;
  gboolean integer;
} ParamDef;

typedef struct
{
  TlMatrix *m;
  const double *p; /* parameter values, in ParamDef order */
  TlRng *rng;
} Job;

typedef struct
{
  TlGeneratorInfo info;    /* info.makes_int32: fills int32 matrices */
  ParamDef params[MAX_PARAMS];
  /* validates parameters against the shape; NULL if nothing to check */
  gboolean (*check) (const double *p, gsize rows, gsize cols, GError **error);
  gboolean (*fill) (Job *job, GError **error);
} Generator;

/* ---- storing --------------------------------------------------------- */

static inline void
store (TlMatrix *m, gsize i, gsize j, double v)
{
  char *row = tl_matrix_row (m, i);
  switch (m->dtype)
    {
    case TL_DTYPE_INT32:   ((gint32 *) row)[j] = (gint32) v; break;
    case TL_DTYPE_FLOAT32: ((float *) row)[j] = (float) v; break;
    case TL_DTYPE_FLOAT64: ((double *) row)[j] = v; break;
    }
}

static void
store_all (TlMatrix *m, double v)
{
  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      store (m, i, j, v);
}

/* ---- the generators --------------------------------------------------- */

static gboolean
check_uniform (const double *p, gsize rows, gsize cols, GError **error)
{
  if (!(p[0] < p[1]))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("random-uniform needs lo < hi (got lo=%g, hi=%g)"), p[0], p[1]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
fill_uniform (Job *job, GError **error)
{
  TlMatrix *m = job->m;
  double lo = job->p[0], hi = job->p[1];

  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      {
        double v = tl_rng_uniform_range (job->rng, lo, hi);
        if (m->dtype == TL_DTYPE_FLOAT32)
          {
            /* rounding to float may reach hi: step back one float */
            float f = (float) v;
            if (f >= hi)
              f = nextafterf (f, -INFINITY);
            ((float *) tl_matrix_row (m, i))[j] = f;
          }
        else
          store (m, i, j, v);
      }
  return TRUE;
}

static gboolean
check_normal (const double *p, gsize rows, gsize cols, GError **error)
{
  if (!(p[1] >= 0))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("random-normal needs sd ≥ 0 (got sd=%g)"), p[1]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
fill_normal (Job *job, GError **error)
{
  for (gsize i = 0; i < job->m->rows; i++)
    for (gsize j = 0; j < job->m->cols; j++)
      store (job->m, i, j, job->p[0] + job->p[1] * tl_rng_normal (job->rng));
  return TRUE;
}

static gboolean
check_int (const double *p, gsize rows, gsize cols, GError **error)
{
  if (p[0] > p[1])
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("random-int needs lo ≤ hi (got lo=%g, hi=%g)"), p[0], p[1]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
fill_int (Job *job, GError **error)
{
  gint64 lo = (gint64) job->p[0], hi = (gint64) job->p[1];
  for (gsize i = 0; i < job->m->rows; i++)
    for (gsize j = 0; j < job->m->cols; j++)
      store (job->m, i, j, (double) tl_rng_int_range (job->rng, lo, hi));
  return TRUE;
}

static gboolean
fill_ones (Job *job, GError **error)
{
  store_all (job->m, 1.0);
  return TRUE;
}

static gboolean
fill_zeros (Job *job, GError **error)
{
  store_all (job->m, 0.0);
  return TRUE;
}

static gboolean
fill_identity (Job *job, GError **error)
{
  for (gsize i = 0; i < job->m->rows; i++)
    for (gsize j = 0; j < job->m->cols; j++)
      store (job->m, i, j, i == j ? 1.0 : 0.0);
  return TRUE;
}

static gboolean
fill_hilbert (Job *job, GError **error)
{
  for (gsize i = 0; i < job->m->rows; i++)
    for (gsize j = 0; j < job->m->cols; j++)
      store (job->m, i, j, 1.0 / (double) (i + j + 1));
  return TRUE;
}

static gboolean
fill_tridiagonal (Job *job, GError **error)
{
  for (gsize i = 0; i < job->m->rows; i++)
    for (gsize j = 0; j < job->m->cols; j++)
      store (job->m, i, j, i == j ? 2.0 : (i == j + 1 || j == i + 1) ? -1.0 : 0.0);
  return TRUE;
}

static gboolean
check_dominant (const double *p, gsize rows, gsize cols, GError **error)
{
  if (!(p[0] > 0))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("diagonally-dominant needs margin > 0 (got margin=%g)"), p[0]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
fill_dominant (Job *job, GError **error)
{
  TlMatrix *m = job->m;
  g_autofree double *row = g_new (double, MAX (m->cols, 1));

  for (gsize i = 0; i < m->rows; i++)
    {
      for (gsize j = 0; j < m->cols; j++)
        row[j] = i == j ? 0.0 : tl_rng_uniform_range (job->rng, -1.0, 1.0);
      /* the off-diagonal values are stored first, so the diagonal sees
       * exactly what the matrix holds (float32 rounds them) */
      for (gsize j = 0; j < m->cols; j++)
        {
          store (m, i, j, row[j]);
          row[j] = tl_matrix_get (m, i, j);
        }
      double sum = 0.0;
      for (gsize j = 0; j < m->cols; j++)
        sum += fabs (row[j]);
      store (m, i, i, sum + job->p[0]);
    }
  return TRUE;
}

/* Haar-random orthogonal n×n matrix, row-major: Householder QR of a
 * normal matrix G = Q·R, then Q·diag(sign(R_jj)) so the distribution is
 * uniform over the orthogonal group (Mezzadri 2007).  g and v are n×n
 * scratch, d has n entries.  Every update runs along rows (c inner), so
 * the loops vectorise without reordering any sum. */
static void
haar_orthogonal (TlRng *rng, gsize n, double *q, double *g, double *v, double *d)
{
  for (gsize i = 0; i < n * n; i++)
    g[i] = tl_rng_normal (rng);

  /* v[j * n + r], r >= j: the j-th Householder vector, unit length */
  g_autofree double *sign = g_new (double, n);
  for (gsize j = 0; j < n; j++)
    {
      double *vj = v + j * n;
      double norm2 = 0.0;
      for (gsize r = j; r < n; r++)
        norm2 += g[r * n + j] * g[r * n + j];
      double norm = sqrt (norm2);
      memset (vj, 0, n * sizeof (double));
      if (norm == 0.0)
        {
          sign[j] = 1.0;
          continue;
        }
      double x0 = g[j * n + j];
      double alpha = x0 >= 0 ? -norm : norm; /* R_jj */
      sign[j] = alpha >= 0 ? 1.0 : -1.0;
      vj[j] = x0 - alpha;
      for (gsize r = j + 1; r < n; r++)
        vj[r] = g[r * n + j];
      double vnorm2 = 0.0;
      for (gsize r = j; r < n; r++)
        vnorm2 += vj[r] * vj[r];
      double vnorm = sqrt (vnorm2);
      for (gsize r = j; r < n; r++)
        vj[r] /= vnorm;

      /* G ← (I − 2 v vᵀ) G on columns j+1…: d = vᵀG, then G −= 2 v d */
      memset (d, 0, n * sizeof (double));
      for (gsize r = j; r < n; r++)
        {
          const double *gr = g + r * n;
          double w = vj[r];
          for (gsize c = j + 1; c < n; c++)
            d[c] += w * gr[c];
        }
      for (gsize r = j; r < n; r++)
        {
          double *gr = g + r * n;
          double w = 2.0 * vj[r];
          for (gsize c = j + 1; c < n; c++)
            gr[c] -= w * d[c];
        }
    }

  /* Q = H_0 H_1 … H_{n−1} I, innermost first; H_j … H_{n−1} I differs
   * from I only in rows and columns ≥ j. */
  memset (q, 0, n * n * sizeof (double));
  for (gsize c = 0; c < n; c++)
    q[c * n + c] = 1.0;
  for (gsize jj = n; jj-- > 0;)
    {
      const double *vj = v + jj * n;
      memset (d, 0, n * sizeof (double));
      for (gsize r = jj; r < n; r++)
        {
          const double *qr = q + r * n;
          double w = vj[r];
          for (gsize c = jj; c < n; c++)
            d[c] += w * qr[c];
        }
      for (gsize r = jj; r < n; r++)
        {
          double *qr = q + r * n;
          double w = 2.0 * vj[r];
          for (gsize c = jj; c < n; c++)
            qr[c] -= w * d[c];
        }
    }
  for (gsize r = 0; r < n; r++)
    for (gsize c = 0; c < n; c++)
      q[r * n + c] *= sign[c];
}

static gboolean
check_condition (const double *p, gsize rows, gsize cols, GError **error)
{
  if (!(p[0] >= 1.0) || !isfinite (p[0]))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("condition needs a finite kappa ≥ 1 (got kappa=%g)"), p[0]);
      return FALSE;
    }
  if (rows == 1 && p[0] != 1.0)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("a 1×1 matrix always has condition number 1 (asked for kappa=%g)"), p[0]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
fill_condition (Job *job, GError **error)
{
  TlMatrix *m = job->m;
  gsize n = m->rows;
  if (n == 0)
    return TRUE;

  /* scratch through tl_matrix_new so the memory cap applies to it too */
  g_autoptr (TlMatrix) s_u = tl_matrix_new (TL_DTYPE_FLOAT64, n, n, error);
  g_autoptr (TlMatrix) s_v = s_u ? tl_matrix_new (TL_DTYPE_FLOAT64, n, n, error) : NULL;
  g_autoptr (TlMatrix) s_g = s_v ? tl_matrix_new (TL_DTYPE_FLOAT64, n, n, error) : NULL;
  g_autoptr (TlMatrix) s_h = s_g ? tl_matrix_new (TL_DTYPE_FLOAT64, n, n, error) : NULL;
  if (s_h == NULL)
    return FALSE;
  double *u = s_u->data, *v = s_v->data, *g = s_g->data, *h = s_h->data;

  g_autofree double *d = g_new (double, n);
  haar_orthogonal (job->rng, n, u, g, h, d);
  haar_orthogonal (job->rng, n, v, g, h, d);

  /* σ_k = kappa^(−k/(n−1)): geometric from 1 down to exactly 1/kappa */
  g_autofree double *sigma = g_new (double, n);
  double kappa = job->p[0];
  for (gsize k = 0; k < n; k++)
    sigma[k] = n == 1 ? 1.0 : pow (kappa, -(double) k / (double) (n - 1));
  sigma[0] = 1.0;
  if (n > 1)
    sigma[n - 1] = 1.0 / kappa;

  /* A = U·diag(σ)·Vᵀ: A_ij = Σ_k U_ik σ_k V_jk.  h becomes Vᵀ so that
   * row i of A is a sum of rows of Vᵀ; every sum runs over k in order. */
  double *vt = h;
  for (gsize k = 0; k < n; k++)
    for (gsize j = 0; j < n; j++)
      vt[k * n + j] = v[j * n + k];
  double *a = g;
  memset (a, 0, n * n * sizeof (double));
  for (gsize i = 0; i < n; i++)
    {
      double *ai = a + i * n;
      for (gsize k = 0; k < n; k++)
        {
          double w = u[i * n + k] * sigma[k];
          const double *vk = vt + k * n;
          for (gsize j = 0; j < n; j++)
            ai[j] += w * vk[j];
        }
    }
  for (gsize i = 0; i < n; i++)
    for (gsize j = 0; j < n; j++)
      store (m, i, j, a[i * n + j]);
  return TRUE;
}

static gsize
rank_of (const double *p, gsize rows, gsize cols)
{
  gsize full = MIN (rows, cols);
  if (p[0] < 0)
    return full > 0 ? full - 1 : 0;
  return (gsize) p[0];
}

static gboolean
check_rank (const double *p, gsize rows, gsize cols, GError **error)
{
  gsize full = MIN (rows, cols);
  if (p[0] < -1 || (p[0] >= 0 && (gsize) p[0] > full))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("rank-deficient needs 0 ≤ rank ≤ min(rows, cols) = %zu, "
                     "or rank=-1 for %zu (got rank=%g)"),
                   full, full > 0 ? full - 1 : 0, p[0]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
fill_rank (Job *job, GError **error)
{
  TlMatrix *m = job->m;
  gsize r = rank_of (job->p, m->rows, m->cols);

  if (r == 0)
    {
      store_all (m, 0.0);
      return TRUE;
    }
  /* F (rows×r) and G (r×cols) normal; A = F·G/√r has rank r with
   * probability 1 and entries of unit variance. */
  g_autoptr (TlMatrix) f = tl_matrix_new (TL_DTYPE_FLOAT64, m->rows, r, error);
  g_autoptr (TlMatrix) g = f ? tl_matrix_new (TL_DTYPE_FLOAT64, r, m->cols, error) : NULL;
  if (g == NULL)
    return FALSE;
  double *fd = f->data, *gd = g->data;
  for (gsize i = 0; i < m->rows * r; i++)
    fd[i] = tl_rng_normal (job->rng);
  for (gsize i = 0; i < r * m->cols; i++)
    gd[i] = tl_rng_normal (job->rng);

  double scale = 1.0 / sqrt ((double) r);
  g_autofree double *row = g_new (double, m->cols);
  for (gsize i = 0; i < m->rows; i++)
    {
      memset (row, 0, m->cols * sizeof (double));
      for (gsize k = 0; k < r; k++)
        {
          double w = fd[i * r + k];
          const double *gk = gd + k * m->cols;
          for (gsize j = 0; j < m->cols; j++)
            row[j] += w * gk[j];
        }
      for (gsize j = 0; j < m->cols; j++)
        store (m, i, j, row[j] * scale);
    }
  return TRUE;
}

static gboolean
check_zero_column (const double *p, gsize rows, gsize cols, GError **error)
{
  if (cols == 0 || p[0] < -1 || (p[0] >= 0 && (gsize) p[0] >= cols))
    {
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("singular-zero-column needs 0 ≤ col < cols = %zu, or col=-1 for the "
                     "last column (got col=%g)"), cols, p[0]);
      return FALSE;
    }
  return TRUE;
}

static gboolean
fill_zero_column (Job *job, GError **error)
{
  TlMatrix *m = job->m;
  gsize zero = job->p[0] < 0 ? m->cols - 1 : (gsize) job->p[0];

  for (gsize i = 0; i < m->rows; i++)
    for (gsize j = 0; j < m->cols; j++)
      {
        double v = m->dtype == TL_DTYPE_INT32
                     ? (double) tl_rng_int_range (job->rng, -9, 9)
                     : tl_rng_uniform_range (job->rng, -1.0, 1.0);
        store (m, i, j, j == zero ? 0.0 : v);
      }
  return TRUE;
}

/* ---- the table -------------------------------------------------------- */

static const Generator generators[] = {
  { { "random-uniform", N_("Random uniform"),
      N_("uniform values in [lo, hi) (lo=-1, hi=1)"), "lo=-1,hi=1", FALSE, FALSE },
    { { "lo", -1, FALSE }, { "hi", 1, FALSE } }, check_uniform, fill_uniform },
  { { "random-normal", N_("Random normal"),
      N_("normally distributed values (mean=0, sd=1)"), "mean=0,sd=1", FALSE, FALSE },
    { { "mean", 0, FALSE }, { "sd", 1, FALSE } }, check_normal, fill_normal },
  { { "random-int", N_("Random integers"),
      N_("integers uniform in [lo, hi], both included (lo=0, hi=4 as in seed 004)"),
      "lo=0,hi=4", FALSE, TRUE },
    { { "lo", 0, TRUE }, { "hi", 4, TRUE } }, check_int, fill_int },
  { { "ones", N_("Ones"), N_("every entry 1 (seed 002)"), "", FALSE, TRUE },
    { { NULL } }, NULL, fill_ones },
  { { "zeros", N_("Zeros"), N_("every entry 0"), "", FALSE, TRUE },
    { { NULL } }, NULL, fill_zeros },
  { { "identity", N_("Identity"), N_("1 on the diagonal, 0 elsewhere"), "", TRUE, TRUE },
    { { NULL } }, NULL, fill_identity },
  { { "hilbert", N_("Hilbert"),
      N_("H(i,j) = 1/(i+j+1), counting from 0: famously ill-conditioned"), "", TRUE, FALSE },
    { { NULL } }, NULL, fill_hilbert },
  { { "tridiagonal", N_("Tridiagonal (−1, 2, −1)"),
      N_("2 on the diagonal, −1 beside it: the discrete Laplacian"), "", TRUE, TRUE },
    { { NULL } }, NULL, fill_tridiagonal },
  { { "diagonally-dominant", N_("Diagonally dominant"),
      N_("uniform [−1, 1) off the diagonal; diagonal = Σ|off-diagonal| + margin (margin=1)"),
      "margin=1", TRUE, FALSE },
    { { "margin", 1, FALSE } }, check_dominant, fill_dominant },
  { { "condition", N_("Chosen condition number"),
      N_("U·diag(σ)·Vᵀ with Haar-random U, V and σ geometric from 1 to 1/kappa "
         "(kappa=1000)"), "kappa=1000", TRUE, FALSE },
    { { "kappa", 1000, FALSE } }, check_condition, fill_condition },
  { { "rank-deficient", N_("Rank-deficient"),
      N_("product of random rows×rank and rank×cols matrices "
         "(rank=-1 means min(rows, cols) − 1)"), "rank=-1", FALSE, FALSE },
    { { "rank", -1, TRUE } }, check_rank, fill_rank },
  { { "singular-zero-column", N_("Singular: a zero column"),
      N_("uniform [−1, 1) (int32: integers −9..9) with column col all zero "
         "(col=-1 means the last)"), "col=-1", FALSE, TRUE },
    { { "col", -1, TRUE } }, check_zero_column, fill_zero_column },
};

guint
tl_generator_count (void)
{
  return G_N_ELEMENTS (generators);
}

const TlGeneratorInfo *
tl_generator_get (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (generators), NULL);
  return &generators[index].info;
}

static const Generator *
find_generator (const char *name)
{
  for (gsize i = 0; name != NULL && i < G_N_ELEMENTS (generators); i++)
    if (g_ascii_strcasecmp (generators[i].info.name, name) == 0)
      return &generators[i];
  return NULL;
}

const TlGeneratorInfo *
tl_generator_find (const char *name)
{
  const Generator *gen = find_generator (name);
  return gen ? &gen->info : NULL;
}

static char *
known_names (void)
{
  GString *s = g_string_new (NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (generators); i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", generators[i].info.name);
  return g_string_free (s, FALSE);
}

static char *
known_keys (const Generator *gen)
{
  GString *s = g_string_new (NULL);
  for (int i = 0; i < MAX_PARAMS && gen->params[i].key; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", gen->params[i].key);
  return g_string_free (s, FALSE);
}

/* Fills values[] with the defaults, then the spec's key=value pairs. */
static gboolean
parse_params (const Generator *gen, const char *text, double *values, GError **error)
{
  gboolean seen[MAX_PARAMS] = { FALSE };
  int n_params = 0;
  while (n_params < MAX_PARAMS && gen->params[n_params].key)
    {
      values[n_params] = gen->params[n_params].def;
      n_params++;
    }
  if (text == NULL || *text == '\0')
    return TRUE;

  g_auto (GStrv) pairs = g_strsplit (text, ",", -1);
  for (int p = 0; pairs[p]; p++)
    {
      char *pair = g_strstrip (pairs[p]);
      char *eq = strchr (pair, '=');
      if (n_params == 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("generator “%s” takes no parameters (got “%s”)"),
                       gen->info.name, pair);
          return FALSE;
        }
      g_autofree char *keys = known_keys (gen);
      if (eq == NULL)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("“%s” is not key=value; %s accepts: %s"), pair, gen->info.name, keys);
          return FALSE;
        }
      *eq = '\0';
      const char *key = g_strstrip (pair);
      const char *value = g_strstrip (eq + 1);

      int idx = -1;
      for (int i = 0; i < n_params; i++)
        if (g_ascii_strcasecmp (gen->params[i].key, key) == 0)
          idx = i;
      if (idx < 0)
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("unknown parameter “%s” for %s; it accepts: %s"),
                       key, gen->info.name, keys);
          return FALSE;
        }
      if (seen[idx])
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("parameter “%s” given twice"), key);
          return FALSE;
        }
      seen[idx] = TRUE;

      char *end = NULL;
      double v = *value ? g_ascii_strtod (value, &end) : NAN;
      if (*value == '\0' || end == NULL || *end != '\0' || !isfinite (v))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("parameter %s=“%s” is not a finite number"), key, value);
          return FALSE;
        }
      if (gen->params[idx].integer
          && (v != floor (v) || v < (double) G_MININT32 || v > (double) G_MAXINT32))
        {
          g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                       _("parameter %s=%s must be a whole number in the int32 range"),
                       key, value);
          return FALSE;
        }
      values[idx] = v;
    }
  return TRUE;
}

TlMatrix *
tl_generate (const char *spec, TlDtype dtype, gsize rows, gsize cols, guint64 seed,
             GError **error)
{
  g_return_val_if_fail (spec != NULL, NULL);
  g_return_val_if_fail ((unsigned) dtype < TL_DTYPE_COUNT, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  const char *colon = strchr (spec, ':');
  g_autofree char *name = colon ? g_strndup (spec, colon - spec) : g_strdup (spec);
  g_strstrip (name);
  const Generator *gen = find_generator (name);
  if (gen == NULL)
    {
      g_autofree char *names = known_names ();
      g_set_error (error, TL_ERROR, TL_ERROR_INVALID,
                   _("unknown generator “%s”; known generators: %s"), name, names);
      return NULL;
    }

  double values[MAX_PARAMS] = { 0 };
  if (!parse_params (gen, colon ? colon + 1 : NULL, values, error))
    return NULL;

  if (dtype == TL_DTYPE_INT32 && !gen->info.makes_int32)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_UNSUPPORTED,
                   _("generator “%s” makes real values: choose float32 or float64 "
                     "(random-int, ones, zeros, identity, tridiagonal and "
                     "singular-zero-column make int32)"), gen->info.name);
      return NULL;
    }
  if (gen->info.square_only && rows != cols)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_SHAPE,
                   _("generator “%s” makes square matrices; %zu×%zu is not square"),
                   gen->info.name, rows, cols);
      return NULL;
    }
  if (gen->check && !gen->check (values, rows, cols, error))
    return NULL;

  g_autoptr (TlMatrix) m = tl_matrix_new (dtype, rows, cols, error);
  if (m == NULL)
    return NULL;

  TlRng rng;
  tl_rng_init (&rng, seed);
  Job job = { m, values, &rng };
  if (!gen->fill (&job, error))
    return NULL;
  return g_steal_pointer (&m);
}
