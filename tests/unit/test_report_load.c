// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: a JSON report read back (src/report/report_load.c, report_load_io.c, cpu_raw_json.c)
 * renders the same brief, default and verbose (-v: syscall histograms, facts' labels, CPU samples
 * and off-CPU stacks, the FUSE/NFS lines) text report, and the same HTML wall bars, syscall table
 * and device sections, as the session it was written from.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <cmocka.h>
#include <linux/types.h>
#include "report.h"
#include "report_html.h"
#include "report_load.h"
#include "syscalls.h"
#include "summary.h"
#include "io_model.h"
#include "cpu_samples.h"
#include "fuse_model.h"
#include <json-c/json.h>

#define MS 1000000ULL

/* The JSON report into a file, as the engine writes --json FILE (it opens it: outfile_open). */
static int json_to(const char *path, const struct session_result *s)
{
	FILE *out = fopen(path, "w");

	return out ? report_json_file(out, path, s) : -1;
}

static struct comm_stats comms[2];

static void work_phase(struct phase_result *p, const char *name, uint64_t scale)
{
	int wr = syscall_nr("write"), op = syscall_nr("openat");

	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->column, sizeof(p->column), "%s", name);
	p->kind = PHASE_WORK;
	p->wall.end_ns = 100 * MS * scale;
	p->wall.bucket_ns[WB_USER] = 10 * MS * scale;
	p->wall.bucket_ns[WB_KERNEL] = 60 * MS * scale;
	p->wall.kernel_group_ns[SG_DATA] = 40 * MS * scale;
	p->wall.kernel_group_ns[SG_META] = 20 * MS * scale;
	p->wall.bucket_ns[WB_RUNQ] = 5 * MS * scale;
	p->wall.bucket_ns[WB_IOWAIT] = 15 * MS * scale;
	p->wall.bucket_ns[WB_OTHER] = 9 * MS * scale;
	p->wall.unattributed_ns = 1 * MS * scale;
	p->wall.by_nr[WB_IOWAIT][wr] = 15 * MS * scale;
	p->sys[wr].count = 1000;
	p->sys[wr].total_ns = 55 * MS * scale;
	p->sys[wr].oncpu_ns = 40 * MS;
	p->sys[wr].max_ns = 2 * MS;
	p->sys[wr].ret_sum = 4096000;
	p->sys[wr].hist[10] = 1000;
	p->sys[op].count = 1000;
	p->sys[op].total_ns = 20 * MS;
	p->sys[op].hist[14] = 1000;
	p->rusage_user_ns = 10 * MS * scale;
	p->rusage_sys_ns = 60 * MS * scale;
	p->task_clock_ok = scale == 1; /* one phase with the task-clock witness, one without */
	p->task_clock_ns = 67 * MS;
	p->events = 5000;
	if (scale == 1) { /* runs the kernel skipped (recursion_misses) in one phase only */
		p->prog_missed = 3;
		p->prog_missed_top = 2;
		snprintf(p->prog_missed_top_name, sizeof(p->prog_missed_top_name), "io_rq_complete");
		p->clock_skew_events = 42;
		p->clock_skew_max_ns = 80 * MS;
	}
	facts_set(&p->facts, "files_written", "files written", "", 1000);
	facts_set(&p->facts, "app_seconds", "time by its own clock", "s", 0.1 * scale);
	p->comms = comms;
	p->ncomms = 2;
}

/* Device requests on vda (workload and journal writes) with histograms, fsync and a journal. */
static struct io_phase *io_of(void)
{
	struct io_phase *io = io_phase_new();
	struct io_devinfo *d;
	struct io_stat st;

