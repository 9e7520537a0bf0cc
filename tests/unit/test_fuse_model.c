// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: the FUSE model (model/fuse_model.c) and its latency slots (bpf/fuse.h), and the
 * FUSE section of the text report (report/fuse_report.c) on a synthetic phase.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/types.h>
#include "fuse_model.h"
#include "fuse_explain.h"
#include "fuse_report.h"
#include "result.h"
#include "syscalls.h"

#define MS 1000000ULL

/* Every value falls in the slot whose range holds it; slots are at most 1/16 wide. */
static void test_lat_slots(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < (1ull << 36); v = v * 5 / 4 + 1) {
		uint32_t s = fuse_lat_slot(v);

		assert_true(s < FUSE_LAT_SLOTS);
		assert_true(fuse_lat_lower(s) <= v);
		if (s + 1 < FUSE_LAT_SLOTS) {
			assert_true(v < fuse_lat_lower(s + 1));
			if (s >= 16)
				assert_true(fuse_lat_lower(s + 1) - fuse_lat_lower(s) <=
					    fuse_lat_lower(s) / 16);
		}
	}
	assert_int_equal(fuse_lat_slot(~0ull), FUSE_LAT_SLOTS - 1);
}

/* The p50 of 64 requests of 20.4 ms and a few slower ones is within a slot of 20.4 ms. */
static void test_pct(void **state)
{
	uint32_t hist[FUSE_LAT_SLOTS] = { 0 };
	uint64_t p50, p99;

	(void)state;
	assert_int_equal(fuse_hist_pct(hist, 0.5), 0);
	hist[fuse_lat_slot(20400000)] = 64;
	hist[fuse_lat_slot(31 * MS)] = 2;
	p50 = fuse_hist_pct(hist, 0.5);
	p99 = fuse_hist_pct(hist, 0.99);
	assert_true(p50 >= 20 * MS && p50 <= 21 * MS);
	assert_true(p99 >= 29 * MS && p99 <= 33 * MS);
}

/* The network group: socket syscalls, not file I/O. */
static void test_network_group(void **state)
{
	(void)state;
	assert_true(syscall_is_network(syscall_nr("sendmsg")));
	assert_true(syscall_is_network(syscall_nr("recvfrom")));
	assert_true(syscall_is_network(syscall_nr("connect")));
	assert_false(syscall_is_network(syscall_nr("read")));
	assert_false(syscall_is_network(syscall_nr("poll")));
}

static void test_names_and_bytes(void **state)
{
	struct fuse_row w = { .op = FUSE_OP_WRITE, .st = { .in_bytes = 1000, .out_bytes = 8 } };
	struct fuse_row r = { .op = FUSE_OP_READ, .st = { .in_bytes = 40, .out_bytes = 4096 } };
	struct fuse_row l = { .op = 1, .st = { .in_bytes = 4, .out_bytes = 128 } };

	(void)state;
	assert_string_equal(fuse_op_name(16), "WRITE");
	assert_string_equal(fuse_op_name(35), "CREATE");
	assert_string_equal(fuse_op_name(7), "op7");
	assert_string_equal(fuse_who_name(FUSE_WHO_WB), "writeback");
	assert_string_equal(fuse_dcls_key(FUSE_D_NET), "network_wait");
	assert_int_equal(fuse_row_bytes(&w), 1000);
	assert_int_equal(fuse_row_bytes(&r), 4096);
	assert_int_equal(fuse_row_bytes(&l), 132);
}

/* A phase: dd waiting 1.3 s of 1.4 s on 64 WRITEs to /mnt/slow, served by pid 42 whose busy time
 * was mostly other wait; a helper of pid 42; an unrelated daemon on another connection. */
static struct fuse_phase *make_phase(void)
{
	struct fuse_phase *f = calloc(1, sizeof(*f));

