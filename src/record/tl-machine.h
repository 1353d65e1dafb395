/* tl-machine.h — facts about the computer a run record was made on.
 *
 * Read once per process from the OS (/proc/cpuinfo, uname, os-release)
 * and cached; records copy them.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *host_name;
  char *os;          /* "Debian GNU/Linux 12 (bookworm), Linux 6.1.0" */
  char *cpu_model;   /* from /proc/cpuinfo */
  guint cores;       /* logical processors */
} TlMachineFacts;

void tl_machine_facts_read  (TlMachineFacts *out);
void tl_machine_facts_clear (TlMachineFacts *facts);
void tl_machine_facts_copy  (const TlMachineFacts *src, TlMachineFacts *dst);

G_END_DECLS
