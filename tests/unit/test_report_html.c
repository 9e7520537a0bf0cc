// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the HTML report (src/report/report_html.c, html_io.c) on a synthetic session. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <linux/types.h>
#include "report_html.h"
#include "syscalls.h"
#include "summary.h"
#include "io_model.h"

#define MS 1000000ULL

struct fixture {
	struct session_result s;
	struct phase_result ph[2];
	struct comm_stats comms[1];
	char dir[64];
	char *html;
};

static void fill(struct fixture *f)
{
	struct phase_result *w = &f->ph[0], *fl = &f->ph[1];
	int wr = syscall_nr("write"), sf = syscall_nr("syncfs");
	struct io_devinfo *d;
	struct io_stat st;

	f->s.tool = "gen";
	snprintf(f->s.command, sizeof(f->s.command), "gen <script>alert(1)</script> & \"q\"");
	snprintf(f->s.kernel, sizeof(f->s.kernel), "6.1.0-test");
	snprintf(f->s.probe_mode, sizeof(f->s.probe_mode), "tp_btf");
	missing_probes_add(&f->s.missing, "block_rq_issue", PROBE_ABSENT, 0);
	f->s.events_total = 1000;
	f->s.phases = f->ph;
	f->s.nphases = 2;

	snprintf(w->name, sizeof(w->name), "direct");
	snprintf(w->column, sizeof(w->column), "direct");
	w->kind = PHASE_WORK;
	w->wall.start_ns = 0;
	w->wall.end_ns = 100 * MS;
	w->wall.bucket_ns[WB_USER] = 10 * MS;
	w->wall.bucket_ns[WB_KERNEL] = 60 * MS;
	w->wall.kernel_group_ns[SG_DATA] = 40 * MS;
	w->wall.kernel_group_ns[SG_META] = 20 * MS;
	w->wall.bucket_ns[WB_RUNQ] = 5 * MS;
	w->wall.bucket_ns[WB_IOWAIT] = 15 * MS;
	w->wall.bucket_ns[WB_OTHER] = 9 * MS;
	w->wall.unattributed_ns = 1 * MS;
	w->sys[wr].count = 1000;
	w->sys[wr].total_ns = 55 * MS;
	w->sys[wr].hist[10] = 1000;
	memcpy(f->comms[0].comm, "<b>&x\x01", 6);
	f->comms[0].tasks = 1;
	f->comms[0].state_ns[IOWHY_TS_USER] = 10 * MS;
	w->comms = f->comms;
	w->ncomms = 1;
	w->io = io_phase_new();
	assert_non_null(w->io);
	w->io->window_ns = 100 * MS;
	d = io_phase_dev(w->io, 0x00f00000);
	assert_non_null(d);
	snprintf(d->name, sizeof(d->name), "vda");
	snprintf(d->disk_name, sizeof(d->disk_name), "vda");
	memset(&st, 0, sizeof(st));
	st.requests = 10;
	st.bytes = 40960;
	st.qhist[10] = 6;
	st.qhist[12] = 4;
	st.dhist[15] = 10;
	assert_int_equal(io_phase_add(w->io, 0x00f00000, IO_OP_WRITE, 0, &st), 0);
	d = io_phase_dev(w->io, 0x00f00010);     /* another disk, no workload requests */
	assert_non_null(d);
	snprintf(d->name, sizeof(d->name), "vdb");
	snprintf(d->disk_name, sizeof(d->disk_name), "vdb");
	d->disk = 0x00f00010;
	assert_int_equal(io_phase_add(w->io, 0x00f00010, IO_OP_READ, IO_CL_OTHER, &st), 0);

	snprintf(fl->name, sizeof(fl->name), "direct/flush");
	snprintf(fl->column, sizeof(fl->column), "direct");
	fl->kind = PHASE_FLUSH;
	fl->wall.start_ns = 200 * MS;
	fl->wall.end_ns = 230 * MS;
	fl->wall.bucket_ns[WB_IOWAIT] = 30 * MS;
	fl->sys[sf].count = 1;
	fl->sys[sf].total_ns = 30 * MS;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	fill(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/iowhy-test-html-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	if (summary_compute(&f->s))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	summary_free(&f->s);
	io_result_free(f->ph[0].io);
	free(f->html);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

static char *render(struct fixture *f, const struct html_flame *fl, int n)
{
	size_t len = 0;
	FILE *m = open_memstream(&f->html, &len);

	assert_non_null(m);
	report_html_write(m, &f->s, fl, n);
	fclose(m);
	return f->html;
}

/* The value of attribute `attr` of the first element after `from` that has it. */
static double attr_after(const char *from, const char *attr)
{
	char key[64];
	const char *p;
	double v;

	snprintf(key, sizeof(key), " %s=\"", attr);
	p = strstr(from, key);
	assert_non_null(p);
	assert_int_equal(sscanf(p + strlen(key), "%lf", &v), 1);
	return v;
}

static const char *seg(const char *html, const char *kind, const char *key)
{
	char k[96];
	const char *bar, *p;

	snprintf(k, sizeof(k), "data-kind=\"%s\"", kind);
	bar = strstr(html, k);
	assert_non_null(bar);
	snprintf(k, sizeof(k), "data-key=\"%s\"", key);
	p = strstr(bar, k);
	assert_non_null(p);
	return p;
}

/* One bar per column and kind; each part's share and width are its share of that bar's wall. */
static void test_wall_bars(void **state)
{
	struct fixture *f = *state;
	const char *html = render(f, NULL, 0), *work, *flush;

	work = strstr(html, "data-kind=\"work\"");
	flush = strstr(html, "data-kind=\"flush\"");
	assert_non_null(work);
	assert_non_null(flush);
	/* the longest bar (work, 100 ms) is 600 px; the flush (30 ms) 180 px */
	assert_float_equal(attr_after(work, "width"), 600.0, 1e-3);
	assert_float_equal(attr_after(flush, "width"), 180.0, 1e-3);
	assert_float_equal(attr_after(seg(html, "work", "user_ns"), "data-share"), 0.10, 1e-6);
	assert_float_equal(attr_after(seg(html, "work", "user_ns"), "width"), 60.0, 1e-3);
	assert_float_equal(attr_after(seg(html, "work", "kernel_groups.file_data"), "data-share"),
			   0.40, 1e-6);
	assert_float_equal(attr_after(seg(html, "work", "iowait_ns"), "data-share"), 0.15, 1e-6);
	assert_float_equal(attr_after(seg(html, "work", "unattributed_ns"), "width"), 6.0, 1e-3);
	assert_float_equal(attr_after(seg(html, "flush", "iowait_ns"), "data-share"), 1.0, 1e-6);
	assert_float_equal(attr_after(seg(html, "flush", "iowait_ns"), "width"), 180.0, 1e-3);
	/* a part with no time gets no segment */
	assert_null(strstr(html, "data-key=\"kernel_groups.sync\""));
	/* the explanation beside the bars */
	assert_non_null(strstr(html, "<ol class=\"expl\">"));
}

/* Untrusted text is escaped; nothing refers outside the file. */
static void test_escaping_offline(void **state)
{
	struct fixture *f = *state;
	const char *html = render(f, NULL, 0);

	assert_null(strstr(html, "<script>alert"));
	assert_non_null(strstr(html, "gen &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"));
	assert_non_null(strstr(html, "<td>&lt;b&gt;&amp;x?</td>"));
	assert_null(strstr(html, "http://"));
	assert_null(strstr(html, "https://"));
	assert_null(strstr(html, " src="));
	assert_null(strstr(html, "<link"));
	assert_non_null(strstr(html, "@media print"));
	/* sortable tables and the error catcher */
	assert_non_null(strstr(html, "<table class=\"sortable\">"));
	assert_non_null(strstr(html, "window.iowhyErrors"));
}

/* Latency histograms per device and op: every request in one bar of each. */
static void test_histograms(void **state)
{
	struct fixture *f = *state;
	const char *html = render(f, NULL, 0), *q, *d;

	q = strstr(html, "vda write: queue time (10 requests)");
	assert_non_null(q);
	d = strstr(html, "vda write: device time");
	assert_non_null(d);
	/* both on one axis of at least 12 slots holding 10..15: queue 6 and 4, device 10 */
	{
		char *qs = strndup(q, d - q);
		int bars = 0;

		assert_non_null(strstr(qs, "data-count=\"6\""));
		assert_non_null(strstr(qs, "data-count=\"4\""));
		assert_null(strstr(qs, "data-count=\"10\""));
		for (const char *p = qs; (p = strstr(p, "class=\"hb\"")); p++)
			bars++;
		assert_int_equal(bars, 12);
		free(qs);
	}
	assert_non_null(strstr(d, "data-count=\"10\""));
	/* a disk with the workload's requests is shown first; the others are folded away */
	assert_non_null(strstr(html, "latency on the disks without"));
	assert_true(strstr(html, "latency on the disks without") > d);
	assert_true(strstr(html, "vdb read: queue time") > strstr(html, "latency on the disks"));
	assert_non_null(strstr(html, "block layer: workload"));
}

/* Flame graphs only when stacks are given, with the script once. */
static void test_flames(void **state)
{
	struct fixture *f = *state;
	struct flame *fg = flame_new();
	struct html_flame hf[2] = { { "on-CPU", NULL }, { "off-CPU <why>", NULL } };
	const char *html;
	char err[64];

	assert_non_null(fg);
	assert_int_equal(flame_add_line(fg, "main;write;vfs_write 3", err, sizeof(err)), 0);
	assert_int_equal(flame_add_line(fg, "main;read 1", err, sizeof(err)), 0);
	hf[0].flame = hf[1].flame = fg;
	html = render(f, NULL, 0);
	assert_null(strstr(html, "id=\"flames\""));
	assert_null(strstr(html, "function setup(svg)"));
	free(f->html);
	f->html = NULL;
	html = render(f, hf, 2);
	assert_non_null(strstr(html, "id=\"flames\""));
	assert_non_null(strstr(html, "id=\"flame-0\""));
	assert_non_null(strstr(html, "id=\"flame-1\""));
	assert_non_null(strstr(html, "off-CPU &lt;why&gt;"));
	{
		int frames = 0, scripts = 0;

		for (const char *p = html; (p = strstr(p, "<g class=\"f\"")); p++)
			frames++;
		for (const char *p = html; (p = strstr(p, "function setup(svg)")); p++)
			scripts++;
		assert_int_equal(frames, 2 * 4); /* main, write, vfs_write, read; twice */
		assert_int_equal(scripts, 1);
	}
	assert_null(strstr(html, "http://"));
	flame_free(fg);
}

/* The page to a stream the engine opened (safely), closed here; no samples: no flame graphs. */
static void test_stream(void **state)
{
	struct fixture *f = *state;
	struct html_flame fl[2];
	char path[128], buf[32] = "";
	FILE *out, *in;

	assert_int_equal(html_flames_of(&f->s, fl), 0);
	snprintf(path, sizeof(path), "%s/r.html", f->dir);
	out = fopen(path, "w");
	assert_non_null(out);
	assert_int_equal(report_html_stream(out, path, &f->s), 0);
	in = fopen(path, "r");
	assert_non_null(in);
	assert_non_null(fgets(buf, sizeof(buf), in));
	fclose(in);
	assert_string_equal(buf, "<!DOCTYPE html>\n");
	assert_non_null(strstr(render(f, NULL, 0), "missing optional probes (not traced): "
				"block_rq_issue"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_wall_bars, setup, teardown),
		cmocka_unit_test_setup_teardown(test_escaping_offline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_histograms, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flames, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stream, setup, teardown),
	};

	return cmocka_run_group_tests_name("report_html", tests, NULL, NULL);
}