	f->nrows = 2;
	f->rows = calloc(2, sizeof(*f->rows));
	f->rows[0] = (struct fuse_row){ .conn = 50, .op = FUSE_OP_WRITE, .who = FUSE_WHO_TREE };
	f->rows[0].st.count = f->rows[0].st.waits = 64;
	f->rows[0].st.wait_ns = 1300 * MS;
	f->rows[0].st.in_bytes = 8 << 20;
	f->rows[0].st.hist[fuse_lat_slot(20400000)] = 64;
	f->rows[0].st.replied = 64;
	f->rows[0].st.paired = 60;
	f->rows[0].st.dreq_ns[FUSE_D_CPU] = 30 * MS;
	f->rows[0].st.dreq_ns[FUSE_D_OTHER] = 1200 * MS;
	f->rows[0].st.dreq_ns[FUSE_D_NET] = 20 * MS;
	f->rows[1] = (struct fuse_row){ .conn = 51, .op = 3, .who = FUSE_WHO_OTHER };
	f->rows[1].st.count = 1;
	f->nmounts = 2;
	f->mounts = calloc(2, sizeof(*f->mounts));
	f->mounts[0] = (struct fuse_mount_info){ .conn = 50, .point = "/mnt/slow",
						 .fstype = "fuse.slow" };
	f->mounts[1] = (struct fuse_mount_info){ .conn = 51, .point = "/mnt/other" };
	f->ndaemons = 3;
	f->daemons = calloc(3, sizeof(*f->daemons));
	f->daemons[0] = (struct fuse_daemon_row){ .tgid = 42, .conn = 50, .replies = 66,
						  .comm = "slowd" };
	f->daemons[0].st.overlap_ns[FUSE_D_CPU] = 10 * MS;
	f->daemons[0].st.overlap_ns[FUSE_D_OTHER] = 1280 * MS;
	f->daemons[0].st.overlap_ns[FUSE_D_IDLE] = 5000 * MS;
	f->daemons[0].st.wall_overlap_ns[FUSE_D_CPU] = 10 * MS;
	f->daemons[0].st.wall_overlap_ns[FUSE_D_OTHER] = 1280 * MS;
	f->daemons[0].st.wall_overlap_ns[FUSE_D_IDLE] = 10 * MS;
	f->daemons[0].st.wreplies = 64;
	f->daemons[0].st.paired = 60;
	f->daemons[0].st.handoff = 4;
	f->daemons[0].st.req_ns[FUSE_D_CPU] = 5 * MS;
	f->daemons[0].st.req_ns[FUSE_D_OTHER] = 1200 * MS;
	f->daemons[1] = (struct fuse_daemon_row){ .tgid = 43, .parent = 42, .comm = "helper" };
	f->daemons[2] = (struct fuse_daemon_row){ .tgid = 44, .conn = 51, .comm = "otherd" };
	f->ntasks = 2;
	f->tasks = calloc(2, sizeof(*f->tasks));
	f->tasks[0] = (struct fuse_task_row){ .tgid = 7, .comm = "dd" };
	f->tasks[0].st.replied = 64;
	f->tasks[0].st.paired = 60;
	f->tasks[0].st.dreq_ns[FUSE_D_OTHER] = 1200 * MS;
	f->tasks[1] = (struct fuse_task_row){ .tgid = 8, .comm = "cat" };
	f->tasks[1].st.replied = 3; /* none paired: not listed */
	f->nfs_probes = 0;
	return f;
}

static void test_daemon_links(void **state)
{
	struct fuse_phase *f = make_phase();

	(void)state;
	assert_true(fuse_conn_used(f, 50));
	assert_false(fuse_conn_used(f, 51)); /* only "other" requests there */
	assert_int_equal(fuse_daemon_conn(f, &f->daemons[1]), 50);
	assert_true(fuse_daemon_shown(f, &f->daemons[0]));
	assert_true(fuse_daemon_shown(f, &f->daemons[1]));
	assert_false(fuse_daemon_shown(f, &f->daemons[2]));
	assert_int_equal(fuse_daemon_busy(&f->daemons[0]), 1300 * MS);
	fuse_phase_free(f);
}

/* Per-request charging: the daemon's charge splits its time while waited on into the paired
 * requests' and the rest (by overlap); an opcode's charge merges the workload's rows only; the
 * method says which was used. */