	assert_non_null(io);
	io->window_ns = 100 * MS;
	d = io_phase_dev(io, 0x0fc00000);
	snprintf(d->name, sizeof(d->name), "vda");
	snprintf(d->disk_name, sizeof(d->disk_name), "vda");
	d->busy_ns = 40 * MS;
	d->issued = 30;
	d->has_stat = 1;
	d->stat.wr_ios = 30;
	d->stat.wr_sectors = 8000;
	memset(&st, 0, sizeof(st));
	st.requests = 20;
	st.bytes = 81920;
	st.seq = 5;
	st.queue_ns = 200000;
	st.queue_max = 40000;
	st.dev_ns = 2 * MS;
	st.dev_max = 300000;
	st.qhist[12] = 15;
	st.qhist[15] = 5;
	st.dhist[16] = 18;
	st.dhist[18] = 2;
	st.size_hist[12] = 20;
	st.depth_hist[1] = 20;
	assert_int_equal(io_phase_add(io, 0x0fc00000, IO_OP_WRITE, IO_CL_TREE, &st), 0);
	st.requests = 10;
	assert_int_equal(io_phase_add(io, 0x0fc00000, IO_OP_WRITE, IO_CL_JOURNAL, &st), 0);
	io->ctr.dirtied_bytes = 4096000;
	io->ctr.wb_bytes = 81920;
	io->sys_write_bytes = 4096000;
	io->sys_writes = 1000;
	io->fs = calloc(1, sizeof(*io->fs));
	io->jbd = calloc(1, sizeof(*io->jbd));
	io->fs[0].dev = 0x0fc00000;
	io->fs[0].st.fsync = 7;
	io->fs[0].st.total_ns = 7 * MS;
	io->fs[0].st.max_ns = 2 * MS;
	io->fs[0].st.hist[20] = 7;
	io->nfs = 1;
	io->jbd[0].dev = 0x0fc00000;
	io->jbd[0].st.commits = 3;
	io->jbd[0].st.commit_ns = 3 * MS;
	io->jbd[0].st.commit_max = MS;
	io->jbd[0].st.hist[19] = 3;
	io->njbd = 1;
	return io;
}

/* A few CPU samples: user code in gen, a page fault, write's kernel time, an off-CPU sleep. */
static struct cpu_samples *samples_of(const struct phase_result *p)
{
	struct cpu_samples *cs = cpu_samples_new(999);
	const char *kfn[] = { "ext4_buffered_write_iter", "vfs_write", "ksys_write" };
	const char *ffn[] = { "filemap_map_pages", "do_fault", "exc_page_fault" };
	const char *wfn[] = { "io_schedule", "folio_wait_bit", "ext4_sync_file" };
	uint32_t ids[3], k, f, u, w;

	assert_non_null(cs);
	for (int i = 0; i < 3; i++)
		ids[i] = cpu_samples_name(cs, kfn[i]);
	k = cpu_samples_add_stack(cs, ids, 3, 0);
	for (int i = 0; i < 3; i++)
		ids[i] = cpu_samples_name(cs, ffn[i]);
	f = cpu_samples_add_stack(cs, ids, 3, 0);
	ids[0] = cpu_samples_name(cs, "main");
	u = cpu_samples_add_stack(cs, ids, 1, 1);
	for (int i = 0; i < 3; i++)
		ids[i] = cpu_samples_name(cs, wfn[i]);
	w = cpu_samples_add_stack(cs, ids, 3, 0);
	assert_int_equal(cpu_samples_add_row(cs, &(struct cs_row){ .count = 40,
			 .nr = IOWHY_NR_NONE, .comm = "gen<&>", .kstack = CS_NONE, .ustack = u }), 0);
	assert_int_equal(cpu_samples_add_row(cs, &(struct cs_row){ .count = 7,
			 .nr = IOWHY_NR_NONE, .kernel_mode = 1, .comm = "dd", .kstack = f,
			 .ustack = CS_NONE }), 0);
	assert_int_equal(cpu_samples_add_row(cs, &(struct cs_row){ .count = 25,
			 .nr = (uint16_t)syscall_nr("write"), .kernel_mode = 1, .in_syscall = 1,
			 .comm = "dd", .kstack = k, .ustack = u }), 0);
	assert_int_equal(cpu_samples_add_wait(cs, &(struct cs_wait){ .count = 3, .ns = 9 * MS,
			 .comm = "dd", .kstack = w }), 0);
	cs->samples = 73;
	cs->ustack_lost = 1;
	cs->off_traced = 1;
	cs->off_sleeps = 3;
	cs->exec_files = 2;
	cs->exec_files_found = 1;
	cpu_samples_classify(cs);
	cpu_samples_split_phase(cs, p);
	return cs;
}

