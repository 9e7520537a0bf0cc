// SPDX-License-Identifier: GPL-2.0
/* FUSE phase data: names and sums over plain structs (see fuse_model.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuse_model.h"

const char *fuse_op_name(unsigned op)
{
	static const char *const names[] = {
		[1] = "LOOKUP", [2] = "FORGET", [3] = "GETATTR", [4] = "SETATTR", [5] = "READLINK",
		[6] = "SYMLINK", [8] = "MKNOD", [9] = "MKDIR", [10] = "UNLINK", [11] = "RMDIR",
		[12] = "RENAME", [13] = "LINK", [14] = "OPEN", [15] = "READ", [16] = "WRITE",
		[17] = "STATFS", [18] = "RELEASE", [20] = "FSYNC", [21] = "SETXATTR",
		[22] = "GETXATTR", [23] = "LISTXATTR", [24] = "REMOVEXATTR", [25] = "FLUSH",
		[26] = "INIT", [27] = "OPENDIR", [28] = "READDIR", [29] = "RELEASEDIR",
		[30] = "FSYNCDIR", [31] = "GETLK", [32] = "SETLK", [33] = "SETLKW", [34] = "ACCESS",
		[35] = "CREATE", [36] = "INTERRUPT", [37] = "BMAP", [38] = "DESTROY",
		[39] = "IOCTL",
		[40] = "POLL", [41] = "NOTIFY_REPLY", [42] = "BATCH_FORGET", [43] = "FALLOCATE",
		[44] = "READDIRPLUS", [45] = "RENAME2", [46] = "LSEEK", [47] = "COPY_FILE_RANGE",
		[48] = "SETUPMAPPING", [49] = "REMOVEMAPPING", [50] = "SYNCFS", [51] = "TMPFILE",
		[52] = "STATX", [53] = "COPY_FILE_RANGE_64",
	};
	static char buf[16];

	if (op < sizeof(names) / sizeof(names[0]) && names[op])
		return names[op];
	if (op == FUSE_OP_FOLD)
		return "CUSE/other";
	snprintf(buf, sizeof(buf), "op%u", op);
	return buf;
}

const char *fuse_who_name(unsigned who)
{
	static const char *const n[] = { "workload", "writeback", "other" };

	return who < FUSE_WHO_COUNT ? n[who] : "?";
}

const char *fuse_dcls_name(unsigned cls)
{
	static const char *const n[] = { "CPU", "run queue", "disk I/O wait", "network wait",
					 "waiting for requests", "other wait" };

	return cls < FUSE_D_COUNT ? n[cls] : "?";
}

const char *fuse_dcls_key(unsigned cls)
{
	static const char *const n[] = { "cpu", "runq", "disk_wait", "network_wait", "idle",
					 "other_wait" };

	return cls < FUSE_D_COUNT ? n[cls] : "?";
}

const struct fuse_mount_info *fuse_mount_of(const struct fuse_phase *p, uint32_t conn)
{
	for (size_t i = 0; i < p->nmounts; i++)
		if (p->mounts[i].conn == conn)
			return &p->mounts[i];
	return NULL;
}

uint64_t fuse_hist_pct(const uint32_t *hist, double q)
{
	uint64_t n = 0, seen = 0, want;

	for (int s = 0; s < FUSE_LAT_SLOTS; s++)
		n += hist[s];
	if (!n)
		return 0;
	want = (uint64_t)(q * n);
	if (want >= n)
		want = n - 1;
	for (int s = 0; s < FUSE_LAT_SLOTS; s++) {
		seen += hist[s];
		if (seen > want) {
			uint64_t lo = fuse_lat_lower(s);
			uint64_t hi = s + 1 < FUSE_LAT_SLOTS ? fuse_lat_lower(s + 1) : lo;

			return lo + (hi - lo) / 2;
		}
	}
	return 0;
}

uint64_t fuse_row_bytes(const struct fuse_row *r)
{
	if (r->op == FUSE_OP_WRITE)
		return r->st.in_bytes;
	if (r->op == FUSE_OP_READ)
		return r->st.out_bytes;
	return r->st.in_bytes + r->st.out_bytes;
}

void fuse_row_merge(struct fuse_stat *acc, const struct fuse_stat *s)
{
	acc->count += s->count;
	acc->errors += s->errors;
	acc->in_bytes += s->in_bytes;
	acc->out_bytes += s->out_bytes;
	acc->lat_ns += s->lat_ns;
	if (s->max_ns > acc->max_ns)
		acc->max_ns = s->max_ns;
	acc->wait_ns += s->wait_ns;
	acc->waits += s->waits;
	acc->replied += s->replied;
	acc->paired += s->paired;
	for (int c = 0; c < FUSE_D_COUNT; c++)
		acc->dreq_ns[c] += s->dreq_ns[c];
	for (int k = 0; k < FUSE_LAT_SLOTS; k++)
		acc->hist[k] += s->hist[k];
}

void fuse_dstat_merge(struct fuse_dstat *acc, const struct fuse_dstat *s)
{
	for (int k = 0; k < FUSE_D_COUNT; k++) {
		acc->total_ns[k] += s->total_ns[k];
		acc->overlap_ns[k] += s->overlap_ns[k];
		acc->wall_ns[k] += s->wall_ns[k];
		acc->wall_overlap_ns[k] += s->wall_overlap_ns[k];
		acc->req_ns[k] += s->req_ns[k];
	}
	acc->replies += s->replies;
	acc->net_tx += s->net_tx;
	acc->net_rx += s->net_rx;
	acc->wreplies += s->wreplies;
	acc->paired += s->paired;
	acc->handoff += s->handoff;
}

uint64_t fuse_busy_sum(const __u64 *ns)
{
	uint64_t t = 0;

	for (int c = 0; c < FUSE_D_COUNT; c++)
		if (c != FUSE_D_IDLE)
			t += ns[c];
	return t;
}

void fuse_daemon_charge(const struct fuse_daemon_row *d, struct fuse_charge *c)
{
	uint64_t ov = fuse_busy_sum(d->st.overlap_ns);

	c->requests = d->st.wreplies;
	c->paired = d->st.paired;
	c->per_request_ns = fuse_busy_sum(d->st.req_ns);
	c->overlap_ns = ov > c->per_request_ns ? ov - c->per_request_ns : 0;
}

void fuse_op_charge(const struct fuse_phase *p, uint32_t conn, unsigned op, struct fuse_stat *acc)
{
	memset(acc, 0, sizeof(*acc));
	for (size_t i = 0; i < p->nrows; i++)
		if (p->rows[i].conn == conn && p->rows[i].op == op &&
		    p->rows[i].who != FUSE_WHO_OTHER)
			fuse_row_merge(acc, &p->rows[i].st);
}

const char *fuse_charge_method(const struct fuse_phase *p)
{
	uint64_t replied = 0, paired = 0;

	for (size_t i = 0; i < p->nrows; i++)
		if (p->rows[i].who != FUSE_WHO_OTHER) {
			replied += p->rows[i].st.replied;
			paired += p->rows[i].st.paired;
		}
	if (!paired)
		return "overlap";
	return paired == replied ? "per_request" : "per_request+overlap";
}

int fuse_conn_used(const struct fuse_phase *p, uint32_t conn)
{
	for (size_t i = 0; i < p->nrows; i++)
		if (p->rows[i].conn == conn && p->rows[i].who != FUSE_WHO_OTHER)
			return 1;
	return 0;
}

uint32_t fuse_daemon_conn(const struct fuse_phase *p, const struct fuse_daemon_row *d)
{
	if (d->conn || !d->parent)
		return d->conn;
	for (size_t i = 0; i < p->ndaemons; i++)
		if (p->daemons[i].tgid == d->parent)
			return p->daemons[i].conn;
	return 0;
}

int fuse_daemon_shown(const struct fuse_phase *p, const struct fuse_daemon_row *d)
{
	uint32_t conn = fuse_daemon_conn(p, d);

	return conn && fuse_conn_used(p, conn);
}

uint64_t fuse_daemon_busy(const struct fuse_daemon_row *d)
{
	uint64_t t = 0;

	for (int c = 0; c < FUSE_D_COUNT; c++)
		t += d->st.wall_overlap_ns[c];
	return t;
}

void fuse_phase_free(struct fuse_phase *p)
{
	if (!p)
		return;
	free(p->rows);
	free(p->mounts);
	free(p->daemons);
	free(p->tasks);
	free(p);
}
