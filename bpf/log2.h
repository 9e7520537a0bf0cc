/* SPDX-License-Identifier: GPL-2.0 */
/* log2 histogram slot: slot k holds [2^k, 2^(k+1)), slot 0 also 0; shared by BPF and user space. */
#ifndef IOWHY_LOG2_H
#define IOWHY_LOG2_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

static inline __attribute__((always_inline)) __u32 log2_slot(__u64 v, __u32 nslots)
{
	__u32 r = 0;

	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) { r += 1; }
	return r < nslots ? r : nslots - 1;
}

#endif
