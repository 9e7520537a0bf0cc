// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the runs of a BPF program the kernel skips (collect/prog_runtime.c reads them from
 * bpf_prog_info.recursion_misses). A tracepoint that fires while the same program already runs on
 * that CPU is not run again, and its event is lost: the tracer must count that, per phase.
 * A real program makes the kernel skip runs on purpose: attached to raw_syscalls:sys_enter and to
 * signal:signal_generate, at each syscall of this process it sends this process an ignored signal
 * (SIGURG), whose signal_generate fires inside the same program: one skipped run per syscall.
 * Needs root (CAP_BPF, CAP_PERFMON): skipped otherwise, with the reason.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include "prog_runtime.h"

#define FN_GET_CURRENT_PID_TGID 14
#define FN_SEND_SIGNAL 109

struct fixture {
	int prog, links[2];
	char why[160];
};

static int load_recurser(char *why, size_t n)
{
	struct bpf_insn insns[] = {
		/* r0 = bpf_get_current_pid_tgid() >> 32 */
		{ .code = BPF_JMP | BPF_CALL, .imm = FN_GET_CURRENT_PID_TGID },
		{ .code = BPF_ALU64 | BPF_RSH | BPF_K, .dst_reg = BPF_REG_0, .imm = 32 },
		/* not this process: out */
		{ .code = BPF_JMP | BPF_JNE | BPF_K, .dst_reg = BPF_REG_0, .off = 2, .imm = getpid() },
		/* bpf_send_signal(SIGURG) */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = SIGURG },
		{ .code = BPF_JMP | BPF_CALL, .imm = FN_SEND_SIGNAL },
		/* out: return 0 */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "recurse", "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), NULL);

	if (fd < 0)
		snprintf(why, n, "cannot load a BPF program (%s): needs root", strerror(errno));
	return fd;
}

static int setup(void **state)
{
	static struct fixture f;

	memset(&f, 0, sizeof(f));
	f.links[0] = f.links[1] = -1;
	f.prog = load_recurser(f.why, sizeof(f.why));
	if (f.prog >= 0) {
		f.links[0] = bpf_raw_tracepoint_open("signal_generate", f.prog);
		f.links[1] = f.links[0] >= 0 ? bpf_raw_tracepoint_open("sys_enter", f.prog) : -1;
		if (f.links[1] < 0)
			snprintf(f.why, sizeof(f.why), "cannot attach to raw tracepoints (%s)",
				 strerror(errno));
	}
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	for (int i = 0; i < 2; i++)
		if (f->links[i] >= 0)
			close(f->links[i]);
	if (f->prog >= 0)
		close(f->prog);
	return 0;
}

static int progs_of(void *ctx, struct prog_ref *progs, int max)
{
	struct fixture *f = ctx;

	if (max < 1)
		return 0;
	progs[0].fd = f->prog;
	progs[0].name = "recurse";
	return 1;
}

/* A reader of the program's figures without run-time statistics (no kernel text patched); skips
 * the test when the program could not be attached. */
static struct prog_runtime *runtime_or_skip(struct fixture *f)
{
	struct prog_runtime *r;

	if (f->links[1] < 0) {
		fprintf(stderr, "skip: %s\n", f->why);
		skip();
	}
	r = prog_runtime_new(progs_of, f, 0);
	assert_non_null(r);
	return r;
}

static void syscalls(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
}

/* Skipped runs before the phase are not the phase's; those in it are, with the program named. */
static void test_skipped_runs_counted(void **state)
{
	struct fixture *f = *state;
	struct prog_runtime *r = runtime_or_skip(f);
	struct prog_runtime_phase p;

	syscalls(1000); /* before the phase */
	prog_runtime_begin(r, 1);
	syscalls(100);
	p = prog_runtime_end(r, 2);
	/* one per getppid, and a few for the bpf() calls that read the counts */
	assert_true(p.missed >= 100);
	assert_true(p.missed < 1000);
	assert_int_equal(p.missed_top, p.missed);
	assert_string_equal(p.missed_top_name, "recurse");
	assert_int_equal(p.runs, 0);
	assert_int_equal(p.windows, 0);

	prog_runtime_begin(r, 3); /* the next phase starts from its own base */
	syscalls(10);
	p = prog_runtime_end(r, 4);
	assert_true(p.missed >= 10);
	assert_true(p.missed < 100);
	prog_runtime_free(r);
}

/* A program that never recursed: nothing skipped, nothing named. */
static void test_nothing_skipped(void **state)
{
	struct fixture *f = *state;
	struct prog_runtime *r = runtime_or_skip(f);
	struct prog_runtime_phase p;

	close(f->links[1]); /* sys_enter no more: nothing calls it */
	f->links[1] = -1;
	prog_runtime_begin(r, 1);
	syscalls(100);
	p = prog_runtime_end(r, 2);
	assert_int_equal(p.missed, 0);
	assert_string_equal(p.missed_top_name, "");
	prog_runtime_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skipped_runs_counted),
		cmocka_unit_test(test_nothing_skipped),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
