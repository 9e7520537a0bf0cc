// SPDX-License-Identifier: GPL-2.0
/* The FUSE section of the text and JSON reports; see fuse_report.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "fuse_report.h"
#include "fuse_model.h"
#include "fuse_explain.h"
#include "result.h"
#include "units.h"
#include "json_put.h"

static const char *mount_name(const struct fuse_phase *f, uint32_t conn, char *buf, size_t n)
{
	return fuse_mount_label(f, conn, buf, n);
}

static const char *fs_name(const struct fuse_phase *f, uint32_t conn)
{
	const struct fuse_mount_info *m = fuse_mount_of(f, conn);

	return m ? m->fstype : "?";
}

static int cmp_wait(const void *a, const void *b)
{
	const struct fuse_row *x = *(const struct fuse_row *const *)a;
	const struct fuse_row *y = *(const struct fuse_row *const *)b;

	return x->st.wait_ns < y->st.wait_ns ? 1 : x->st.wait_ns > y->st.wait_ns ? -1 : 0;
}

/* The workload's synchronous waits by (mount, opcode), longest first, with their share of the
 * wall (task time: tasks waiting at once each count). */
static void print_waits(FILE *out, const struct phase_result *p, const struct fuse_phase *f)
{
	const struct fuse_row **w = calloc(f->nrows ? f->nrows : 1, sizeof(*w));
	uint64_t wall = wall_ns(&p->wall);
	char a[32], e[32], mb[48];
	size_t n = 0;

	if (!w)
		return;
	for (size_t i = 0; i < f->nrows; i++)
		if (f->rows[i].who == FUSE_WHO_TREE && f->rows[i].st.wait_ns)
			w[n++] = &f->rows[i];
	qsort(w, n, sizeof(*w), cmp_wait);
	if (n)
		fprintf(out, "  the workload's waits (task time: tasks waiting at once each "
			"count):\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  waiting on FUSE (%s, %s): %s in %llu requests, %s of the wall\n",
			mount_name(f, w[i]->conn, mb, sizeof(mb)), fuse_op_name(w[i]->op),
			fmt_ns(a, sizeof(a), w[i]->st.wait_ns), (unsigned long long)w[i]->st.waits,
			fmt_pct(e, sizeof(e), wall ? (double)w[i]->st.wait_ns / wall : 0));
	free(w);
}

static void print_requests(FILE *out, const struct phase_result *p, const struct fuse_phase *f)
{
	char a[32], b[32], c[32], d[32], mb[48];

	fprintf(out, "  %-22s %-14s %-12s %-9s %8s %6s %10s %9s %9s %9s\n", "mount", "fs", "opcode",
		"for", "requests", "errors", "bytes", "p50", "p99", "max");
	for (size_t i = 0; i < f->nrows; i++) {
		const struct fuse_row *r = &f->rows[i];

		fprintf(out, "  %-22s %-14s %-12s %-9s %8llu %6llu %10s %9s %9s %9s\n",
			mount_name(f, r->conn, mb, sizeof(mb)), fs_name(f, r->conn),
			fuse_op_name(r->op), fuse_who_name(r->who), (unsigned long long)r->st.count,
			(unsigned long long)r->st.errors,
			fmt_bytes(a, sizeof(a), fuse_row_bytes(r)),
			fmt_ns(b, sizeof(b), fuse_hist_pct(r->st.hist, 0.5)),
			fmt_ns(c, sizeof(c), fuse_hist_pct(r->st.hist, 0.99)),
			fmt_ns(d, sizeof(d), r->st.max_ns));
	}
	print_waits(out, p, f);
}

/* "    WRITE        daemon 1.30 s: 99% other wait, 1% on CPU (64 of 64 requests)": the daemon
 * time ns[] charged per request to `what`, paired of its replied requests; "by overlap only"
 * when none was paired. */
static void print_charge_line(FILE *out, const char *what, const __u64 *ns, uint64_t paired,
			      uint64_t replied)
{
	char t[32], sh[256];
	uint64_t busy = fuse_busy_sum(ns);

	if (!paired) {
		fprintf(out, "    %-12s by overlap only (0 of %llu requests answered by the thread "
			"that read them)\n", what, (unsigned long long)replied);
		return;
	}
	fuse_shares(ns, busy, 1, sh, sizeof(sh));
	fprintf(out, "    %-12s daemon %s%s%s (%llu of %llu requests)\n", what,
		fmt_ns(t, sizeof(t), busy), sh[0] ? ":" : "", sh, (unsigned long long)paired,
		(unsigned long long)replied);
}

