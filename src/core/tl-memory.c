/* tl-memory.c — the memory budget: the least room under every limit. */
#include "core/tl-memory.h"
#include "core/tl-error.h"

#include <glib/gi18n-lib.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* cgroup limits at or above this mean "no limit" (v1 writes 2⁶³ less a page) */
#define CGROUP_UNLIMITED (G_GUINT64_CONSTANT (1) << 62)

gboolean
tl_memory_parse_kib (const char *text, const char *key, guint64 *out_bytes)
{
  gsize key_len = strlen (key);
  for (const char *at = text; at != NULL && *at != '\0'; at = strchr (at, '\n'), at = at ? at + 1 : NULL)
    {
      if (strncmp (at, key, key_len) != 0 || at[key_len] != ':')
        continue;
      const char *p = at + key_len + 1;
      while (*p == ' ' || *p == '\t')
        p++;
      char *end = NULL;
      guint64 kib = g_ascii_strtoull (p, &end, 10);
      if (end == p)
        return FALSE;
      *out_bytes = kib * 1024;
      return TRUE;
    }
  return FALSE;
}

/* A cgroup file holding one number ("max" in v2 means no limit). */
static gboolean
read_cgroup_number (const char *dir, const char *name, guint64 *out)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  if (g_str_has_prefix (text, "max"))
    {
      *out = G_MAXUINT64;
      return TRUE;
    }
  if (!g_ascii_isdigit (text[0]))
    return FALSE;
  *out = g_ascii_strtoull (text, NULL, 10);
  return TRUE;
}

/* Where a hierarchy is mounted: (mount point, its root) from mountinfo,
 * for a v2 mount (fstype cgroup2) or the v1 mount carrying "memory". */
static gboolean
find_cgroup_mount (const char *mountinfo, gboolean v2, char **out_point, char **out_root)
{
  g_auto (GStrv) lines = g_strsplit (mountinfo, "\n", -1);
  for (int k = 0; lines[k] != NULL; k++)
    {
      const char *dash = strstr (lines[k], " - ");
      if (dash == NULL)
        continue;
      g_auto (GStrv) head = g_strsplit (lines[k], " ", 6);
      g_auto (GStrv) tail = g_strsplit (dash + 3, " ", 3);
      if (g_strv_length (head) < 5 || g_strv_length (tail) < 3)
        continue;
      gboolean match = v2 ? strcmp (tail[0], "cgroup2") == 0 : FALSE;
      if (!v2 && strcmp (tail[0], "cgroup") == 0)
        {
          g_auto (GStrv) opts = g_strsplit (tail[2], ",", -1);
          match = g_strv_contains ((const char *const *) opts, "memory");
        }
      if (match)
        {
          *out_root = g_strdup (head[3]);
          *out_point = g_strdup (head[4]);
          return TRUE;
        }
    }
  return FALSE;
}

/* The least room (limit − use) from dir up to top, with its limit and use. */
static void
walk_up (const char *dir, const char *top, gboolean v2, guint64 *room, guint64 *limit,
         guint64 *used)
{
  const char *max_name = v2 ? "memory.max" : "memory.limit_in_bytes";
  const char *use_name = v2 ? "memory.current" : "memory.usage_in_bytes";
  g_autofree char *at = g_strdup (dir);
  gsize top_len = strlen (top);
  for (;;)
    {
      guint64 max, cur;
      if (read_cgroup_number (at, max_name, &max) && max < CGROUP_UNLIMITED
          && read_cgroup_number (at, use_name, &cur))
        {
          guint64 r = max > cur ? max - cur : 0;
          if (r < *room)
            *room = r, *limit = max, *used = cur;
        }
      if (strlen (at) <= top_len)
        break;
      char *parent = g_path_get_dirname (at);
      g_free (at);
      at = parent;
    }
}

