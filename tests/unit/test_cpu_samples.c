// SPDX-License-Identifier: GPL-2.0
/* Unit tests: classification of CPU samples, the corrected split, top functions (cpu_samples.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "iowhy.h"
#include "cpu_samples.h"
#include "cpu_explain.h"
#include "result.h"
#include "cs_stack.h"

static void row(struct cpu_samples *cs, uint64_t count, int kernel, uint16_t nr, uint32_t kstack,
		uint32_t ustack)
{
	struct cs_row r = {
		.count = count, .nr = nr, .kernel_mode = kernel, .in_syscall = nr != IOWHY_NR_NONE,
		.kstack = kstack, .ustack = ustack,
	};

	strcpy(r.comm, "dd");
	assert_int_equal(cpu_samples_add_row(cs, &r), 0);
}

static const char *const fault[] = { "clear_page_erms", "do_anonymous_page", "handle_mm_fault",
				     "do_user_addr_fault", "exc_page_fault", "asm_exc_page_fault",
				     NULL };
static const char *const irq_in_fault[] = { "e1000_clean", "handle_softirqs", "__irq_exit_rcu",
					    "sysvec_apic_timer_interrupt", "clear_page_erms",
					    "handle_mm_fault", "asm_exc_page_fault", NULL };
static const char *const entry[] = { "native_irq_enable", "syscall_exit_to_user_mode",
				     "do_syscall_64", "entry_SYSCALL_64_after_hwframe", NULL };
static const char *const probe[] = { "bpf_prog_0657616246b8bd37_btf_sys_enter", NULL };
static const char *const fork_ret[] = { "schedule_tail", "ret_from_fork", "ret_from_fork_asm",
					NULL };
static const char *const sys[] = { "__task_pid_nr_ns", "__x64_sys_getppid", "x64_sys_call",
				   "do_syscall_64", "entry_SYSCALL_64_after_hwframe", NULL };
static const char *const sys2[] = { "__x64_sys_getppid", "x64_sys_call", "do_syscall_64", NULL };
static const char *const user[] = { "memset", "main", "__libc_start_call_main", NULL };

/* 100 samples outside syscalls: 61 user, 20 fault, 5 irq (in a fault), 10 entry, 1 probe, 4 other;
 * 50 inside getppid (39). */
static struct cpu_samples *sample_set(void)
{
	struct cpu_samples *cs = cpu_samples_new(999);
	uint32_t us;

	assert_non_null(cs);
	us = stack(cs, user);
	row(cs, 61, 0, IOWHY_NR_NONE, CS_NONE, us);
	row(cs, 20, 1, IOWHY_NR_NONE, stack(cs, fault), us);
	row(cs, 5, 1, IOWHY_NR_NONE, stack(cs, irq_in_fault), us);
	row(cs, 9, 1, IOWHY_NR_NONE, stack(cs, entry), us);
	row(cs, 1, 1, IOWHY_NR_NONE, stack(cs, probe), us);
	row(cs, 3, 1, IOWHY_NR_NONE, stack(cs, fork_ret), CS_NONE);
	row(cs, 1, 1, IOWHY_NR_NONE, CS_NONE, us); /* kernel stack lost */
	row(cs, 30, 1, 39, stack(cs, sys), us);
	row(cs, 20, 1, 39, stack(cs, sys2), us);
	cpu_samples_classify(cs);
	return cs;
}

static void test_classify(void **state)
{
	struct cpu_samples *cs = sample_set();

	(void)state;
	assert_int_equal(cs->recorded, 150);
	assert_int_equal(cs->outside, 100);
	assert_int_equal(cs->class_samples[CC_USER], 61);
	assert_int_equal(cs->class_samples[CC_FAULT], 20);
	assert_int_equal(cs->class_samples[CC_IRQ], 5);    /* innermost marker wins */
	assert_int_equal(cs->class_samples[CC_ENTRY], 10); /* entry path and our own sys probes */
	assert_int_equal(cs->class_samples[CC_KOTHER], 4); /* ret_from_fork, a lost stack */
	assert_int_equal(cs->class_samples[CC_SYSCALL], 50);
	/* frames per sample: 6*20 + 7*5 + 4*9 + 1 + 3*3 + 5*30 + 3*20 kernel; 3 per user stack */
	assert_int_equal(cs->kframes, 120 + 35 + 36 + 1 + 9 + 150 + 60);
	assert_int_equal(cs->uframes, 3 * 147);
	assert_int_equal(cs->kframes_unresolved, 0);
	cpu_samples_free(cs);
}