/* The time charged per request to each opcode of the workload's on conn, a line per opcode. */
static void print_op_charges(FILE *out, const struct fuse_phase *f, uint32_t conn)
{
	int seen[FUSE_OP_FOLD + 1] = { 0 };

	for (size_t i = 0; i < f->nrows; i++) {
		const struct fuse_row *r = &f->rows[i];
		struct fuse_stat op;

		if (r->conn != conn || r->who == FUSE_WHO_OTHER || r->op > FUSE_OP_FOLD ||
		    seen[r->op]++)
			continue;
		fuse_op_charge(f, conn, r->op, &op);
		if (op.replied)
			print_charge_line(out, fuse_op_name(r->op), op.dreq_ns, op.paired,
					  op.replied);
	}
}

/* The daemons' time charged per request to each workload process that sent requests. */
static void print_task_charges(FILE *out, const struct fuse_phase *f)
{
	int shown = 0;

	for (size_t i = 0; i < f->ntasks; i++) {
		const struct fuse_task_row *t = &f->tasks[i];
		char what[40];

		if (!t->st.paired)
			continue;
		if (!shown++)
			fprintf(out, "  daemon time per request, by the workload process that sent "
				"them:\n");
		snprintf(what, sizeof(what), "pid %u (%s)", t->tgid, t->comm);
		print_charge_line(out, what, t->st.dreq_ns, t->st.paired, t->st.replied);
	}
}

/* How a daemon's time went to the workload's requests: per request (the thread that read each,
 * until it replied) and by overlap (the rest of its time while they were in flight). */
static void print_charge(FILE *out, const struct fuse_phase *f, const struct fuse_daemon_row *d)
{
	struct fuse_charge c;
	char a[32], b[32];

	fuse_daemon_charge(d, &c);
	fmt_ns(a, sizeof(a), c.per_request_ns);
	fmt_ns(b, sizeof(b), c.overlap_ns);
	if (d->parent) {
		fprintf(out, "    charged by overlap: %s (a helper reads no requests)\n", b);
		return;
	}
	fprintf(out, "    charged per request: %llu of %llu requests, %s; by overlap: %s",
		(unsigned long long)c.paired, (unsigned long long)c.requests, a, b);
	if (d->st.handoff)
		fprintf(out, " (%llu replies written by a thread that did not read the request)",
			(unsigned long long)d->st.handoff);
	fprintf(out, "\n");
	if (c.paired)
		fprintf(out, "    daemon time per request, by opcode:\n");
	if (c.paired)
		print_op_charges(out, f, d->conn);
}

/* One daemon block: its time in each class, while the workload waited and over the window. */
static void print_daemon(FILE *out, const struct fuse_phase *f, const struct fuse_daemon_row *d)
{
	char mb[48], v[FUSE_D_COUNT][32], w[FUSE_D_COUNT][32], x[FUSE_D_COUNT][32], tx[32], rx[32];

	for (int c = 0; c < FUSE_D_COUNT; c++) {
		fmt_ns(x[c], sizeof(x[c]), d->st.wall_overlap_ns[c]);
		fmt_ns(v[c], sizeof(v[c]), d->st.overlap_ns[c]);
		fmt_ns(w[c], sizeof(w[c]), d->st.total_ns[c]);
	}
	if (d->parent)
		fprintf(out, "  pid %u (%s), helper of pid %u\n", d->tgid, d->comm, d->parent);
	else
		fprintf(out, "  pid %u (%s) serving %s, %u replies in this phase\n", d->tgid,
			d->comm, mount_name(f, d->conn, mb, sizeof(mb)), d->replies);
	fprintf(out, "    %-22s %16s %16s %14s\n", "", "process, while", "thread time,",
		"thread time,");
	fprintf(out, "    %-22s %16s %16s %14s\n", "", "waited on", "while waited on",
		"whole window");
	for (int c = 0; c < FUSE_D_COUNT; c++)
		fprintf(out, "    %-22s %16s %16s %14s\n", fuse_dcls_name(c), x[c], v[c], w[c]);
	fprintf(out, "    sockets: %s sent, %s received\n", fmt_bytes(tx, sizeof(tx), d->st.net_tx),
		fmt_bytes(rx, sizeof(rx), d->st.net_rx));
	for (int i = 0; i < d->ndisks; i++)
		fprintf(out, "%s %s %s (%s while waited on)%s",
			i ? "," : "    disk I/O wait by device:", d->disks[i].name,
			fmt_ns(tx, sizeof(tx), d->disks[i].total_ns),
			fmt_ns(rx, sizeof(rx), d->disks[i].overlap_ns),
			i + 1 == d->ndisks ? "\n" : "");
	print_charge(out, f, d);
}