gboolean
tl_memory_cgroup_room (const char *proc_cgroup, const char *mountinfo, const char *sysroot,
                       guint64 *out_limit, guint64 *out_used)
{
  guint64 room = G_MAXUINT64, limit = 0, used = 0;
  g_auto (GStrv) lines = g_strsplit (proc_cgroup, "\n", -1);
  for (int k = 0; lines[k] != NULL; k++)
    {
      /* "ID:CONTROLLERS:PATH"; v2 is "0::PATH" */
      g_auto (GStrv) f = g_strsplit (lines[k], ":", 3);
      if (g_strv_length (f) != 3 || f[2][0] != '/')
        continue;
      gboolean v2 = f[1][0] == '\0';
      if (!v2)
        {
          g_auto (GStrv) controllers = g_strsplit (f[1], ",", -1);
          if (!g_strv_contains ((const char *const *) controllers, "memory"))
            continue;
        }
      g_autofree char *point = NULL, *root = NULL;
      if (!find_cgroup_mount (mountinfo, v2, &point, &root))
        continue;
      /* the cgroup's path is relative to the mount's root */
      const char *rel = f[2];
      if (strcmp (root, "/") != 0 && g_str_has_prefix (rel, root))
        rel += strlen (root);
      g_autofree char *top = g_build_filename (sysroot, point, NULL);
      g_autofree char *dir = g_build_filename (top, rel, NULL);
      walk_up (dir, top, v2, &room, &limit, &used);
    }
  if (room == G_MAXUINT64)
    return FALSE;
  *out_limit = limit;
  *out_used = used;
  return TRUE;
}

static void
consider (TlMemoryBudget *b, TlMemoryLimit kind, guint64 limit, guint64 used)
{
  guint64 room = limit > used ? limit - used : 0;
  if (room < b->available)
    *b = (TlMemoryBudget) { room, kind, limit, used };
}

static void
consider_rlimit (TlMemoryBudget *b, int resource, TlMemoryLimit kind, const char *status,
                 const char *key)
{
  struct rlimit rl;
  guint64 used;
  if (getrlimit (resource, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && status != NULL
      && tl_memory_parse_kib (status, key, &used))
    consider (b, kind, (guint64) rl.rlim_cur, used);
}

void
tl_memory_address_budget_read (TlMemoryBudget *out)
{
  g_return_if_fail (out != NULL);
  *out = (TlMemoryBudget) { G_MAXUINT64, TL_MEMORY_LIMIT_NONE, 0, 0 };
  g_autofree char *status = NULL;
  g_file_get_contents ("/proc/self/status", &status, NULL, NULL);
  consider_rlimit (out, RLIMIT_AS, TL_MEMORY_LIMIT_ADDRESS_SPACE, status, "VmSize");
  consider_rlimit (out, RLIMIT_DATA, TL_MEMORY_LIMIT_DATA, status, "VmData");
}

void
tl_memory_budget_read (TlMemoryBudget *out)
{
  g_return_if_fail (out != NULL);
  tl_memory_address_budget_read (out);

  g_autofree char *meminfo = NULL;
  guint64 bytes;
  if (g_file_get_contents ("/proc/meminfo", &meminfo, NULL, NULL)
      && tl_memory_parse_kib (meminfo, "MemAvailable", &bytes))
    consider (out, TL_MEMORY_LIMIT_MACHINE, bytes, 0);

  g_autofree char *cgroup = NULL, *mountinfo = NULL;
  guint64 limit, used;
  if (g_file_get_contents ("/proc/self/cgroup", &cgroup, NULL, NULL)
      && g_file_get_contents ("/proc/self/mountinfo", &mountinfo, NULL, NULL)
      && tl_memory_cgroup_room (cgroup, mountinfo, "", &limit, &used))
    consider (out, TL_MEMORY_LIMIT_CGROUP, limit, used);
}

static char *
size_text (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* b as words, with the room left written as available */
static char *
describe_budget (const TlMemoryBudget *b, const char *available)
{
  g_autofree char *limit = size_text (b->limit), *used = size_text (b->used);
  switch (b->kind)
    {
    case TL_MEMORY_LIMIT_NONE:
      return g_strdup (_("no limit known"));
    case TL_MEMORY_LIMIT_MACHINE:
      /* TRANSLATORS: "2.1 GiB available (the machine's free memory)" */
      return g_strdup_printf (_("%s available (the machine's free memory)"), available);
    case TL_MEMORY_LIMIT_ADDRESS_SPACE:
      /* TRANSLATORS: "2.1 GiB available (ulimit -v is 4.0 GiB, 1.9 GiB of it in use)" */
      return g_strdup_printf (_("%s available (ulimit -v is %s, %s of it in use)"), available,
                              limit, used);
    case TL_MEMORY_LIMIT_DATA:
      return g_strdup_printf (_("%s available (ulimit -d is %s, %s of it in use)"), available,
                              limit, used);
    case TL_MEMORY_LIMIT_CGROUP:
      /* TRANSLATORS: a cgroup is the container's or service's memory limit */
      return g_strdup_printf (_("%s available (the cgroup's limit is %s, %s of it in use)"),
                              available, limit, used);
    }
  g_return_val_if_reached (NULL);
}

char *
tl_memory_budget_describe (const TlMemoryBudget *b)
{
  g_autofree char *available = size_text (b->available);
  return describe_budget (b, available);
}

/* bytes in MiB with one decimal: what tells two sizes apart that read the
 * same in GiB ("needs 3.6 GiB, 3.6 GiB available") */
static char *
mib_text (guint64 bytes)
{
  return g_strdup_printf (_("%.1f MiB"), bytes / 1048576.0);
}

static gsize kept_back;  /* bytes; read and written atomically */

void
tl_memory_keep_back (guint64 bytes)
{
  g_atomic_pointer_set (&kept_back, (gsize) MIN (bytes, G_MAXSIZE));
}

gboolean
tl_memory_check (guint64 bytes, const char *what, GError **error)
{
  if (bytes < TL_MEMORY_LARGE)
    return TRUE;
  TlMemoryBudget b;
  tl_memory_budget_read (&b);
  guint64 keep = (guint64) g_atomic_pointer_get (&kept_back);
  if (bytes <= b.available && b.available - bytes >= keep)
    return TRUE;
  if (keep > 0 && b.kind != TL_MEMORY_LIMIT_NONE)
    {
      /* what may be given out is what is left beyond the kept room */
      g_autofree char *need = size_text (bytes);
      g_autofree char *left = size_text (b.available > keep ? b.available - keep : 0);
      g_autofree char *kept = size_text (keep);
      g_autofree char *room = describe_budget (&b, left);
      /* TRANSLATORS: "a 4000×11000 float64 matrix needs 336 MiB, 100 MiB available
       * (ulimit -v is …); 256 MiB more is kept for the program's own work" */
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                   _("%s needs %s, %s; %s more is kept for the program's own work"),
                   what ? what : _("this"), need, room, kept);
      return FALSE;
    }
  g_autofree char *need = size_text (bytes);
  g_autofree char *available = size_text (b.available);
  if (g_strcmp0 (need, available) == 0)
    {
      g_free (need), g_free (available);
      need = mib_text (bytes), available = mib_text (b.available);
    }
  g_autofree char *room = describe_budget (&b, available);
  /* TRANSLATORS: "a 1×350000000 float64 matrix needs 2.6 GiB, 2.1 GiB available (…)" */
  g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY, _("%s needs %s, %s"),
               what ? what : _("this"), need, room);
  return FALSE;
}

