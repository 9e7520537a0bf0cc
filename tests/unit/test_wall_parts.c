// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the wall view's sub-rows (src/summary/wall_parts.c): the user bucket split by CPU
 * samples, the FUSE waits placed in the wait buckets; and the rows in the text report
 * (src/report/report_text.c), side by side and per phase.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/types.h>
#include "wall_parts.h"
#include "cpu_samples.h"
#include "fuse_model.h"
#include "report.h"
#include "report_html.h"
#include "summary.h"
#include "cs_stack.h"

#define MS 1000000ULL

/* Samples that split `user_ns`: outside syscalls 61 user code, 20 page faults, 10 entry/exit,
 * 5 interrupts, 4 other kernel (as cpu_samples_classify would count them). */
static struct cpu_samples *samples(uint64_t user_ns, uint64_t scale)
{
	struct cpu_samples *cs = cpu_samples_new(999);
	static const uint64_t n[CC_OUTSIDE] = { 61, 20, 10, 5, 4 };

	assert_non_null(cs);
	for (int c = 0; c < CC_OUTSIDE; c++) {
		cs->class_samples[c] = n[c] * scale;
		cs->outside += n[c] * scale;
	}
	cs->recorded = cs->samples = cs->outside;
	cpu_samples_split(cs, user_ns, user_ns, user_ns / 2);
	return cs;
}

/* A work phase of 100 ms: user 40, kernel 10, run queue 5, I/O wait 15 (10 of it with no disk in
 * flight), other wait 30. */
static void phase(struct phase_result *p, const char *name)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->column, sizeof(p->column), "%s", name);
	p->kind = PHASE_WORK;
	p->wall.end_ns = 100 * MS;
	p->wall.bucket_ns[WB_USER] = 40 * MS;
	p->wall.bucket_ns[WB_KERNEL] = 10 * MS;
	p->wall.kernel_group_ns[SG_DATA] = 10 * MS;
	p->wall.bucket_ns[WB_RUNQ] = 5 * MS;
	p->wall.bucket_ns[WB_IOWAIT] = 15 * MS;
	p->wall.iowait_by_disk[0] = 5 * MS;
	p->wall.iowait_by_disk[IOWHY_DISK_SLOTS] = 10 * MS;
	p->wall.bucket_ns[WB_OTHER] = 30 * MS;
}

/* The parts of a phase add up to its user bucket; few samples are flagged, with an error > 0. */
static void test_user_parts(void **state)
{
	struct phase_result p;
	struct user_part u;
	double sum = 0;

	(void)state;
	phase(&p, "a");
	wall_user_part_of(&p, CC_USER, &u);
	assert_false(u.known);                    /* --no-sample: no split */
	p.samples = samples(40 * MS, 1);
	assert_true(wall_user_split_known(&p));
	for (int c = 0; c < CC_OUTSIDE; c++) {
		wall_user_part_of(&p, c, &u);
		assert_true(u.known);
		sum += u.ns;
		assert_true(u.err_ns > 0);
		/* few: 10 entry/exit, 5 interrupts, 4 other kernel (under 20); 20 page faults are
		 * enough */
		assert_int_equal(user_part_few(&u), c >= CC_ENTRY);
	}
	assert_true(fabs(sum - 40.0 * MS) < 1);
	wall_user_part_of(&p, CC_FAULT, &u);
	assert_true(fabs(u.ns - 8.0 * MS) < 1);
	assert_int_equal(u.samples, 20);
	assert_true(fabs(u.err_ns - 40.0 * MS * sqrt(0.2 * 0.8 / 100)) < 1);
	wall_user_part_of(&p, CC_SYSCALL, &u);    /* not a part of the user bucket */
	assert_false(u.known);
	p.lite = 1;                               /* attach --lite: user and kernel not told apart */
	assert_false(wall_user_split_known(&p));
	p.lite = 0;
	p.samples->outside = 0;                   /* samples, but none outside syscalls */
	assert_false(wall_user_split_known(&p));
	cpu_samples_free(p.samples);
}

/* The error of a share with few samples is never 0, even when all or none of them are in it. */
static void test_few_err(void **state)
{
	(void)state;
	assert_true(cs_share_err(0, 3) > 0.1);
	assert_true(cs_share_err(3, 3) > 0.1);
	assert_true(fabs(cs_share_err(20, 100) - sqrt(0.2 * 0.8 / 100)) < 1e-12);
	assert_true(cs_share_err(0, 0) == 0);
}

