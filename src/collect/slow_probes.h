/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loader of bpf/slow.bpf.c (iowhy attach --slow): balance_dirty_pages pauses of tree tasks and jbd2
 * commits, in time order, for the slow calls' "meanwhile". Every probe is optional.
 */
#ifndef IOWHY_SLOW_PROBES_H
#define IOWHY_SLOW_PROBES_H

#include "probe_set.h"
#include "slow.h"

struct slow_probes;
struct core_probes;

extern const struct probe_spec slow_probe_specs[];
extern const int slow_probe_nspecs;

/* Load and attach, sharing core's tree maps; sleeps shorter than min_wait_ns are not sent. 0, or
 * -1 after one line (nothing loaded). */
int slow_probes_open(struct slow_probes **out, struct core_probes *core, uint64_t min_wait_ns);
/* The kernel stack of a sleep (SLOW_EV_WAIT's stack id), the scheduler's frames trimmed, as "a ←
 * b ← c" (innermost first, at most `frames`) into buf; "?" when it is lost. */
void slow_probes_stack(struct slow_probes *p, int id, int frames, char *buf, size_t n);
/* Hand every event the ring buffer holds to fn. */
void slow_probes_poll(struct slow_probes *p, void (*fn)(void *ctx, const struct slow_ev *e),
		      void *ctx);
/* Events the ring buffer had no room for. */
unsigned long long slow_probes_lost(const struct slow_probes *p);
/* Whether the probe called name is attached (0 for NULL). */
int slow_probes_attached(const struct slow_probes *p, const char *name);
const struct probe_set *slow_probes_set(const struct slow_probes *p);
/* Append the probes that are not attached, with why (nothing for NULL). */
int slow_probes_missing(const struct slow_probes *p, struct missing_probes *out);
void slow_probes_close(struct slow_probes *p);

#endif
