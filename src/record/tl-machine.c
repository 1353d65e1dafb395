/* tl-machine.c — host name, OS, CPU model and cores, read once. */
#include "record/tl-machine.h"

#include <string.h>
#include <sys/utsname.h>


static char *
read_os_name (void)
{
  g_autofree char *pretty = g_get_os_info (G_OS_INFO_KEY_PRETTY_NAME);
  struct utsname u;
  g_autofree char *kernel = NULL;
  if (uname (&u) == 0)
    kernel = g_strdup_printf ("%s %s", u.sysname, u.release);
  if (pretty && kernel)
    return g_strdup_printf ("%s, %s", pretty, kernel);
  return g_strdup (pretty ? pretty : kernel ? kernel : "unknown");
}

static char *
read_cpu_model (void)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL))
    return g_strdup ("unknown");
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], "model name") || g_str_has_prefix (lines[i], "Model")
        || g_str_has_prefix (lines[i], "cpu model"))
      {
        const char *colon = strchr (lines[i], ':');
        if (colon)
          return g_strstrip (g_strdup (colon + 1));
      }
  return g_strdup ("unknown");
}

void
tl_machine_facts_read (TlMachineFacts *out)
{
  static GMutex lock;
  static TlMachineFacts cached;
  static gboolean have_cached;

  g_mutex_lock (&lock);
  if (!have_cached)
    {
      cached.host_name = g_strdup (g_get_host_name ());
      cached.os = read_os_name ();
      cached.cpu_model = read_cpu_model ();
      cached.cores = g_get_num_processors ();
      have_cached = TRUE;
    }
  out->host_name = g_strdup (cached.host_name);
  out->os = g_strdup (cached.os);
  out->cpu_model = g_strdup (cached.cpu_model);
  out->cores = cached.cores;
  g_mutex_unlock (&lock);
}

void
tl_machine_facts_clear (TlMachineFacts *facts)
{
  g_clear_pointer (&facts->host_name, g_free);
  g_clear_pointer (&facts->os, g_free);
  g_clear_pointer (&facts->cpu_model, g_free);
}


void
tl_machine_facts_copy (const TlMachineFacts *src, TlMachineFacts *dst)
{
  dst->host_name = g_strdup (src->host_name);
  dst->os = g_strdup (src->os);
  dst->cpu_model = g_strdup (src->cpu_model);
  dst->cores = src->cores;
}