/* A column: trimmed means over its runs, samples summed; unknown when a run has no split. */
static void test_user_part_column(void **state)
{
	struct session_result s = { 0 };
	struct phase_result ph[3];
	int idx[3] = { 0, 1, 2 };
	struct user_part u;

	(void)state;
	phase(&ph[0], "a");
	phase(&ph[1], "a");
	phase(&ph[2], "a");
	ph[1].wall.bucket_ns[WB_USER] = 60 * MS;
	ph[0].samples = samples(40 * MS, 1);
	ph[1].samples = samples(60 * MS, 2);
	s.phases = ph;
	s.nphases = 3;
	wall_user_part(&s, idx, 2, CC_FAULT, &u);
	assert_true(u.known);
	assert_true(fabs(u.ns - 10.0 * MS) < 1);  /* (8 + 12) / 2 */
	assert_int_equal(u.samples, 60);
	assert_false(user_part_few(&u));
	wall_user_part(&s, idx, 3, CC_FAULT, &u);   /* the third run has no samples */
	assert_false(u.known);
	wall_user_part(&s, idx, 0, CC_FAULT, &u);
	assert_false(u.known);
	cpu_samples_free(ph[0].samples);
	cpu_samples_free(ph[1].samples);
}

/* FUSE waits of the workload: 30 ms WRITE and 10 ms LOOKUP on /mnt/slow, 5 ms on a mount gone
 * (conn 0:61); writeback's requests are not the workload's waits. */
static struct fuse_phase *fuse(void)
{
	struct fuse_phase *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->nrows = 4;
	f->rows = calloc(4, sizeof(*f->rows));
	f->rows[0] = (struct fuse_row){ .conn = 50, .op = FUSE_OP_WRITE, .who = FUSE_WHO_TREE };
	f->rows[0].st.wait_ns = 30 * MS;
	f->rows[1] = (struct fuse_row){ .conn = 50, .op = 1 /* LOOKUP */, .who = FUSE_WHO_TREE };
	f->rows[1].st.wait_ns = 10 * MS;
	f->rows[2] = (struct fuse_row){ .conn = 50, .op = FUSE_OP_WRITE, .who = FUSE_WHO_WB };
	f->rows[2].st.wait_ns = 99 * MS;
	f->rows[3] = (struct fuse_row){ .conn = 61, .op = FUSE_OP_READ, .who = FUSE_WHO_TREE };
	f->rows[3].st.wait_ns = 5 * MS;
	f->nmounts = 1;
	f->mounts = calloc(1, sizeof(*f->mounts));
	f->mounts[0] = (struct fuse_mount_info){ .conn = 50, .point = "/mnt/slow" };
	return f;
}

static const struct fuse_part *find(const struct fuse_part *v, int n, const char *label, int b)
{
	for (int i = 0; i < n; i++)
		if (v[i].bucket == b && !strcmp(v[i].label, label))
			return &v[i];
	return NULL;
}

/* 45 ms of waits: 30 into other wait (its whole bucket), 10 into the I/O wait with no disk in
 * flight, 5 nowhere (more task time than the wall's waits); each part by its share. */