/* FUSE: the workload's WRITEs and another process's LOOKUPs on a bindfs mount, its daemon (who
 * waited on vda meanwhile), requests on an unknown mount, no NFS. */
static struct fuse_phase *fuse_of(void)
{
	struct fuse_phase *f = calloc(1, sizeof(*f));
	struct fuse_daemon_row *d;

	assert_non_null(f);
	f->rows = calloc(3, sizeof(*f->rows));
	f->mounts = calloc(1, sizeof(*f->mounts));
	f->daemons = calloc(1, sizeof(*f->daemons));
	assert_true(f->rows && f->mounts && f->daemons);
	f->mounts[0] = (struct fuse_mount_info){ .conn = 0x2d, .point = "/mnt/b f",
						 .source = "bindfs", .fstype = "fuse.bindfs" };
	f->nmounts = 1;
	f->rows[0] = (struct fuse_row){ .conn = 0x2d, .op = 16, .who = FUSE_WHO_TREE };
	f->rows[0].st = (struct fuse_stat){ .count = 10, .in_bytes = 40960, .lat_ns = 5 * MS,
					    .max_ns = MS, .wait_ns = 5 * MS, .waits = 10 };
	f->rows[0].st.hist[300] = 9;
	f->rows[0].st.hist[340] = 1;
	f->rows[1] = (struct fuse_row){ .conn = 0x2d, .op = 1, .who = FUSE_WHO_OTHER };
	f->rows[1].st = (struct fuse_stat){ .count = 3, .errors = 1, .out_bytes = 300,
					    .lat_ns = 90000, .max_ns = 40000 };
	f->rows[1].st.hist[250] = 3;
	f->rows[2] = (struct fuse_row){ .conn = 0x31, .op = 15, .who = FUSE_WHO_TREE };
	f->rows[2].st = (struct fuse_stat){ .count = 1, .out_bytes = 4096, .lat_ns = 70000,
					    .max_ns = 70000, .wait_ns = 70000, .waits = 1 };
	f->rows[2].st.hist[260] = 1;
	f->nrows = 3;
	d = &f->daemons[0];
	*d = (struct fuse_daemon_row){ .tgid = 4242, .conn = 0x2d, .replies = 13, .comm = "bindfs",
				       .ndisks = 1 };
	for (int c = 0; c < FUSE_D_COUNT; c++) {
		d->st.total_ns[c] = (uint64_t)(c + 1) * MS;
		d->st.overlap_ns[c] = (uint64_t)(c + 1) * MS / 2;
		d->st.wall_ns[c] = (uint64_t)(c + 2) * MS;
		d->st.wall_overlap_ns[c] = (uint64_t)(c + 2) * MS / 3;
	}
	d->st.net_tx = 1000;
	d->st.net_rx = 2000;
	d->disks[0] = (struct fuse_disk_row){ .dev = 0x0fc00000, .name = "vda", .total_ns = MS,
					      .overlap_ns = MS / 2 };
	f->ndaemons = 1;
	f->unfinished = 2;
	f->lost.daemon_full = 1;
	return f;
}

