// SPDX-License-Identifier: GPL-2.0
/* Unit tests: attach --lite's on-CPU split by samples alone (lite_split.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "iowhy.h"
#include "lite_split.h"
#include "syscalls.h"
#include "cs_stack.h"

/* A lite row: never in_syscall; nr as the sampler read it from the registers (or none). */
static void row(struct cpu_samples *cs, uint64_t count, int kernel, uint16_t nr, uint32_t kstack)
{
	struct cs_row r = { .count = count, .nr = nr, .kernel_mode = kernel, .kstack = kstack,
			    .ustack = CS_NONE };

	strcpy(r.comm, "calib");
	assert_int_equal(cpu_samples_add_row(cs, &r), 0);
}

static const char *const in_getppid[] = { "__task_pid_nr_ns", "__x64_sys_getppid",
					  "x64_sys_call", "do_syscall_64",
					  "entry_SYSCALL_64_after_hwframe", NULL };
static const char *const in_fsync[] = { "jbd2_log_wait_commit", "ext4_sync_file", "do_fsync",
					"__x64_sys_fsync", "x64_sys_call", "do_syscall_64", NULL };
static const char *const entry_only[] = { "syscall_exit_work", "do_syscall_64",
					  "entry_SYSCALL_64_after_hwframe", NULL };
static const char *const irq_in_syscall[] = { "handle_softirqs", "__irq_exit_rcu",
					      "sysvec_apic_timer_interrupt", "__x64_sys_getppid",
					      "do_syscall_64", NULL };
static const char *const user_fault[] = { "clear_page_erms", "do_anonymous_page",
					  "handle_mm_fault", "exc_page_fault",
					  "asm_exc_page_fault", NULL };
static const char *const user_irq[] = { "handle_softirqs", "irq_exit_rcu",
					"sysvec_apic_timer_interrupt",
					"asm_sysvec_apic_timer_interrupt", NULL };
static const char *const fork_ret[] = { "schedule_tail", "ret_from_fork", NULL };

/* 200 samples: 40 user code; in syscalls 30 getppid (named by its frame), 50 entry/exit path
 * (named by the registers: getppid), 10 irq inside getppid, 20 fsync, 5 entry/exit with no
 * number; outside: 25 user-mode page faults (the registers hold an error code: ignored), 10
 * interrupts, 5 ret_from_fork, 5 lost stacks. */
static struct cpu_samples *sample_set(void)
{
	struct cpu_samples *cs = cpu_samples_new(999);
	int ppid = syscall_nr("getppid");

	assert_non_null(cs);
	assert_true(ppid >= 0);
	row(cs, 40, 0, IOWHY_NR_NONE, CS_NONE);
	row(cs, 30, 1, (uint16_t)ppid, stack(cs, in_getppid));
	row(cs, 50, 1, (uint16_t)ppid, stack(cs, entry_only));
	row(cs, 10, 1, (uint16_t)ppid, stack(cs, irq_in_syscall));
	row(cs, 20, 1, IOWHY_NR_NONE, stack(cs, in_fsync));
	row(cs, 5, 1, IOWHY_NR_NONE, stack(cs, entry_only));
	row(cs, 25, 1, 6, stack(cs, user_fault));
	row(cs, 10, 1, IOWHY_NR_NONE, stack(cs, user_irq));
	row(cs, 5, 1, IOWHY_NR_NONE, stack(cs, fork_ret));
	row(cs, 5, 1, 6, CS_NONE);
	cpu_samples_classify(cs);
	return cs;
}