static void test_fuse_parts(void **state)
{
	struct phase_result p;
	struct fuse_part v[FUSE_PARTS_MAX];
	const struct fuse_part *w;
	double other = 0, io = 0;
	int n;

	(void)state;
	phase(&p, "a");
	assert_int_equal(wall_fuse_parts(&p, v, FUSE_PARTS_MAX), 0);
	p.fuse = fuse();
	n = wall_fuse_parts(&p, v, FUSE_PARTS_MAX);
	assert_int_equal(n, 6);
	for (int i = 0; i < n; i++) {
		*(v[i].bucket == WB_OTHER ? &other : &io) += v[i].ns;
		if (i)
			assert_true(v[i].ns <= v[i - 1].ns);   /* longest first */
	}
	assert_true(fabs(other - 30.0 * MS) < 1);
	assert_true(fabs(io - 10.0 * MS) < 1);
	w = find(v, n, "waiting on FUSE (/mnt/slow, WRITE)", WB_OTHER);
	assert_non_null(w);
	assert_true(fabs(w->ns - 30.0 * MS * 30 / 45) < 1);
	assert_string_equal(w->mount, "/mnt/slow");
	assert_string_equal(w->op, "WRITE");
	assert_string_equal(v[0].label, w->label);
	w = find(v, n, "waiting on FUSE (/mnt/slow, LOOKUP)", WB_IOWAIT);
	assert_non_null(w);
	assert_true(fabs(w->ns - 10.0 * MS * 10 / 45) < 1);
	assert_non_null(find(v, n, "waiting on FUSE (conn 0:61, READ)", WB_OTHER));
	/* at most max, the longest */
	assert_int_equal(wall_fuse_parts(&p, v, 1), 1);
	assert_string_equal(v[0].label, "waiting on FUSE (/mnt/slow, WRITE)");
	/* a wall with room for all: everything in other wait, nothing in I/O wait */
	p.wall.bucket_ns[WB_OTHER] = 80 * MS;
	n = wall_fuse_parts(&p, v, FUSE_PARTS_MAX);
	assert_int_equal(n, 3);
	w = find(v, n, "waiting on FUSE (/mnt/slow, WRITE)", WB_OTHER);
	assert_true(fabs(w->ns - 30.0 * MS) < 1);
	/* a long mount point keeps its end, the label stays in its buffer */
	snprintf(p.fuse->mounts[0].point, sizeof(p.fuse->mounts[0].point), "/%0100d/end", 0);
	n = wall_fuse_parts(&p, v, FUSE_PARTS_MAX);
	assert_non_null(strstr(v[0].label, "(...000"));
	assert_non_null(strstr(v[0].label, "0/end, WRITE)"));
	fuse_phase_free(p.fuse);
}

/* Keys over columns and their means. */
static void test_fuse_columns(void **state)
{
	struct session_result s = { 0 };
	struct phase_result ph[2];
	int i0[1] = { 0 }, i1[1] = { 1 }, n[2] = { 1, 1 };
	const int *idx[2] = { i0, i1 };
	struct fuse_part keys[FUSE_PARTS_MAX];
	int nk;

	(void)state;
	phase(&ph[0], "fuse");
	phase(&ph[1], "ext4");
	ph[0].wall.bucket_ns[WB_OTHER] = 80 * MS;
	ph[0].fuse = fuse();
	s.phases = ph;
	s.nphases = 2;
	nk = wall_fuse_keys(&s, idx, n, 2, keys, FUSE_PARTS_MAX);
	assert_int_equal(nk, 3);
	assert_string_equal(keys[0].label, "waiting on FUSE (/mnt/slow, WRITE)");
	assert_true(fabs(wall_fuse_part_mean(&s, i0, 1, &keys[0]) - 30.0 * MS) < 1);
	assert_true(wall_fuse_part_mean(&s, i1, 1, &keys[0]) == 0);
	fuse_phase_free(ph[0].fuse);
}

/* The text report of a session of one phase with samples and FUSE waits. */
static char *text_report(struct phase_result *p, int detail)
{
	struct session_result s = { 0 };
	struct report_options ro = { .detail = detail };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	s.tool = "run";
	s.phases = p;
	s.nphases = 1;
	s.lite = p->lite;
	assert_int_equal(summary_compute(&s), 0);
	report_text(out, &s, &ro);
	fclose(out);
	summary_free(&s);
	return buf;
}

/* The line after the one that starts (after indentation) with `row`. */
static const char *line_after(const char *text, const char *row)
{
	const char *l = strstr(text, row);

	assert_non_null(l);
	l = strchr(l, '\n');
	assert_non_null(l);
	return l + 1;
}

