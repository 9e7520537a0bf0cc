// SPDX-License-Identifier: GPL-2.0
/*
 * A phase's "fuse" member read back as phase_result.fuse: its request rows with their latency
 * histograms, the mounts they name, the daemons the report showed and the counters; see
 * report_load.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "report_load.h"
#include "fuse_model.h"

/* The opcode fuse_op_name names `name` ("WRITE", "op63"); FUSE_OP_FOLD when none does. */
static uint16_t op_of(const char *name)
{
	for (unsigned op = 0; op <= FUSE_OP_FOLD; op++)
		if (!strcmp(fuse_op_name(op), name))
			return (uint16_t)op;
	return FUSE_OP_FOLD;
}

static uint8_t who_of(const char *name)
{
	for (unsigned w = 0; w < FUSE_WHO_COUNT; w++)
		if (!strcmp(fuse_who_name(w), name))
			return (uint8_t)w;
	return FUSE_WHO_OTHER;
}

/* The mount of a row, known when the report named its filesystem (else it showed "conn M:m"). */
static int add_mount(struct fuse_phase *f, struct json_object *o, uint32_t conn)
{
	struct fuse_mount_info *m;

	if (!strcmp(rl_str(o, "fs"), "?") || fuse_mount_of(f, conn))
		return 0;
	m = realloc(f->mounts, (f->nmounts + 1) * sizeof(*m));
	if (!m)
		return -1;
	f->mounts = m;
	m = &f->mounts[f->nmounts++];
	memset(m, 0, sizeof(*m));
	m->conn = conn;
	snprintf(m->point, sizeof(m->point), "%s", rl_str(o, "mount"));
	snprintf(m->fstype, sizeof(m->fstype), "%s", rl_str(o, "fs"));
	return 0;
}

/* Per daemon class: the key's object into v[FUSE_D_COUNT]. */
static void classes(struct json_object *o, const char *key, __u64 *v)
{
	for (int c = 0; c < FUSE_D_COUNT; c++)
		v[c] = rl_u64(rl_member(o, key), fuse_dcls_key(c));
}

static int load_rows(struct fuse_phase *f, struct json_object *a)
{
	f->rows = calloc(rl_alen(a) ? rl_alen(a) : 1, sizeof(*f->rows));
	if (!f->rows)
		return -1;
	for (size_t i = 0; i < rl_alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct fuse_row *r = &f->rows[f->nrows++];

		r->conn = (uint32_t)rl_u64(o, "connection");
		r->op = op_of(rl_str(o, "opcode"));
		r->who = who_of(rl_str(o, "for"));
		r->st.count = rl_u64(o, "requests");
		r->st.errors = rl_u64(o, "errors");
		r->st.in_bytes = rl_u64(o, "in_bytes");
		r->st.out_bytes = rl_u64(o, "out_bytes");
		r->st.lat_ns = rl_u64(o, "latency_sum_ns");
		r->st.max_ns = rl_u64(o, "max_ns");
		r->st.wait_ns = rl_u64(o, "wait_ns");
		r->st.waits = rl_u64(o, "waits");
		report_load_hist(rl_member(o, "hist"), r->st.hist, FUSE_LAT_SLOTS);
		r->st.replied = rl_u64(o, "replied");
		r->st.paired = rl_u64(o, "daemon_per_request");
		classes(o, "daemon_ns", r->st.dreq_ns);
		if (add_mount(f, o, r->conn))
			return -1;
	}
	return 0;
}

/* The connection whose rows the report labelled `mount`; 0 if none. */
static uint32_t conn_of(struct json_object *rows, const char *mount)
{
	for (size_t i = 0; i < rl_alen(rows); i++) {
		struct json_object *o = json_object_array_get_idx(rows, i);

		if (!strcmp(rl_str(o, "mount"), mount))
			return (uint32_t)rl_u64(o, "connection");
	}
	return 0;
}

