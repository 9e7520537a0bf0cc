/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The storage workloads: bigfile, read, rand, fsbench, tar, copy, delete.
 *
 * Each command parses its options (xxx_parse: options.h's 0 / 1 for --help or --version / 2 after a
 * one-line message), builds its phases
 * and runs them in a session (cmd_xxx). The work each traced child does is a plain function over a
 * job struct (xxx_fn), callable directly, which the unit tests do.
 */
#ifndef IOWHY_WORKLOADS4_H
#define IOWHY_WORKLOADS4_H

#include <stdint.h>
#include "session.h"
#include "common.h"

/* Commands: argv[0] is the subcommand name ("bigfile"); return iowhy's exit status. */
int cmd_bigfile(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_rand(int argc, char **argv);
int cmd_fsbench(int argc, char **argv);
int cmd_tar(int argc, char **argv);
int cmd_copy(int argc, char **argv);
int cmd_delete(int argc, char **argv);

/* Their option tables (options.h), for the parser's tests. */
extern const struct cmd_def bigfile_cmd, read_cmd, rand_cmd, fsbench_cmd, tar_cmd, copy_cmd,
	delete_cmd;

/* ---- bigfile ---- */

enum bf_method { BF_DD, BF_FALLOCATE, BF_TRUNCATE, BF_NMETHODS };

struct bigfile_opts {
	uint64_t size;
	int methods[BF_NMETHODS], nmethods;
	uint64_t bs[WL_MAX_VALUES];
	int nbs;
	int random;                 /* --source random (default zero) */
	int sync;                   /* flush phase (default on; --no-sync) */
	struct common_opts co;
};

struct bigfile_job {
	char path[4200];
	uint64_t size, bs;
	int method, random;
	const struct common_opts *co;
	double write_s;             /* parent side: the write phase's own time, for the flush view */
};

int bigfile_parse(int argc, char **argv, struct bigfile_opts *o);
/* Facts: writes, bytes, app_seconds, rate (dd's view); allocated_bytes for fallocate/truncate. */
int bigfile_fn(void *arg, struct phase_facts *f);

/* ---- read ---- */

enum wl_hash { HASH_NONE, HASH_MD5, HASH_CRC32 };

struct read_opts {
	const char *file;           /* the user's file (never written), or NULL: --size */
	uint64_t size;
	uint64_t bs[WL_MAX_VALUES];
	int nbs;
	int direct, hash, threads;
	struct common_opts co;
};

struct read_job {
	const char *path;
	uint64_t size, bs;
	int direct, hash, threads;
};

int read_parse(int argc, char **argv, struct read_opts *o);
/* Facts: reads, bytes, app_seconds, rate; with a hash: "md5"/"crc32" (label "md5 <hex>"). */
int read_fn(void *arg, struct phase_facts *f);
/* Digest of a whole file, hex, untraced reference. 0 or -1 (message printed). */
int read_digest(const char *path, int hash, char *hex, size_t n);

/* ---- rand ---- */

enum rand_op { RAND_READ, RAND_WRITE };

struct rand_opts {
	const char *file;
	uint64_t size;
	uint64_t bs[WL_MAX_VALUES], workers[WL_MAX_VALUES];
	int nbs, nworkers;
	int op, direct;
	uint64_t ops, time_ns;      /* exactly one is set */
	struct common_opts co;
};

struct rand_job {
	const char *path;
	uint64_t size, bs;
	int op, direct, workers;
	uint64_t ops, time_ns, seed;
	int sync_end;               /* fdatasync at the end, inside the timing (fsbench writes) */
};

int rand_parse(int argc, char **argv, struct rand_opts *o);
/* Facts: ops, bytes, app_seconds, rate, iops, latency percentiles. */
int rand_fn(void *arg, struct phase_facts *f);

/* ---- fsbench ---- */

struct fsbench_opts {
	uint64_t size, bs_seq, bs_rand, ops;
	int direct;
	struct common_opts co;
};

struct seqwrite_job {
	const char *path;
	uint64_t size, bs;
	int direct;
};

int fsbench_parse(int argc, char **argv, struct fsbench_opts *o);
/* Overwrite a file in place with bs-sized writes, then fdatasync (inside the timing). */
int seqwrite_fn(void *arg, struct phase_facts *f);

/* ---- tar ---- */

struct tar_opts {
	uint64_t members, member_size, readers;
	int gzip;
	const char *archive;        /* --archive PATH: build it there and keep it */
	struct common_opts co;
};

struct tar_set {
	char path[4200];
	uint64_t members, member_size;
	int gzip, readers;
	uint32_t *crc;              /* crc32 of each member's data, as written */
};

int tar_parse(int argc, char **argv, struct tar_opts *o);
/* Build the archive with libarchive (ustar, optionally gzip), recording each member's crc32. */
int tar_build(struct tar_set *t, uint64_t seed);
/* Readers walk the headers and read their members (pread ranges, or a zlib stream for .tar.gz).
 * Facts: members_read, bytes, checksums_ok, headers_read, app_seconds, rate. */
int tar_fn(void *arg, struct phase_facts *f);

/* ---- copy and delete ---- */

enum copy_mode { COPY_PROCESS, COPY_INPROC };

struct copy_opts {
	uint64_t files, size, tree;
	uint64_t jobs[WL_MAX_VALUES];
	int njobs;
	int modes[2], nmodes;
	const char *from, *to;      /* copy: an existing tree to copy; where to keep the copies */
	struct common_opts co;
};

/* A list of files relative to a root, with the directories that hold them (parents first). */
struct wl_tree {
	char **files, **dirs;
	uint64_t *sizes;
	uint64_t nfiles, ndirs, bytes;
};

struct copy_job {
	const struct wl_tree *tree;
	char src[4200], dst[4200];  /* copy: src → dst; delete: dst is the tree to remove */
	int mode, jobs;
	const char *tool;
};

int copy_parse(int argc, char **argv, struct copy_opts *o, int is_delete);
/* Make N files of `size` PRNG bytes under root, spread over a tree of `depth` levels (fanout 4). */
int wl_tree_make(struct wl_tree *t, const char *root, uint64_t n, uint64_t size, int depth,
		 uint64_t seed);
/* Describe an existing tree (regular files only). */
int wl_tree_scan(struct wl_tree *t, const char *root);
void wl_tree_free(struct wl_tree *t);
/* Files under dst identical to those under src: the count that match. */
uint64_t wl_tree_identical(const struct wl_tree *t, const char *src, const char *dst);
/* Facts: files, bytes, failures, app_seconds, files_per_s. */
int copy_fn(void *arg, struct phase_facts *f);
int delete_fn(void *arg, struct phase_facts *f);

#endif