/* One sentence: the longest FUSE wait and what the daemon did meanwhile (fuse_explain.c). */
static void print_summary(FILE *out, const struct phase_result *p)
{
	char line[1024];

	if (fuse_explain(p, line, sizeof(line), NULL))
		fprintf(out, "  %s", line);
}

void fuse_report_text(FILE *out, const struct phase_result *p)
{
	const struct fuse_phase *f = p->fuse;
	int shown = 0;

	if (!f)
		return;
	if (f->nrows) {
		fprintf(out, "\nFUSE requests (send -> end; bytes: WRITE data, READ data, else "
			"payloads without headers)\n");
		print_summary(out, p);
		print_requests(out, p, f);
	}
	for (size_t i = 0; i < f->ndaemons; i++) {
		const struct fuse_daemon_row *d = &f->daemons[i];

		if (!fuse_daemon_shown(f, d))
			continue;
		if (!shown++)
			fprintf(out, "\nFUSE daemons (not part of the workload's CPU; charged to "
				"its requests per request, from the thread's read of each to its "
				"reply, and the rest by overlap with the time they were in flight)\n");
		print_daemon(out, f, d);
	}
	if (shown)
		print_task_charges(out, f);
	if (f->unfinished || f->lost.inflight_full || f->lost.unmatched_end || f->lost.stats_full ||
	    f->lost.daemon_full)
		fprintf(out, "  FUSE: %llu requests never answered; lost: %llu in flight, %llu "
			"ends without a send, %llu rows, %llu daemon\n",
			(unsigned long long)f->unfinished,
			(unsigned long long)f->lost.inflight_full,
			(unsigned long long)f->lost.unmatched_end,
			(unsigned long long)f->lost.stats_full,
			(unsigned long long)f->lost.daemon_full);
	if (!f->nfs_probes)
		fprintf(out, "\nNFS: not traceable on this kernel (no nfs:/sunrpc: tracepoints)\n");
}

static void put_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

/* An object of per-class times: {"cpu": ns, "runq": ns, ...}. */
static struct json_object *class_obj(const __u64 *ns)
{
	struct json_object *o = json_object_new_object();

	for (int c = 0; c < FUSE_D_COUNT; c++)
		put_u64(o, fuse_dcls_key(c), ns[c]);
	return o;
}

/* How the daemon's time was charged: {requests, per_request, per_request_ns, overlap_ns}. */
static struct json_object *charge_obj(const struct fuse_daemon_row *d)
{
	struct json_object *o = json_object_new_object();
	struct fuse_charge c;

	fuse_daemon_charge(d, &c);
	put_u64(o, "requests", c.requests);
	put_u64(o, "per_request", c.paired);
	put_u64(o, "handed_off", d->st.handoff);
	put_u64(o, "per_request_ns", c.per_request_ns);
	put_u64(o, "overlap_ns", c.overlap_ns);
	return o;
}

static struct json_object *daemon_obj(const struct fuse_phase *f, const struct fuse_daemon_row *d)
{
	struct json_object *o = json_object_new_object(), *ov = class_obj(d->st.overlap_ns),
			   *tot = class_obj(d->st.total_ns);
	char mb[48];