static void test_text_rows(void **state)
{
	struct phase_result p;
	const char *l;
	char *t;

	(void)state;
	phase(&p, "run");
	p.samples = samples(40 * MS, 1);
	p.fuse = fuse();
	for (int detail = 0; detail <= 1; detail++) {
		t = text_report(&p, detail);
		if (getenv("IOWHY_TEST_VERBOSE"))
			fprintf(stderr, "%s\n", t);
		/* the headline split: user CPU is user code (61% of the 40 ms outside syscalls), kernel
		 * CPU the traced 10 ms and the other 39% of the 40 ms, both +- the same error */
		if (detail) {
			/* -v: each phase leads with the split, then its tracepoint view */
			assert_non_null(strstr(t, "  user CPU 24.4 ms \u00b11.95 ms (24.4%), kernel CPU "
						  "25.6 ms \u00b11.95 ms (25.6%): user code and all kernel "
						  "work, by CPU samples\n"));
			goto phase_view;
		}
		l = strstr(t, "  user CPU ");
		assert_non_null(l);
		assert_true(strstr(l, "24.4 ms \u00b1") < strchr(l, '\n'));
		l = line_after(l, "  user CPU ");
		assert_true(!strncmp(l, "  kernel CPU ", 13));
		assert_true(strstr(l, "25.6 ms \u00b1") < strchr(l, '\n'));
		l = line_after(l, "  kernel CPU ");
		assert_true(!strncmp(l, "    in syscalls ", 16));
		l = line_after(l, "    in syscalls ");
		assert_true(!strncmp(l, "      file data ", 16));
		l = line_after(l, "      file data ");
		assert_true(!strncmp(l, "    ~ page faults ", 18));
		assert_true(strstr(l, "8.00 ms \u00b1") < strchr(l, '\n'));
		assert_null(strstr(t, "  ~ user code"));
		/* the short table: parts under 5% of the wall (2 ms) are left to -v */
		assert_null(strstr(t, "    ~ interrupts/softirq "));
		assert_non_null(strstr(t, "those under 5% of the wall: -v)"));
		assert_non_null(strstr(t, "(user CPU is user code, kernel CPU all kernel work: "
					  "estimates from CPU samples, \u00b1 one standard error;"));
phase_view:
		if (detail) {
			/* the phase's own wall view (-v): the tracepoint view, named for what it is, with
			 * the parts of the CPU outside syscalls, few ones with "± ...*" */
			l = line_after(t, "  CPU outside syscalls ");
			assert_true(!strncmp(l, "    user code ", 14));
			l = line_after(l, "    user code ");
			assert_true(!strncmp(l, "    page faults ", 16));
			assert_true(memchr(l, '*', (size_t)(strchr(l, '\n') - l)) == NULL);
			l = strstr(l, "    interrupts/softirq ");
			assert_non_null(l);
			assert_true(strstr(l, "*") < strchr(l, '\n'));
			assert_non_null(strstr(t, "(CPU outside syscalls' parts: estimates from CPU samples; "
						  "* few samples (under 20), \u00b1 one standard error)"));
		}
		/* the FUSE waits under the wait rows */
		l = line_after(t, "  other wait ");
		assert_true(!strncmp(l, "    waiting on FUSE (/mnt/slow, WRITE) ", 39));
		l = line_after(t, "  I/O wait ");
		assert_true(!strncmp(l, "    waiting on FUSE (/mnt/slow, WRITE) ", 39));
		free(t);
	}
	/* CPU outside syscalls of 4% of the wall: split, its small parts left to -v */
	cpu_samples_free(p.samples);
	p.wall.bucket_ns[WB_USER] = 4 * MS;
	p.wall.bucket_ns[WB_RUNQ] = 41 * MS;
	p.samples = samples(4 * MS, 1);
	t = text_report(&p, 0);
	assert_non_null(strstr(t, "  user CPU "));
	assert_null(strstr(t, "  ~ page faults "));
	assert_null(strstr(t, "    user code "));
	free(t);
	t = text_report(&p, 1);
	assert_non_null(strstr(t, "  user CPU 2.44 ms \u00b1"));
	assert_non_null(strstr(t, "    user code "));
	free(t);
	/* --no-sample, no FUSE: 40 ms outside syscalls of 100 ms cannot be split (no samples): the
	 * table says so and never calls it user CPU; no parts, no FUSE rows */
	cpu_samples_free(p.samples);
	fuse_phase_free(p.fuse);
	p.wall.bucket_ns[WB_USER] = 40 * MS;
	p.wall.bucket_ns[WB_RUNQ] = 5 * MS;
	p.samples = NULL;
	p.fuse = NULL;
	for (int detail = 0; detail <= 1; detail++) {
		t = text_report(&p, detail);
		assert_null(strstr(t, "  user CPU "));
		if (detail) {
			assert_non_null(strstr(t, "  user/kernel not split: 0 CPU samples, ~"));
			assert_non_null(strstr(t, "  CPU outside syscalls "));
			assert_non_null(strstr(t, "  CPU in syscalls "));
		} else {
			l = line_after(t, "  CPU outside syscalls ");
			assert_true(!strncmp(l, "    (user/kernel not split)  0 samples, ~", 41));
			assert_non_null(strstr(t, "  kernel CPU in syscalls "));
			assert_non_null(strstr(t, "(user/kernel not split: too few CPU samples"));
		}
		assert_null(strstr(t, "    page faults "));
		assert_null(strstr(t, "CPU outside syscalls' parts"));
		assert_null(strstr(t, "waiting on FUSE"));
		free(t);
	}
}

