/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What hunt.c and hunt_write.c share: the patterns, the per-step cells, the members, the hunt
 * state, and the io_uring step engine. Internal to iowhy hunt.
 */
#ifndef IOWHY_HUNT_CORE_H
#define IOWHY_HUNT_CORE_H

#include <signal.h>
#include <stdint.h>
#include <limits.h>
#include "blkthrottle.h"
#include "devstack.h"
#include "verdicts.h"
#include "hunt.h"

struct json_object;

#define TOOL "hunt"
#define HUNT_SCHEMA 1
#define MAX_DEPTHS VD_MAX_DEPTHS
_Static_assert(HUNT_MAX_DEPTHS == VD_MAX_DEPTHS, "hunt_opts.depth and the cells agree");
#define MAX_MEMBERS VD_MAX_MEMBERS
#define NPATTERNS 2
#define BLKIO_ROOT "/sys/fs/cgroup/blkio"

/* The two access patterns every member is read with. */
struct pattern {
	const char *name;  /* JSON key */
	const char *label; /* table label */
	unsigned int bs;
	int seq;
};
extern const struct pattern hunt_patterns[NPATTERNS];

/* One step's numbers for one device. */
struct cell {
	double iops, mib_s, lat_us, busy_pct;
	int done;
	int skipped; /* not run: the depth before predicted reads longer than the step */
};

struct member {
	char name[64];
	const struct ds_node *node;
	int fd;
	uint64_t size;
	uint64_t cursor;  /* sequential reads: next offset */
	uint64_t writes0; /* writes completed before hunt (/sys/block stat field 5) */
	struct bt_limits thr;
	struct cell alone[NPATTERNS][MAX_DEPTHS];
	struct cell together[NPATTERNS][MAX_DEPTHS]; /* its share of the together steps */
	int cap[NPATTERNS]; /* deepest depth it was read at alone (0: all of them) */
	/* step accumulators */
	uint64_t ops, bytes, ticks0;
	double lat_sum_s;
};

struct hunt {
	const char *target;
	double step_s;
	int depth[MAX_DEPTHS], ndepth;
	const char *json_path;
	int stack_only;
	struct devstack ds;
	struct member m[MAX_MEMBERS];
	int nm;
	struct cell together[NPATTERNS][MAX_DEPTHS]; /* all members summed (latency: mean) */
	double top_cpu_pct;
	int step, nsteps, tty;
	uint64_t rng;
	/* --write FILE: writes into a scratch file on the file system instead of member reads */
	const char *write_path;
	uint64_t write_mib;
	int writing;              /* the step engine writes */
	int wdir;                 /* the scratch file's directory (-1: none) */
	char wname[NAME_MAX + 1];
	struct member file;       /* the scratch file, the one thing written */
	struct wcell {
		double mib_s, busy_pct, lat_us; /* what each member device did in that step */
		int done;
	} wdev[MAX_MEMBERS][NPATTERNS][MAX_DEPTHS];
};


/* Set by SIGINT/SIGTERM: steps stop early and hunt exits 130. */
extern volatile sig_atomic_t hunt_stop;

/* "iowhy hunt: " + FMT (with one string ARG) on stderr; returns 2. */
int hunt_bad(const char *fmt, const char *arg);
/* Field F (1-based) of /sys/class/block/NAME/stat for member M; 0 if unreadable. */
uint64_t hunt_dev_stat(const struct member *m, int f);
/* Run one step: members MS[0..n), member i at DEPTH[i], pattern P; numbers into OUT[i]. */
int hunt_run_step(struct hunt *h, struct member **ms, int n, const int *depth,
		  const struct pattern *p, struct cell **out);
/* The progress line on a terminal. */
void hunt_progress(struct hunt *h, const char *who, const struct pattern *p, int depth);
/* One table row: who, pattern P, a cell per depth, the knee. */
void hunt_print_row(const struct hunt *h, const char *who, int p, const struct cell *c);
/* The knee of a row as a depth, 0 if none. */
int hunt_knee_depth(const struct hunt *h, const struct cell *c);
/* Would member M's step at depth index D outlast the step (from the depth before)? */
int hunt_too_slow(const struct hunt *h, const struct member *m, int p, int d);

/* ---- hunt_write.c: --write FILE ---- */

/* Create the scratch file (O_EXCL, same file system as the target) and size it; 0 or 2. */
int hunt_write_open(struct hunt *h);
/* Remove the scratch file if it is still the one hunt created; close it. */
void hunt_write_remove(struct hunt *h);
/* Every pattern and depth, writing the scratch file; each member's device numbers per step. */
int hunt_write_sweep(struct hunt *h);
/* The file rows and each member's device numbers. */
void hunt_write_table(const struct hunt *h);
/* The verdict input from the write steps. */
void hunt_write_verdict_input(const struct hunt *h, struct vd_input *in);
/* The "write" object of the JSON report. */
struct json_object *hunt_write_json(const struct hunt *h);

#endif
