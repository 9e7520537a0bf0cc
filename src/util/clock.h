/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clock every phase window, event timestamp and session timing uses: CLOCK_MONOTONIC in
 * nanoseconds, which is also bpf_ktime_get_ns()'s clock, so user-space and BPF times compare.
 */
#ifndef IOWHY_CLOCK_H
#define IOWHY_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Clock `id` now, in nanoseconds (0 if the clock cannot be read). */
static inline uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	if (clock_gettime(id, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* CLOCK_MONOTONIC now, in nanoseconds: bpf_ktime_get_ns()'s clock. */
static inline uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/*
 * The kernel's tick (1/HZ) in nanoseconds, which jiffies count: the resolution of the coarse
 * clocks is the tick (the kernel's TICK_NSEC). 4 ms (HZ 250) if it cannot be read. This is what
 * the BPF objects convert jiffies with, instead of a CONFIG_HZ __kconfig extern (libbpf would
 * read and inflate /proc/config.gz at every load for it: ~13 ms of the start).
 */
static inline uint64_t tick_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC_COARSE, &ts) || ts.tv_sec || ts.tv_nsec <= 0)
		return 4000000;
	return (uint64_t)ts.tv_nsec;
}

#endif