static void test_split(void **state)
{
	struct cpu_samples *cs = sample_set();
	const struct cs_estimate *f;

	(void)state;
	/* tracepoints: 1000 ns user (outside syscalls), 500 ns kernel; wall user bucket 800 ns */
	cpu_samples_split(cs, 800, 1000, 500);
	f = &cs->tree_user[CC_FAULT];
	assert_int_equal(f->samples, 20);
	assert_true(fabs(f->share - 0.2) < 1e-9);
	assert_true(fabs(f->share_err - sqrt(0.2 * 0.8 / 100)) < 1e-9);
	assert_true(fabs(f->ns - 200) < 1e-6);
	assert_true(fabs(f->err_ns - 1000 * sqrt(0.2 * 0.8 / 100)) < 1e-6);
	assert_true(fabs(cs->wall_user[CC_USER].ns - 488) < 1e-6);
	/* the buckets of the split add up to what they split */
	{
		double sum = 0;

		for (int c = 0; c < CC_OUTSIDE; c++)
			sum += cs->wall_user[c].ns;
		assert_true(fabs(sum - 800) < 1e-6);
	}
	/* kernel = 500 + 1000 * 0.39 of 1500 */
	assert_true(fabs(cs->kernel_share - 890.0 / 1500) < 1e-9);
	assert_true(fabs(cs->kernel_share_err - 1000 * sqrt(0.61 * 0.39 / 100) / 1500) < 1e-9);
	assert_true(fabs(cs->sample_kernel_share - 89.0 / 150) < 1e-9);
	cpu_samples_free(cs);
}

static void test_split_no_samples(void **state)
{
	struct cpu_samples *cs = cpu_samples_new(999);

	(void)state;
	cpu_samples_classify(cs);
	cpu_samples_split(cs, 800, 1000, 500);
	/* nothing to split by: the measured time stays user code */
	assert_true(cs->wall_user[CC_USER].ns == 800);
	assert_true(cs->wall_user[CC_FAULT].ns == 0);
	assert_true(fabs(cs->kernel_share - 500.0 / 1500) < 1e-9);
	cpu_samples_free(cs);
}

static void test_top(void **state)
{
	struct cpu_samples *cs = sample_set();
	struct cs_select k_sys = { 1u << CC_SYSCALL, 39, 1 }, k_fault = { 1u << CC_FAULT, -1, 1 };
	struct cs_select u_all = { (1u << CC_COUNT) - 1, -1, 0 };
	struct cs_func f[4];
	size_t n;

	(void)state;
	assert_int_equal(cpu_samples_count(cs, &k_sys), 50);
	n = cpu_samples_top(cs, &k_sys, f, 4);
	assert_int_equal(n, 4);
	/* self: __task_pid_nr_ns 30, __x64_sys_getppid 20; total: getppid 50 */
	assert_string_equal(cs->names[f[0].name], "__task_pid_nr_ns");
	assert_int_equal(f[0].self, 30);
	assert_string_equal(cs->names[f[0].caller[0]], "__x64_sys_getppid");
	assert_string_equal(cs->names[f[0].caller[1]], "x64_sys_call");
	assert_string_equal(cs->names[f[1].name], "__x64_sys_getppid");
	assert_int_equal(f[1].self, 20);
	assert_int_equal(f[1].total, 50);
	assert_int_equal(f[2].self, 0);
	n = cpu_samples_top(cs, &k_fault, f, 4);
	assert_string_equal(cs->names[f[0].name], "clear_page_erms");
	assert_int_equal(f[0].self, 20);
	assert_string_equal(cs->names[f[0].caller[0]], "do_anonymous_page");
	n = cpu_samples_top(cs, &u_all, f, 1);
	assert_int_equal(n, 1);
	assert_string_equal(cs->names[f[0].name], "memset");
	assert_int_equal(f[0].self, 147);
	cpu_samples_free(cs);
}

static void test_names(void **state)
{
	struct cpu_samples *cs = cpu_samples_new(999);
	uint32_t a, b;
	char buf[32];

	(void)state;
	a = cpu_samples_name(cs, "alpha");
	b = cpu_samples_name(cs, "beta");
	assert_true(a != b);
	assert_int_equal(cpu_samples_name(cs, "alpha"), a);
	for (int i = 0; i < 5000; i++) { /* through several rehashes */
		snprintf(buf, sizeof(buf), "fn%d", i);
		assert_int_equal(cpu_samples_name(cs, buf), (uint32_t)i + 2);
	}
	assert_int_equal(cpu_samples_name(cs, "fn1234"), 1236);
	assert_int_equal(cpu_samples_name(cs, "beta"), b);
	cpu_samples_free(cs);
}

static void test_waits(void **state)
{
	static const char *const raw[] = {
		"bpf_prog_1234_off_btf_switch", "bpf_trace_run4", "__bpf_trace_sched_switch",
		"__traceiter_sched_switch", "__schedule", "schedule", "io_schedule",
		"folio_wait_bit",
		"folio_wait_writeback", NULL
	};
	static const char *const plain[] = { "schedule_timeout", "wait_for_completion", NULL };
	struct cpu_samples *cs = cpu_samples_new(999);
	struct cs_wait w = { .count = 2, .ns = 100 }, top[4];
	uint32_t a, b;
	size_t n;

	(void)state;
	assert_int_equal(cpu_samples_sched_frames(raw, 9), 6);  /* io_schedule stays */
	assert_int_equal(cpu_samples_sched_frames(plain, 2), 0);
	a = stack(cs, raw + 6);
	b = stack(cs, plain);
	strcpy(w.comm, "calib");
	w.kstack = a;
	assert_int_equal(cpu_samples_add_wait(cs, &w), 0);
	w.kstack = b;
	w.ns = 250;
	assert_int_equal(cpu_samples_add_wait(cs, &w), 0);
	w.kstack = a;
	w.ns = 200;
	w.count = 1;
	strcpy(w.comm, "other");
	assert_int_equal(cpu_samples_add_wait(cs, &w), 0);
	assert_int_equal(cpu_samples_wait_ns(cs), 550);
	n = cpu_samples_top_waits(cs, top, 4);
	assert_int_equal(n, 2);
	assert_int_equal(top[0].kstack, a);   /* 100 + 200 */
	assert_int_equal(top[0].ns, 300);
	assert_int_equal(top[0].count, 3);
	assert_string_equal(top[0].comm, "calib");
	assert_int_equal(top[1].ns, 250);
	assert_int_equal(cpu_samples_top_waits(cs, top, 1), 1);
	cpu_samples_free(cs);
}

