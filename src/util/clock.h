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

#endif