/* attach --lite: the on-CPU row's two parts by samples are both shown whenever there are samples,
 * also when one is zero (every sample in the kernel: "~ user code" is 0, not left out); the
 * kernel's parts only when not zero; no parts without samples. */
static void test_text_lite_rows(void **state)
{
	static const char *const in_fsync[] = { "jbd2_log_wait_commit", "ext4_sync_file",
						"do_fsync", "__x64_sys_fsync", "x64_sys_call",
						"do_syscall_64", NULL };
	struct cs_row r = { .count = 30, .kernel_mode = 1, .nr = IOWHY_NR_NONE, .ustack = CS_NONE };
	struct phase_result p;
	const char *l;
	char *t;

	(void)state;
	phase(&p, "attach");
	p.lite = 1;
	p.wall.bucket_ns[WB_USER] += p.wall.bucket_ns[WB_KERNEL]; /* lite: all on CPU in user */
	p.wall.bucket_ns[WB_KERNEL] = 0;
	p.wall.kernel_group_ns[SG_DATA] = 0;
	p.samples = cpu_samples_new(99);
	assert_non_null(p.samples);
	strcpy(r.comm, "calib");
	r.kstack = stack(p.samples, in_fsync);
	assert_int_equal(cpu_samples_add_row(p.samples, &r), 0);
	cpu_samples_classify(p.samples);
	t = text_report(&p, 0);
	l = line_after(t, "  on CPU ");
	assert_true(!strncmp(l, "    ~ user code ", 16));
	l = line_after(l, "    ~ user code ");
	assert_true(!strncmp(l, "    ~ kernel ", 13));
	l = line_after(l, "    ~ kernel ");
	assert_true(!strncmp(l, "      ~ in syscalls ", 20));
	assert_null(strstr(t, "~ page faults"));
	free(t);
	cpu_samples_free(p.samples);
	p.samples = NULL;
	t = text_report(&p, 1);
	assert_null(strstr(t, "~ user code"));
	assert_null(strstr(t, "~ kernel"));
	free(t);
}

/* The HTML report has the same sub-rows in the phase's wall table and the bars' tooltips. */
static void test_html_rows(void **state)
{
	struct session_result s = { 0 };
	struct phase_result p;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	(void)state;
	phase(&p, "run");
	p.samples = samples(40 * MS, 1);
	p.fuse = fuse();
	s.tool = "run";
	s.phases = &p;
	s.nphases = 1;
	assert_int_equal(summary_compute(&s), 0);
	report_html_write(out, &s, NULL, 0);
	fclose(out);
	assert_non_null(strstr(buf, "<tr><td>&nbsp;&nbsp;page faults</td><td>8.00 ms</td>"));
	assert_non_null(strstr(buf, "<tr><td>&nbsp;&nbsp;interrupts/softirq</td><td>2.00 ms "
				    "&plusmn;"));
	assert_non_null(strstr(buf, "<tr><td>&nbsp;&nbsp;waiting on FUSE (/mnt/slow, WRITE)"));
	assert_non_null(strstr(buf, "; by CPU samples (estimates): user code 24.4 ms, page faults "
				    "8.00 ms"));
	assert_non_null(strstr(buf, "; waiting on FUSE (/mnt/slow, WRITE) 20.0 ms"));
	free(buf);
	summary_free(&s);
	cpu_samples_free(p.samples);
	fuse_phase_free(p.fuse);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_parts),
		cmocka_unit_test(test_few_err),
		cmocka_unit_test(test_user_part_column),
		cmocka_unit_test(test_fuse_parts),
		cmocka_unit_test(test_fuse_columns),
		cmocka_unit_test(test_text_rows),
		cmocka_unit_test(test_text_lite_rows),
		cmocka_unit_test(test_html_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