static void test_charge(void **state)
{
	struct fuse_phase *f = make_phase();
	struct fuse_charge c;
	struct fuse_stat op;
	char buf[128];

	(void)state;
	fuse_daemon_charge(&f->daemons[0], &c);
	assert_int_equal(c.requests, 64);
	assert_int_equal(c.paired, 60);
	assert_int_equal(c.per_request_ns, 1205 * MS);
	assert_int_equal(c.overlap_ns, 1290 * MS - 1205 * MS); /* idle is not charged */
	fuse_op_charge(f, 50, FUSE_OP_WRITE, &op);
	assert_int_equal(op.paired, 60);
	assert_int_equal(fuse_busy_sum(op.dreq_ns), 1250 * MS);
	fuse_op_charge(f, 51, 3, &op); /* "other" rows are not the workload's */
	assert_int_equal(op.replied, 0);
	assert_string_equal(fuse_charge_method(f), "per_request+overlap");
	f->rows[0].st.paired = 64;
	assert_string_equal(fuse_charge_method(f), "per_request");
	f->rows[0].st.paired = 0;
	assert_string_equal(fuse_charge_method(f), "overlap");
	fuse_shares(f->rows[0].st.dreq_ns, 1250 * MS, 2, buf, sizeof(buf));
	assert_string_equal(buf, " 2% on CPU, 96% other wait");
	assert_int_equal(fuse_shares(f->rows[0].st.dreq_ns, 0, 2, buf, sizeof(buf)), 0);
	assert_string_equal(fuse_mount_of(f, 50)->point, "/mnt/slow");
	assert_null(fuse_mount_of(f, 7));
	fuse_phase_free(f);
}

static void test_report_text(void **state)
{
	struct phase_result *p = calloc(1, sizeof(*p));
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);

	(void)state;
	snprintf(p->name, sizeof(p->name), "run");
	p->wall.start_ns = 0;
	p->wall.end_ns = 1400 * MS;
	p->fuse = make_phase();
	fuse_report_text(out, p);
	fclose(out);
	assert_non_null(strstr(buf, "waiting on FUSE (/mnt/slow, WRITE): 1.30 s in 64 requests, "
				    "92.9% of the wall"));
	assert_non_null(strstr(buf, "run took 1.40 s; 1.30 s of it waiting on 64 FUSE WRITE "
				    "requests to /mnt/slow (slowd, pid 42, p50 20."));
	assert_non_null(strstr(buf, "; per request (60 of 64), slowd spent 1.25 s on them: 96% "
				    "other wait\n"));
	assert_non_null(strstr(buf, "charged per request: 60 of 64 requests, 1.21 s; by overlap: "
				    "85.0 ms (4 replies written by a thread that did not read"));
	assert_non_null(strstr(buf, "WRITE        daemon 1.25 s: 2% on CPU, 2% network wait, 96% "
				    "other wait (60 of 64 requests)"));
	assert_non_null(strstr(buf, "charged by overlap: 0 ns (a helper reads no requests)"));
	assert_non_null(strstr(buf, "daemon time per request, by the workload process that sent "
				    "them:\n    pid 7 (dd)   daemon 1.20 s: 100% other wait (60 of "
				    "64 requests)\n"));
	assert_null(strstr(buf, "(cat)"));
	assert_non_null(strstr(buf, "pid 42 (slowd) serving /mnt/slow, 66 replies"));
	assert_non_null(strstr(buf, "pid 43 (helper), helper of pid 42"));
	assert_null(strstr(buf, "otherd"));
	assert_non_null(strstr(buf, "NFS: not traceable on this kernel"));
	free(buf);
	/* no request paired: the sentence says the charge is by overlap */
	p->fuse->rows[0].st.paired = 0;
	p->fuse->daemons[0].st.paired = 0;
	buf = NULL;
	out = open_memstream(&buf, &n);
	fuse_report_text(out, p);
	fclose(out);
	assert_non_null(strstr(buf, "; by overlap, slowd spent that time 98% other wait\n"));
	free(buf);
	/* tasks waiting at once: their wait is task time, longer than the wall */
	p->wall.end_ns = 1000 * MS;
	buf = NULL;
	out = open_memstream(&buf, &n);
	fuse_report_text(out, p);
	fclose(out);
	assert_non_null(strstr(buf, "run took 1.00 s; 1.30 s of its tasks' time waiting on 64"));
	assert_null(strstr(buf, "daemon time per request, by opcode"));
	free(buf);
	fuse_phase_free(p->fuse);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_slots),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_network_group),
		cmocka_unit_test(test_names_and_bytes),
		cmocka_unit_test(test_daemon_links),
		cmocka_unit_test(test_charge),
		cmocka_unit_test(test_report_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
