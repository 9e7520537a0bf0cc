/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iowhy attach: seeding by a BPF task iterator (bpf/seed.bpf.c). One pass over the kernel's tasks
 * makes every target task that is not a member yet a tree member in the state it is in, in the
 * kernel (no /proc read between the look and the write), and returns the tasks it seeded so the
 * model starts them in the same states. Where the kernel refuses iter/task programs, the caller
 * falls back to /proc (attach_probes.h); IOWHY_SEED_MODE=proc forces that fallback.
 */
#ifndef IOWHY_SEED_ITER_H
#define IOWHY_SEED_ITER_H

#include <stddef.h>
#include <sys/types.h>
#include "attach_probes.h"

struct seed_iter;
struct core_probes;

/*
 * Load and attach the iterator for phase `phase`, sharing c's tree maps: `all` seeds every task but
 * iowhy's (self), else the processes given with seed_iter_add. NULL when it cannot: why (one
 * phrase with the errno, e.g. "iter/task load: Operation not permitted") is written to why[n].
 */
struct seed_iter *seed_iter_open(struct core_probes *c, int phase, int lite, int all, pid_t self,
				 char *why, size_t n);
/* Make process tgid a target. 0, or -1 (the table of 4096 is full). */
int seed_iter_add(struct seed_iter *it, pid_t tgid);
/*
 * One pass: every target task not yet a member becomes one. The tasks seeded are put in *out
 * (allocated, free()); returns how many, or -1 (errno) when the iterator could not run.
 */
int seed_iter_run(struct seed_iter *it, struct seed_task **out);
void seed_iter_close(struct seed_iter *it);

#endif
