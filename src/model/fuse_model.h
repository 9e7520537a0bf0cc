/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the FUSE probes measured in one phase (filled by src/collect/fuse_probes.c): requests per
 * (connection, opcode, who), the mounts the connections are, and the daemons' time.
 */
#ifndef IOWHY_FUSE_MODEL_H
#define IOWHY_FUSE_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "fuse.h"

struct fuse_row {
	uint32_t conn;
	uint16_t op;
	uint8_t who;              /* enum fuse_who */
	struct fuse_stat st;      /* summed over CPUs (max_ns: the largest) */
};

struct fuse_mount_info {
	uint32_t conn;            /* st_dev of the mount, kernel encoding: the connection number */
	char point[160];          /* mount point */
	char source[96];          /* mount source ("bindfs", "user@host:/dir", ...) */
	char fstype[32];          /* "fuse.bindfs", "fuse.sshfs", ... */
};

struct fuse_disk_row {
	uint32_t dev;             /* kernel dev_t encoding; 0: unknown */
	char name[32];            /* "vda", "loop3", "0:45" */
	uint64_t total_ns, overlap_ns;
};

struct fuse_daemon_row {
	uint32_t tgid;
	uint32_t conn;            /* 0: not seen answering any request */
	uint32_t replies;         /* in this phase */
	uint32_t parent;          /* a helper process: the daemon it is a child of (else 0) */
	char comm[16];
	struct fuse_dstat st;     /* summed over CPUs */
	struct fuse_disk_row disks[8]; /* disk I/O wait by device, largest first */
	int ndisks;
};

/* The daemon time charged per request to one workload process that sent requests. */
struct fuse_task_row {
	uint32_t tgid;
	char comm[16];
	struct fuse_tstat st;     /* summed over CPUs */
};

struct fuse_phase {
	struct fuse_row *rows;
	size_t nrows;
	struct fuse_mount_info *mounts;
	size_t nmounts;
	struct fuse_daemon_row *daemons;
	size_t ndaemons;
	struct fuse_task_row *tasks;  /* the workload's processes that sent requests */
	size_t ntasks;
	struct fuse_lost lost;    /* during the phase */
	uint64_t unfinished;      /* requests of the phase still in flight at its end */
	int nfs_probes;           /* the kernel has nfs:/sunrpc: tracepoints */
};

/* Name of a FUSE opcode ("WRITE", ...; "op<N>" for unknown ones, in a static buffer). */
const char *fuse_op_name(unsigned op);
/* Who a row is charged to: "workload", "writeback", "other". */
const char *fuse_who_name(unsigned who);
/* Name of a daemon accounting class: "CPU", "run queue", "disk I/O wait", ... */
const char *fuse_dcls_name(unsigned cls);
/* JSON key of a daemon class: "cpu", "runq", "disk_wait", "network_wait", "idle", "other_wait". */
const char *fuse_dcls_key(unsigned cls);
/* The mount of connection conn, NULL if unknown. */
const struct fuse_mount_info *fuse_mount_of(const struct fuse_phase *p, uint32_t conn);
/* Percentile q (0..1) of a latency histogram: the middle of the slot it falls in (ns); 0 if
 * empty. */
uint64_t fuse_hist_pct(const uint32_t *hist, double q);
/* Data bytes of a row: WRITE's payload, READ's reply, else request + reply payloads. */
uint64_t fuse_row_bytes(const struct fuse_row *r);
/* Add a row's counters to acc (histograms too). */
void fuse_row_merge(struct fuse_stat *acc, const struct fuse_stat *s);
/* Add a daemon's per-CPU counters to acc. */
void fuse_dstat_merge(struct fuse_dstat *acc, const struct fuse_dstat *s);
/* Sum of a per-class time array (FUSE_D_COUNT) without "waiting for requests": busy time. */
uint64_t fuse_busy_sum(const __u64 *ns);

/* How a daemon's time was charged to the workload's requests it answered. */
struct fuse_charge {
	uint64_t requests;        /* the workload's requests it answered */
	uint64_t paired;          /* ... from the thread that read them: charged per request */
	uint64_t per_request_ns;  /* their threads' time from read to reply (busy classes) */
	uint64_t overlap_ns;      /* the rest of its thread time while waited on: by overlap */
};
void fuse_daemon_charge(const struct fuse_daemon_row *d, struct fuse_charge *c);
/* The workload's (and writeback's) rows of (conn, op) merged into acc: replied, paired and
 * dreq_ns give the daemon time charged per request to that opcode. */
void fuse_op_charge(const struct fuse_phase *p, uint32_t conn, unsigned op, struct fuse_stat *acc);
/* "per_request" (every answered workload request paired with its reader thread), "overlap"
 * (none), or "per_request+overlap". */
const char *fuse_charge_method(const struct fuse_phase *p);
/* Does the workload (or writeback for it) have requests on conn in this phase? */
int fuse_conn_used(const struct fuse_phase *p, uint32_t conn);
/* The connection daemon d serves (a helper: its parent's), 0 if none is known. */
uint32_t fuse_daemon_conn(const struct fuse_phase *p, const struct fuse_daemon_row *d);
/* Does daemon d (or its parent, for a helper) serve a connection the workload used? */
int fuse_daemon_shown(const struct fuse_phase *p, const struct fuse_daemon_row *d);
/* The daemon process's time while the workload had requests in flight (its process view, all
 * classes: the share of the workload's waiting it was alive for). */
uint64_t fuse_daemon_busy(const struct fuse_daemon_row *d);
void fuse_phase_free(struct fuse_phase *p);

#endif
