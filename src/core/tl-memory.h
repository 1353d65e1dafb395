/* tl-memory.h — the memory budget: how much more this process may allocate.
 *
 * The budget is the least room left under every limit that applies:
 *
 *   the machine      MemAvailable (what the kernel can give without swapping)
 *   ulimit -v        RLIMIT_AS less the address space in use (VmSize)
 *   ulimit -d        RLIMIT_DATA less the data in use (VmData)
 *   cgroups          memory.max less memory.current (v2), memory.limit_in_bytes
 *                    less memory.usage_in_bytes (v1), for the process's cgroup
 *                    and each of its ancestors
 *
 * Every allocation whose size comes from input (a matrix, a vector per row
 * or column, a file's worth of anything) asks first, so it fails with a
 * sentence — "a 30000×30000 float64 matrix needs 6.7 GiB, 2.1 GiB available
 * (ulimit -v is 4.0 GiB, 1.9 GiB of it in use)" — rather than g_malloc's
 * abort or the kernel's OOM killer.  tl_memory_alloc then allocates with a
 * NULL check, since the budget is read a moment before the allocation and
 * other threads allocate too.
 *
 * TL_MAX_MATRIX_BYTES (environment, bytes) caps matrices further; the
 * fuzzers and tests use it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Allocations below this size are not checked: reading the limits costs
 * tens of microseconds, and such blocks are not what exhausts memory. */
#define TL_MEMORY_LARGE ((gsize) 1 << 20)

typedef enum
{
  TL_MEMORY_LIMIT_NONE,          /* the OS says nothing: no budget */
  TL_MEMORY_LIMIT_MACHINE,       /* MemAvailable */
  TL_MEMORY_LIMIT_ADDRESS_SPACE, /* RLIMIT_AS */
  TL_MEMORY_LIMIT_DATA,          /* RLIMIT_DATA */
  TL_MEMORY_LIMIT_CGROUP,        /* a memory cgroup's limit */
} TlMemoryLimit;

typedef struct
{
  guint64 available;  /* bytes that may still be allocated; G_MAXUINT64 when unknown */
  TlMemoryLimit kind; /* the limit that leaves the least */
  guint64 limit;      /* that limit (0 for the machine: MemAvailable is already net) */
  guint64 used;       /* what counts against it */
} TlMemoryBudget;

void      tl_memory_budget_read     (TlMemoryBudget *out);
/* The budget under ulimit -v and ulimit -d alone: the address space that
 * may still be mapped, whether or not it is ever touched. */
void      tl_memory_address_budget_read (TlMemoryBudget *out);
/* "2.1 GiB available (ulimit -v is 4.0 GiB, 1.9 GiB of it in use)" */
char     *tl_memory_budget_describe (const TlMemoryBudget *budget);

/* Room kept back from every check: a program whose other work allocates
 * without asking (the app's threads, fonts and pictures: GLib aborts when
 * those fail) keeps that much for it; a check then passes only when the
 * block leaves it.  0, the default, keeps nothing. */
void      tl_memory_keep_back       (guint64 bytes);

/* TL_ERROR_OUT_OF_MEMORY "WHAT needs 2.8 GiB, 2.1 GiB available (…)" when
 * bytes do not fit the budget (what: "a 1×350000000 float32 matrix", "the
 * record's tree"; NULL says "this").  Sizes below TL_MEMORY_LARGE pass. */
gboolean  tl_memory_check           (guint64 bytes, const char *what, GError **error);

/* tl_memory_check, then malloc (calloc when zeroed): NULL with the error
 * set when either fails.  Free with g_free.  n × size is overflow-checked. */
gpointer  tl_memory_alloc           (guint64 n, gsize size, gboolean zeroed, const char *what,
                                     GError **error);
#define   tl_memory_new(T, n, what, error) \
  ((T *) tl_memory_alloc ((n), sizeof (T), FALSE, (what), (error)))
#define   tl_memory_new0(T, n, what, error) \
  ((T *) tl_memory_alloc ((n), sizeof (T), TRUE, (what), (error)))

/* Which malloc arenas the threads use, decided once, first thing in
 * main before any thread starts — each program calls one of these:
 *
 *   the app         tl_memory_share_one_arena: one arena always, so that
 *                   tl_memory_give_back reaches what every thread freed
 *   tilelab-cli     tl_memory_fit_malloc: one arena under ulimit -v or -d
 *                   only; without a limit glibc's arena per thread stays
 *                   (no malloc lock shared by the CPU kernels' threads)
 *   its `serve`     tl_memory_share_one_arena too as the worker starts (it
 *                   gives memory back between jobs, as the app does)
 *
 * Why one arena under a limit: glibc gives a thread that finds the arena
 * locked one of its own, reserving 64 MiB of address space — how many a
 * program takes depends on timing — and a thread then started finds no
 * room for its stack (GLib aborts).  Why one arena to give memory back:
 * malloc_trim gives back the free pages of every arena's free lists but
 * the free top only of the main arena; a thread's own arena keeps its top
 * (up to twice the largest block freed lately, 64 MiB at most) resident
 * for as long as the program runs — the app would hold each remote run's
 * messages and payloads after it, on the runner thread that parsed them. */
void      tl_memory_fit_malloc      (void);
void      tl_memory_share_one_arena (void);
/* What the program freed goes back to the system (malloc_trim); a few ms. */
void      tl_memory_give_back       (void);

/* The parsers behind tl_memory_budget_read, for tests: each returns FALSE
 * when its text says nothing usable. */
gboolean  tl_memory_parse_kib       (const char *text, const char *key, guint64 *out_bytes);
/* The limit and use of the most constrained memory cgroup of a process:
 * proc_cgroup is /proc/self/cgroup's text, mountinfo /proc/self/mountinfo's;
 * sysroot is prepended to every path read ("" on a live system). */
gboolean  tl_memory_cgroup_room     (const char *proc_cgroup, const char *mountinfo,
                                     const char *sysroot, guint64 *out_limit,
                                     guint64 *out_used);

G_END_DECLS