struct fixture {
	struct session_result s;
	struct phase_result ph[3];
	char path[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	int sf = syscall_nr("syncfs");

	if (!f)
		return -1;
	memcpy(comms[0].comm, "gen<&>", 7);
	comms[0].tasks = 1;
	comms[0].state_ns[IOWHY_TS_USER] = 10 * MS;
	memcpy(comms[1].comm, "dd", 3);
	comms[1].tasks = 1000;
	comms[1].execs = 1000;
	f->s.tool = "gen";
	snprintf(f->s.command, sizeof(f->s.command), "iowhy gen --strategy a,b --sync");
	snprintf(f->s.kernel, sizeof(f->s.kernel), "6.1.0-test");
	snprintf(f->s.probe_mode, sizeof(f->s.probe_mode), "raw_tp");
	missing_probes_add(&f->s.missing, "block_rq_issue", PROBE_ABSENT, 0);
	missing_probes_add(&f->s.missing, "jbd2_run_stats", PROBE_ATTACH_FAILED, EPERM);
	f->s.setup_ns = 12 * MS;
	f->s.teardown_ns = 3 * MS;
	f->s.events_total = 15000;
	f->s.events_lost = 12;
	f->s.phases = f->ph;
	f->s.nphases = 3;
	snprintf(f->s.disk_names[0], sizeof(f->s.disk_names[0]), "vda");
	work_phase(&f->ph[0], "a", 1);
	f->ph[0].wall.iowait_by_disk[0] = 15 * MS;
	f->ph[0].io = io_of();
	f->ph[0].samples = samples_of(&f->ph[0]);
	f->ph[0].fuse = fuse_of();
	work_phase(&f->ph[1], "b", 3);
	f->ph[1].wall.iowait_by_disk[IOWHY_DISK_SLOTS] = 45 * MS;
	f->ph[2].events_lost = 12; /* lost in the flush: a and b stay measured; reloaded the same */
	snprintf(f->ph[2].name, sizeof(f->ph[2].name), "b/flush");
	snprintf(f->ph[2].column, sizeof(f->ph[2].column), "b");
	f->ph[2].kind = PHASE_FLUSH;
	f->ph[2].wall.end_ns = 30 * MS;
	f->ph[2].wall.bucket_ns[WB_IOWAIT] = 30 * MS;
	f->ph[2].sys[sf].count = 1;
	f->ph[2].sys[sf].total_ns = 30 * MS;
	f->ph[2].sys[sf].hist[24] = 1;
	snprintf(f->path, sizeof(f->path), "/tmp/iowhy-test-load-%d.json", (int)getpid());
	assert_int_equal(summary_compute(&f->s), 0);
	assert_int_equal(json_to(f->path, &f->s), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	summary_free(&f->s);
	io_result_free(f->ph[0].io);
	cpu_samples_free(f->ph[0].samples);
	fuse_phase_free(f->ph[0].fuse);
	unlink(f->path);
	free(f);
	return 0;
}

static char *text_of(const struct session_result *s, int detail)
{
	struct report_options ro = { .detail = detail };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	report_text(m, s, &ro);
	fclose(m);
	return buf;
}

static char *html_of(const struct session_result *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	report_html_write(m, s, NULL, 0);
	fclose(m);
	return buf;
}

/* The part of text between the first `from` and the first `to` after it. */
static char *cut(const char *text, const char *from, const char *to)
{
	const char *a = strstr(text, from), *b;

	assert_non_null(a);
	b = strstr(a, to);
	assert_non_null(b);
	return strndup(a, b - a);
}

static void test_text_same(void **state)
{
	struct fixture *f = *state;
	struct session_result r;
	char err[128];

	assert_int_equal(report_load(f->path, &r, err, sizeof(err)), 0);
	for (int detail = -1; detail <= 1; detail++) {
		char *a = text_of(&f->s, detail), *b = text_of(&r, detail);

		assert_string_equal(a, b);
		assert_non_null(strstr(b, "the kernel skipped 3 runs of iowhy's programs"));
		assert_non_null(strstr(b, "2 of them io_rq_complete: their events are missing"));
		assert_non_null(strstr(b, "WARNING: a: the CPUs' clocks disagreed: 42 wakeups were "
					  "dated after their task was already running again, by up to "
					  "80.0 ms"));
		if (detail == 1) { /* what only -v shows, from what only the JSON's new members keep */
			assert_non_null(strstr(b, "files written: 1,000"));
			assert_non_null(strstr(b, "perf task-clock 67.0 ms, difference -85.1%"));
			assert_non_null(strstr(b, "Where the CPU went (73 samples"));
			assert_non_null(strstr(b, "ext4_buffered_write_iter"));
			assert_non_null(strstr(b, "Why the tree slept uninterruptibly"));
			assert_non_null(strstr(b, "NFS: not traceable"));
			assert_non_null(strstr(b, "/mnt/b f"));
			assert_non_null(strstr(b, "pid 4242 (bindfs) serving /mnt/b f"));
			assert_non_null(strstr(b, "disk I/O wait by device: vda"));
			assert_non_null(strstr(b, "conn 0:49"));
		}
		free(a);
		free(b);
	}
	assert_int_equal(r.missing.n, 2);
	assert_int_equal(r.missing.v[1].why, PROBE_ATTACH_FAILED);
	assert_int_equal(r.missing.v[1].err, EPERM);
	assert_int_equal(r.setup_ns, 12 * MS);
	assert_int_equal(r.phases[0].sys[syscall_nr("write")].ret_sum, 4096000);
	report_load_free(&r);
}

static void test_html_same(void **state)
{
	struct fixture *f = *state;
	struct session_result r;
	char err[128], *a, *b;

	assert_int_equal(report_load(f->path, &r, err, sizeof(err)), 0);
	a = html_of(&f->s);
	b = html_of(&r);
	{
		char *wa = cut(a, "<svg class=\"wallbars\"", "</svg>");
		char *wb = cut(b, "<svg class=\"wallbars\"", "</svg>");
		char *ia = cut(a, "<h3 id=\"io-0\">", "</section>");
		char *ib = cut(b, "<h3 id=\"io-0\">", "</section>");
		char *ea = cut(a, "<ol class=\"expl\">", "</ol>");
		char *eb = cut(b, "<ol class=\"expl\">", "</ol>");

		assert_string_equal(wa, wb);
		assert_string_equal(ia, ib);
		assert_string_equal(ea, eb);
		assert_non_null(strstr(ib, "class=\"lathist\""));
		assert_non_null(strstr(ib, "fsync on vda"));
		free(wa), free(wb), free(ia), free(ib), free(ea), free(eb);
	}
	{ /* the syscalls' histograms are in the JSON: the same percentiles */
		char *sa = cut(a, "<h3>Syscalls", "</table>"), *sb = cut(b, "<h3>Syscalls", "</table>");

		assert_string_equal(sa, sb);
		assert_null(strstr(sb, "<td data-v=\"-1\">-</td><td data-v=\"-1\">-</td>"));
		free(sa), free(sb);
	}
	free(a);
	free(b);
	report_load_free(&r);
}

static void test_refused(void **state)
{
	struct fixture *f = *state;
	struct session_result r;
	char err[128], path[80];
	FILE *o;

	snprintf(path, sizeof(path), "%s.bad", f->path);
	o = fopen(path, "w");
	assert_non_null(o);
	fputs("{\"schema_version\": 99, \"tool\": \"gen\", \"phases\": [{}]}", o);
	fclose(o);
	assert_int_equal(report_load(path, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "schema version 99"));
	report_load_free(&r);
	o = fopen(path, "w");
	fputs("[1, 2", o);
	fclose(o);
	assert_int_equal(report_load(path, &r, err, sizeof(err)), -1);
	assert_null(strchr(err, '\n'));
	report_load_free(&r);
	unlink(path);
}

/* -v needs the FUSE rows' histograms, which an older iowhy's JSON did not keep: refused for such
 * a report, which the default level still renders. */
static void test_verbose_fuse_refused(void **state)
{
	struct fixture *f = *state;
	struct json_object *j = json_object_from_file(f->path), *ph, *fu, *rows;
	struct session_result r;
	char err[160], path[80];

	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "phases", &ph));
	assert_true(json_object_object_get_ex(json_object_array_get_idx(ph, 0), "fuse", &fu));
	assert_true(json_object_object_get_ex(fu, "requests", &rows));
	json_object_object_del(json_object_array_get_idx(rows, 0), "hist");
	snprintf(path, sizeof(path), "%s.fuse", f->path);
	assert_int_equal(json_object_to_file(path, j), 0);
	json_object_put(j);
	assert_int_equal(report_load_detail(path, &r, 1, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "FUSE"));
	report_load_free(&r);
	assert_int_equal(report_load_detail(path, &r, 0, err, sizeof(err)), 0);
	report_load_free(&r);
	assert_int_equal(report_load_detail(f->path, &r, 1, err, sizeof(err)), 0);
	report_load_free(&r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_text_same, setup, teardown),
		cmocka_unit_test_setup_teardown(test_html_same, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verbose_fuse_refused, setup, teardown),
	};

	return cmocka_run_group_tests_name("report_load", tests, NULL, NULL);
}