static void test_fault_kinds_by_comm(void **state)
{
	static const char *const file[] = { "next_uptodate_folio", "filemap_map_pages", "do_fault",
					    "__handle_mm_fault", "handle_mm_fault",
					    "asm_exc_page_fault", NULL };
	static const char *const cow[] = { "copy_page", "wp_page_copy", "do_wp_page",
					   "handle_mm_fault", "exc_page_fault", NULL };
	static const char *const bare[] = { "exc_page_fault", "asm_exc_page_fault", NULL };
	struct cpu_samples *cs = sample_set();   /* dd: 20 anonymous faults, 5 irq, ... */
	struct cs_row r = { .count = 7, .nr = IOWHY_NR_NONE, .kernel_mode = 1 };
	struct cs_comm c[4];
	size_t n;

	(void)state;
	strcpy(r.comm, "sh");
	r.kstack = stack(cs, file);
	r.ustack = CS_NONE;
	cpu_samples_add_row(cs, &r);
	r.count = 3;
	r.kstack = stack(cs, cow);
	cpu_samples_add_row(cs, &r);
	r.count = 1;
	r.kstack = stack(cs, bare);
	cpu_samples_add_row(cs, &r);
	cpu_samples_classify(cs);
	assert_int_equal(cpu_samples_fault_kind(cs, &cs->rows[1]), FK_ANON);
	assert_int_equal(cpu_samples_fault_kind(cs, &cs->rows[0]), FK_OTHER); /* user code */
	n = cpu_samples_by_comm(cs, c, 4);
	assert_int_equal(n, 2);
	assert_string_equal(c[0].comm, "dd");
	assert_int_equal(c[0].samples, 150);
	assert_int_equal(c[0].outside, 100);
	assert_int_equal(c[0].fault_kind[FK_ANON], 20);
	assert_string_equal(c[1].comm, "sh");
	assert_int_equal(c[1].samples, 11);
	assert_int_equal(c[1].class_samples[CC_FAULT], 11);
	assert_int_equal(c[1].fault_kind[FK_FILE], 7);
	assert_int_equal(c[1].fault_kind[FK_COW], 3);
	assert_int_equal(c[1].fault_kind[FK_OTHER], 1);
	assert_int_equal(cpu_samples_by_comm(cs, c, 1), 1);
	cpu_samples_free(cs);
}

static void test_explain(void **state)
{
	struct phase_result *p = calloc(1, sizeof(*p));
	struct cpu_samples *cs = sample_set();
	char buf[1024];
	size_t n;

	(void)state;
	assert_non_null(p);
	strcpy(p->name, "loop");
	p->samples = cs;
	cpu_samples_split(cs, 800, 1000000000, 500000000);
	n = cpu_explain(p, buf, sizeof(buf));
	assert_true(n > 0 && n == strlen(buf));
	/* 39% of 1 s outside syscalls in the kernel: 20 faults, 10 entry/exit, 5 irq, 4 other */
	assert_non_null(strstr(buf, "loop: CPU samples put 39% ± 5 of the tree's 1.00 s of CPU outside the syscall tracepoints in the kernel"));
	assert_non_null(strstr(buf, "page faults 20% ± 4"));
	assert_non_null(strstr(buf, "syscall entry/exit 10% ± 3"));
	assert_non_null(strstr(buf, "the kernel's share of the tree's CPU is 59%, where the tracepoints alone bound 33%"));
	assert_non_null(strstr(buf, "Page faults were 20% of dd's time outside syscalls "
				    "(anonymous memory 100%).\n"));
	/* a short buffer stays terminated */
	n = cpu_explain(p, buf, 16);
	assert_true(n < 16 && strlen(buf) == n);
	/* too few samples outside syscalls: nothing to say */
	cs->outside = CPU_EXPLAIN_MIN_SAMPLES - 1;
	assert_int_equal(cpu_explain(p, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	p->samples = NULL;
	assert_int_equal(cpu_explain(p, buf, sizeof(buf)), 0);
	cpu_samples_free(cs);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_no_samples),
		cmocka_unit_test(test_top),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_waits),
		cmocka_unit_test(test_fault_kinds_by_comm),
		cmocka_unit_test(test_explain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
