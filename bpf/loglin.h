/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Log-linear latency histogram (as fio and HdrHistogram do): shared by the BPF programs and user
 * space, the one definition of the buckets.
 *
 * Values below 2^LOGLIN_SUB_BITS (32) have a bucket each. Above, every power of two [2^e, 2^(e+1))
 * is split into 32 linear sub-buckets of width 2^(e-5): bucket ((e - 4) << 5) | the 5 bits below
 * the leading one. A bucket is at most 1/32 of its lower bound wide, so its midpoint is within
 * 1/64 (1.6%) of any value in it. Values from 2^LOGLIN_MAX_BITS ns (68.7 s) up share the last
 * bucket (the exact maximum is kept beside the histogram). LOGLIN_BUCKETS = 1024 buckets.
 *
 * BPF cost per value: six compares and shifts for the leading bit, one shift and a mask; no loop.
 */
#ifndef IOWHY_LOGLIN_H
#define IOWHY_LOGLIN_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define LOGLIN_SUB_BITS 5
#define LOGLIN_SUB      (1 << LOGLIN_SUB_BITS)     /* sub-buckets per power of two */
#define LOGLIN_MAX_BITS 36                           /* 2^36 ns = 68.7 s: above, the last bucket */
#define LOGLIN_BUCKETS  ((LOGLIN_MAX_BITS - LOGLIN_SUB_BITS + 1) * LOGLIN_SUB)

/* Bucket of value v: always < LOGLIN_BUCKETS (a power of two, so a mask bounds it for the
 * verifier). */
static inline __attribute__((always_inline)) __u32 loglin_bucket(__u64 v)
{
	__u64 x = v;
	__u32 e = 0;

	if (v < LOGLIN_SUB)
		return (__u32)v;
	if (x >> 32) { x >>= 32; e += 32; }
	if (x >> 16) { x >>= 16; e += 16; }
	if (x >> 8) { x >>= 8; e += 8; }
	if (x >> 4) { x >>= 4; e += 4; }
	if (x >> 2) { x >>= 2; e += 2; }
	if (x >> 1) { e += 1; }
	if (e >= LOGLIN_MAX_BITS)
		return LOGLIN_BUCKETS - 1;
	return (((e - LOGLIN_SUB_BITS + 1) << LOGLIN_SUB_BITS) |
		(__u32)((v >> (e - LOGLIN_SUB_BITS)) & (LOGLIN_SUB - 1))) & (LOGLIN_BUCKETS - 1);
}

#ifndef __bpf__
/* Lowest value of bucket b. */
static inline __u64 loglin_low(__u32 b)
{
	__u32 g = b >> LOGLIN_SUB_BITS, s = b & (LOGLIN_SUB - 1);

	if (g == 0)
		return b;
	return (__u64)(LOGLIN_SUB + s) << (g - 1);
}

/* Width of bucket b (the last one is open-ended: its nominal width). */
static inline __u64 loglin_width(__u32 b)
{
	__u32 g = b >> LOGLIN_SUB_BITS;

	return g == 0 ? 1 : (__u64)1 << (g - 1);
}
#endif

#endif