static void test_where(void **state)
{
	struct cpu_samples *cs = sample_set();
	unsigned nr;

	(void)state;
	assert_int_equal(lite_split_where(cs, &cs->rows[0], &nr), LSW_USER);
	assert_int_equal(lite_split_where(cs, &cs->rows[1], &nr), LSW_SYSCALL);
	assert_int_equal(nr, (unsigned)syscall_nr("getppid"));
	assert_int_equal(lite_split_where(cs, &cs->rows[2], &nr), LSW_SYSCALL); /* registers */
	assert_int_equal(nr, (unsigned)syscall_nr("getppid"));
	assert_int_equal(lite_split_where(cs, &cs->rows[3], &nr), LSW_SYSCALL); /* irq inside */
	assert_int_equal(lite_split_where(cs, &cs->rows[4], &nr), LSW_SYSCALL); /* frame names it */
	assert_int_equal(nr, (unsigned)syscall_nr("fsync"));
	assert_int_equal(lite_split_where(cs, &cs->rows[5], &nr), LSW_SYSCALL);
	assert_int_equal(nr, IOWHY_NR_NONE);
	assert_int_equal(lite_split_where(cs, &cs->rows[6], &nr), LSW_FAULT); /* not syscall 6 */
	assert_int_equal(lite_split_where(cs, &cs->rows[7], &nr), LSW_IRQ);
	assert_int_equal(lite_split_where(cs, &cs->rows[8], &nr), LSW_KOTHER);
	assert_int_equal(lite_split_where(cs, &cs->rows[9], &nr), LSW_KOTHER); /* no stack */
	cpu_samples_free(cs);
}

static void test_split(void **state)
{
	struct cpu_samples *cs = sample_set();
	struct lite_split ls;
	double sum = 0;

	(void)state;
	assert_int_equal(lite_split(cs, 2000000, &ls), 0);
	assert_int_equal(ls.samples, 200);
	assert_int_equal(ls.user.samples, 40);
	assert_int_equal(ls.kernel.samples, 160);
	assert_int_equal(ls.syscalls.samples, 115);
	assert_int_equal(ls.unnamed, 5);
	assert_int_equal(ls.outside[LS_FAULT].samples, 25);
	assert_int_equal(ls.outside[LS_IRQ].samples, 10);
	assert_int_equal(ls.outside[LS_KOTHER].samples, 10);
	assert_int_equal(ls.group[syscall_group((unsigned)syscall_nr("fsync"))].samples, 20);
	/* shares, errors and times */
	assert_true(fabs(ls.kernel.share - 0.8) < 1e-12);
	assert_true(fabs(ls.kernel.share_err - sqrt(0.8 * 0.2 / 200)) < 1e-12);
	assert_true(fabs(ls.kernel.ns - 1600000) < 1e-6);
	assert_true(fabs(ls.kernel.err_ns - 2000000 * sqrt(0.8 * 0.2 / 200)) < 1e-6);
	assert_true(fabs(ls.user.ns + ls.kernel.ns - 2000000) < 1e-6);
	for (int g = 0; g < SG_COUNT; g++)
		sum += ls.group[g].ns;
	for (int k = 0; k < LS_OUTSIDE_COUNT; k++)
		sum += ls.outside[k].ns;
	assert_true(fabs(sum - ls.kernel.ns) < 1e-6);
	/* syscalls, most samples first: getppid 90, fsync 20, unnamed 5 */
	assert_int_equal(ls.ntop, 3);
	assert_int_equal(ls.top[0].nr, (unsigned)syscall_nr("getppid"));
	assert_int_equal(ls.top[0].p.samples, 90);
	assert_int_equal(ls.top[1].nr, (unsigned)syscall_nr("fsync"));
	assert_int_equal(ls.top[2].nr, IOWHY_NR_NONE);
	assert_string_equal(ls_outside_key(LS_FAULT), "page_fault");
	cpu_samples_free(cs);
}

static void test_no_samples(void **state)
{
	struct cpu_samples *cs = cpu_samples_new(999);
	struct lite_split ls;

	(void)state;
	cpu_samples_classify(cs);
	assert_int_equal(lite_split(cs, 1000, &ls), -1);
	assert_int_equal(ls.samples, 0);
	cpu_samples_free(cs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_where),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_no_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