	put_u64(o, "pid", d->tgid);
	json_object_object_add(o, "comm", json_object_new_string(d->comm));
	json_object_object_add(o, "mount", json_object_new_string(
			       mount_name(f, fuse_daemon_conn(f, d), mb, sizeof(mb))));
	put_u64(o, "helper_of", d->parent);
	put_u64(o, "replies", d->replies);
	put_u64(o, "net_tx_bytes", d->st.net_tx);
	put_u64(o, "net_rx_bytes", d->st.net_rx);
	json_object_object_add(o, "while_waited_ns", ov);
	json_object_object_add(o, "window_ns", tot);
	json_object_object_add(o, "process_while_waited_ns", class_obj(d->st.wall_overlap_ns));
	json_object_object_add(o, "process_window_ns", class_obj(d->st.wall_ns));
	json_object_object_add(o, "per_request_ns", class_obj(d->st.req_ns));
	json_object_object_add(o, "charge", charge_obj(d));
	ov = json_object_new_array();
	for (int i = 0; i < d->ndisks; i++) {
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "device", json_object_new_string(d->disks[i].name));
		put_u64(x, "window_ns", d->disks[i].total_ns);
		put_u64(x, "while_waited_ns", d->disks[i].overlap_ns);
		json_object_array_add(ov, x);
	}
	json_object_object_add(o, "disk_wait_by_device", ov);
	return o;
}

void fuse_report_json(struct json_object *phase_obj, const struct phase_result *p)
{
	const struct fuse_phase *f = p->fuse;
	struct json_object *o, *rows, *ds;
	char mb[48];

	if (!f)
		return;
	o = json_object_new_object();
	rows = json_object_new_array();
	ds = json_object_new_array();
	for (size_t i = 0; i < f->nrows; i++) {
		const struct fuse_row *r = &f->rows[i];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "mount", json_object_new_string(
				       mount_name(f, r->conn, mb, sizeof(mb))));
		json_object_object_add(x, "fs", json_object_new_string(fs_name(f, r->conn)));
		put_u64(x, "connection", r->conn);
		json_object_object_add(x, "opcode", json_object_new_string(fuse_op_name(r->op)));
		json_object_object_add(x, "for", json_object_new_string(fuse_who_name(r->who)));
		put_u64(x, "requests", r->st.count);
		put_u64(x, "errors", r->st.errors);
		put_u64(x, "bytes", fuse_row_bytes(r));
		put_u64(x, "in_bytes", r->st.in_bytes);
		put_u64(x, "out_bytes", r->st.out_bytes);
		put_u64(x, "latency_sum_ns", r->st.lat_ns);
		put_u64(x, "p50_ns", fuse_hist_pct(r->st.hist, 0.5));
		put_u64(x, "p99_ns", fuse_hist_pct(r->st.hist, 0.99));
		put_u64(x, "max_ns", r->st.max_ns);
		put_u64(x, "wait_ns", r->st.wait_ns);
		put_u64(x, "waits", r->st.waits);
		json_object_object_add(x, "hist", jhist(r->st.hist, FUSE_LAT_SLOTS));
		put_u64(x, "replied", r->st.replied);
		put_u64(x, "daemon_per_request", r->st.paired);
		json_object_object_add(x, "daemon_ns", class_obj(r->st.dreq_ns));
		json_object_array_add(rows, x);
	}
	for (size_t i = 0; i < f->ndaemons; i++)
		if (fuse_daemon_shown(f, &f->daemons[i]))
			json_object_array_add(ds, daemon_obj(f, &f->daemons[i]));
	json_object_object_add(o, "requests", rows);
	json_object_object_add(o, "daemons", ds);
	rows = json_object_new_array();
	for (size_t i = 0; i < f->ntasks; i++) {
		const struct fuse_task_row *t = &f->tasks[i];
		struct json_object *x = json_object_new_object();

		put_u64(x, "pid", t->tgid);
		json_object_object_add(x, "comm", json_object_new_string(t->comm));
		put_u64(x, "replied", t->st.replied);
		put_u64(x, "daemon_per_request", t->st.paired);
		json_object_object_add(x, "daemon_ns", class_obj(t->st.dreq_ns));
		json_object_array_add(rows, x);
	}
	json_object_object_add(o, "processes", rows);
	json_object_object_add(o, "charge", json_object_new_string(fuse_charge_method(f)));
	put_u64(o, "unfinished", f->unfinished);
	put_u64(o, "lost_inflight", f->lost.inflight_full);
	put_u64(o, "unmatched_end", f->lost.unmatched_end);
	put_u64(o, "lost_rows", f->lost.stats_full + f->lost.daemon_full);
	put_u64(o, "lost_daemon_rows", f->lost.daemon_full);
	json_object_object_add(o, "nfs_traceable", json_object_new_boolean(f->nfs_probes));
	json_object_object_add(phase_obj, "fuse", o);
}
