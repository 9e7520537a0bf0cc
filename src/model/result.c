// SPDX-License-Identifier: GPL-2.0
/* Sums over a phase's results: see result.h. */
#include <stdint.h>
#include <linux/types.h>
#include "result.h"
#include "syscalls.h"

uint64_t phase_sys_count(const struct phase_result *p, const char *syscall)
{
	int nr = syscall_nr(syscall);

	/* The last slot mixes every number from IOWHY_NR_SLOTS - 1 up: no single syscall's count. */
	if (nr < 0 || nr >= IOWHY_NR_SLOTS - 1)
		return 0;
	return p->sys[nr].count;
}

uint64_t phase_cpu_ns(const struct phase_result *p)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < p->ncomms; i++)
		sum += p->comms[i].state_ns[IOWHY_TS_USER] + p->comms[i].state_ns[IOWHY_TS_KERNEL];
	return sum;
}

uint64_t sys_oncpu_ns(const struct iowhy_sys_stat *st)
{
	return st->oncpu_ns < st->total_ns ? st->oncpu_ns : st->total_ns;
}