gpointer
tl_memory_alloc (guint64 n, gsize size, gboolean zeroed, const char *what, GError **error)
{
  guint64 bytes;
  if (!g_uint64_checked_mul (&bytes, n, size) || bytes > G_MAXSIZE / 2)
    {
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                   _("%s needs more memory than can be addressed"), what ? what : _("this"));
      return NULL;
    }
  if (!tl_memory_check (bytes, what, error))
    return NULL;
  gsize len = MAX ((gsize) bytes, 1);
  gpointer p = zeroed ? calloc (1, len) : malloc (len);
  if (p == NULL)
    {
      g_autofree char *need = size_text (bytes);
      g_set_error (error, TL_ERROR, TL_ERROR_OUT_OF_MEMORY,
                   _("%s needs %s: out of memory"), what ? what : _("this"), need);
    }
  return p;
}

void
tl_memory_fit_malloc (void)
{
  TlMemoryBudget b;
  tl_memory_address_budget_read (&b);
  if (b.kind != TL_MEMORY_LIMIT_NONE)
    tl_memory_share_one_arena ();
}

void
tl_memory_share_one_arena (void)
{
#ifdef M_ARENA_MAX
  mallopt (M_ARENA_MAX, 1);
#endif
}

void
tl_memory_give_back (void)
{
#ifdef __GLIBC__
  gint64 t0 = g_get_monotonic_time ();
  malloc_trim (0);
  g_debug ("memory: freed memory given back in %.1f ms", (g_get_monotonic_time () - t0) / 1000.0);
#endif
}
