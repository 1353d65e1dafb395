/* memory-test-util.h — a test child's address space held to what it uses
 * now plus a margin, as `ulimit -v` would (read back by core/tl-memory). */
#pragma once

#include <glib.h>
#include <sys/resource.h>

#include "core/tl-memory.h"

/* RLIMIT_AS (soft and hard) = this process's VmSize + extra bytes. */
static inline void
tl_test_limit_address_space (guint64 extra)
{
  g_autofree char *status = NULL;
  guint64 used = 0;
  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  g_assert_true (tl_memory_parse_kib (status, "VmSize", &used));
  struct rlimit rl = { used + extra, used + extra };
  g_assert_cmpint (setrlimit (RLIMIT_AS, &rl), ==, 0);
}