static void load_daemon(struct fuse_daemon_row *d, struct json_object *o, struct json_object *rows)
{
	struct json_object *disks = rl_member(o, "disk_wait_by_device");

	d->tgid = (uint32_t)rl_u64(o, "pid");
	snprintf(d->comm, sizeof(d->comm), "%s", rl_str(o, "comm"));
	d->conn = conn_of(rows, rl_str(o, "mount"));
	d->parent = (uint32_t)rl_u64(o, "helper_of");
	d->replies = (uint32_t)rl_u64(o, "replies");
	d->st.replies = d->replies;
	d->st.net_tx = rl_u64(o, "net_tx_bytes");
	d->st.net_rx = rl_u64(o, "net_rx_bytes");
	classes(o, "while_waited_ns", d->st.overlap_ns);
	classes(o, "window_ns", d->st.total_ns);
	classes(o, "process_while_waited_ns", d->st.wall_overlap_ns);
	classes(o, "process_window_ns", d->st.wall_ns);
	classes(o, "per_request_ns", d->st.req_ns);
	d->st.wreplies = rl_u64(rl_member(o, "charge"), "requests");
	d->st.paired = rl_u64(rl_member(o, "charge"), "per_request");
	d->st.handoff = rl_u64(rl_member(o, "charge"), "handed_off");
	for (size_t i = 0; i < rl_alen(disks) && d->ndisks < (int)(sizeof(d->disks) /
								   sizeof(d->disks[0])); i++) {
		struct json_object *x = json_object_array_get_idx(disks, i);
		struct fuse_disk_row *k = &d->disks[d->ndisks++];

		snprintf(k->name, sizeof(k->name), "%s", rl_str(x, "device"));
		k->total_ns = rl_u64(x, "window_ns");
		k->overlap_ns = rl_u64(x, "while_waited_ns");
	}
}

/* The workload's processes that sent requests, with the daemon time charged to them. */
static int load_tasks(struct fuse_phase *f, struct json_object *a)
{
	f->tasks = calloc(rl_alen(a) ? rl_alen(a) : 1, sizeof(*f->tasks));
	if (!f->tasks)
		return -1;
	for (size_t i = 0; i < rl_alen(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct fuse_task_row *t = &f->tasks[f->ntasks++];

		t->tgid = (uint32_t)rl_u64(o, "pid");
		snprintf(t->comm, sizeof(t->comm), "%s", rl_str(o, "comm"));
		t->st.replied = rl_u64(o, "replied");
		t->st.paired = rl_u64(o, "daemon_per_request");
		classes(o, "daemon_ns", t->st.dreq_ns);
	}
	return 0;
}

struct fuse_phase *report_load_fuse(struct json_object *o)
{
	struct fuse_phase *f = calloc(1, sizeof(*f));
	struct json_object *rows = rl_member(o, "requests"), *ds = rl_member(o, "daemons");
	uint64_t daemon_rows = rl_u64(o, "lost_daemon_rows");

	if (!f || load_rows(f, rows) || load_tasks(f, rl_member(o, "processes")) ||
	    !(f->daemons = calloc(rl_alen(ds) ? rl_alen(ds) : 1, sizeof(*f->daemons)))) {
		fuse_phase_free(f);
		return NULL;
	}
	for (size_t i = 0; i < rl_alen(ds); i++)
		load_daemon(&f->daemons[f->ndaemons++], json_object_array_get_idx(ds, i), rows);
	f->unfinished = rl_u64(o, "unfinished");
	f->lost.inflight_full = rl_u64(o, "lost_inflight");
	f->lost.unmatched_end = rl_u64(o, "unmatched_end");
	f->lost.daemon_full = daemon_rows;
	f->lost.stats_full = rl_u64(o, "lost_rows") - daemon_rows;
	f->nfs_probes = json_object_get_boolean(rl_member(o, "nfs_traceable"));
	return f;
}
