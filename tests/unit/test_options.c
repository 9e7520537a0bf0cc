// SPDX-License-Identifier: GPL-2.0
/*
 * The command line, table-driven: every documented option of every subcommand (its own table and
 * the common options it takes) is accepted and has its effect on the parsed struct; unknown,
 * misplaced and malformed options give exit status 2 and exactly one line on stderr with a usage
 * hint. A documented option without a case here fails the coverage test.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "commands.h"
#include "gen.h"
#include "options.h"
#include "outfile.h"
#include "storage.h"
#include "hunt.h"
#include "cmd_compare.h"

/* The case table leaves the fields a case does not use to zero. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

union any_opts {
	struct run_opts run;
	struct gen_opts gen;
	struct bigfile_opts bigfile;
	struct read_opts read;
	struct rand_opts rand;
	struct fsbench_opts fsbench;
	struct tar_opts tar;
	struct copy_opts copy;   /* copy and delete */
	struct hunt_opts hunt;
	struct attach_opts attach;
};

enum ftype { F_NONE, F_INT, F_U64, F_STR, F_PTR_SET };

/* One case: arguments after the command, the expected result, and for a good case the option it
 * documents and one field it must have set. "@FILE" is an existing file, "@NEW" a free name. */
struct opt_case {
	const char *cmd;
	const char *args[14];
	int rc;
	const char *covers;   /* rc 0/1: the option (long name) this case shows working */
	size_t off;           /* rc 0: the field in union any_opts ... */
	enum ftype type;
	long long want;       /* ... and its value (F_INT, F_U64) */
	const char *wants;    /* F_STR: its value; rc 2: a piece of the message */
};

#define FIELD(m, t, v) .off = offsetof(union any_opts, m), .type = t, .want = v
#define SFIELD(m, s) .off = offsetof(union any_opts, m), .type = F_STR, .wants = s

#define GEN "--strategy", "direct", "--size", "1k", "--count", "2"
#define RD "--size", "1M"

static const struct opt_case cases[] = {
	/* ---- hunt ---- */
	{ "hunt", { "/mnt" }, 0, NULL, SFIELD(hunt.target, "/mnt") },
	{ "hunt", { "--time", "0.2", "/mnt" }, 0, "time", FIELD(hunt.ndepth, F_INT, 4) },
	{ "hunt", { "--time", "0.01", "/mnt" }, 2, .wants = "--time" },
	{ "hunt", { "--depths", "1,8", "/mnt" }, 0, "depths", FIELD(hunt.ndepth, F_INT, 2) },
	{ "hunt", { "--depths", "8,1", "/mnt" }, 2, .wants = "increasing" },
	{ "hunt", { "--stack", "/mnt" }, 0, "stack", FIELD(hunt.stack_only, F_INT, 1) },
	{ "hunt", { "--write", "f", "/mnt" }, 0, "write", SFIELD(hunt.write_path, "f") },
	{ "hunt", { "--write-size", "64", "/mnt" }, 0, "write-size",
	  FIELD(hunt.write_mib, F_U64, 64) },
	{ "hunt", { "--json", "@NEW", "/mnt" }, 0, "json", SFIELD(hunt.json_path, "@NEW") },
	{ "hunt", { "--json", "-", "/mnt" }, 2, .wants = "--json -" },
	{ "hunt", { "--no-io", "/mnt" }, 2, .wants = "--no-io" },
	{ "hunt", { "/a", "/b" }, 2, .wants = "unexpected" },
	{ "hunt", { "--stack" }, 2, .wants = "PATH or DEVICE" },
	/* ---- run ---- */
	{ "run", { "true" }, 0, NULL, FIELD(run.argc, F_INT, 1) },
	{ "run", { "--", "echo", "--json", "x" }, 0, NULL, FIELD(run.argc, F_INT, 3) },
	{ "run", { "--sync", "/tmp", "--", "true" }, 0, "sync", SFIELD(run.sync_dir, "/tmp") },
	{ "run", { "-u", "nobody", "--", "id" }, 0, "user", SFIELD(run.user, "nobody") },
	{ "run", { "--user=nobody", "id" }, 0, "user", SFIELD(run.user, "nobody") },
	{ "run", { "--json", "@NEW", "--", "true" }, 0, "json", SFIELD(run.co.json_path, "@NEW") },
	{ "run", { "-j", "@NEW", "true" }, 0, "json", SFIELD(run.co.json_path, "@NEW") },
	{ "run", { "-o", "@NEW", "--", "true" }, 0, "output", SFIELD(run.co.text_path, "@NEW") },
	{ "run", { "--output=@NEW", "true" }, 0, "output", SFIELD(run.co.text_path, "@NEW") },
	{ "run", { "--repeat", "3", "--", "true" }, 0, "repeat", FIELD(run.co.repeat, F_INT, 3) },
	{ "run", { "--drop-caches", "--", "true" }, 0, "drop-caches",
	  FIELD(run.co.drop_caches, F_INT, 1) },
	{ "run", { "--no-io", "--", "true" }, 0, "no-io", FIELD(run.co.no_io, F_INT, 1) },
	{ "run", { "--freq", "499", "--", "true" }, 0, "freq", FIELD(run.co.sample_hz, F_INT, 499) },
	{ "run", { "--freq", "0", "true" }, 2, .wants = "--freq" },
	{ "run", { "--freq", "20001", "true" }, 2, .wants = "--freq" },
	{ "run", { "--no-sample", "--", "true" }, 0, "no-sample", FIELD(run.co.no_sample, F_INT, 1) },
	{ "run", { "--folded", "@NEW", "--", "true" }, 0, "folded",
	  SFIELD(run.co.folded_path, "@NEW") },
	{ "run", { "--html", "@NEW", "--", "true" }, 0, "html", SFIELD(run.co.html_path, "@NEW") },
	{ "run", { "--timeline", "@NEW", "--", "true" }, 0, "timeline",
	  SFIELD(run.co.timeline_path, "@NEW") },
	{ "run", { "--timeline-max", "1000", "--", "true" }, 0, "timeline-max",
	  FIELD(run.co.timeline_max, F_U64, 1000) },
	{ "run", { "--timeline-max", "0x", "true" }, 2, .wants = "--timeline-max" },
	{ "run", { "-q", "--", "true" }, 0, "brief", FIELD(run.co.detail, F_INT, -1) },
	{ "run", { "--brief", "true" }, 0, "brief", FIELD(run.co.detail, F_INT, -1) },
	{ "run", { "-v", "--", "true" }, 0, "detail", FIELD(run.co.detail, F_INT, 1) },
	{ "run", { "--detail", "true" }, 0, "detail", FIELD(run.co.detail, F_INT, 1) },
	{ "run", { "-qv", "true" }, 0, NULL, FIELD(run.co.detail, F_INT, 1) },
	{ "run", { "-h" }, 1, "help" },
	{ "run", { "--help" }, 1, "help" },
	{ "run", { "-V" }, 1, "version" },
	{ "run", { "--version" }, 1, "version" },
	{ "run", { "--no-io", "--version", "--", "true" }, 1, "version" },
	{ "run", { }, 2, .wants = "no command given" },
	{ "run", { "--no-io" }, 2, .wants = "no command given" },
	{ "run", { "--dir", "/tmp", "--", "true" }, 2, .wants = "--dir does not apply to run" },
	{ "run", { "--dir", "/nonexistent", "--", "true" }, 2, .wants = "--dir does not apply" },
	{ "run", { "--json", "-", "--", "true" }, 2, .wants = "--json - would mix" },
	{ "run", { "--json", "--", "true" }, 2, .wants = "--json needs a value" },
	{ "run", { "--json" }, 2, .wants = "--json needs a value" },
	{ "run", { "-o", "-", "true" }, 2, .wants = "-o needs a file name" },
	{ "run", { "--repeat", "3x", "true" }, 2, .wants = "--repeat: " },
	{ "run", { "--repeat", "0", "true" }, 2, .wants = "--repeat: " },
	{ "run", { "--repeat", "101", "true" }, 2, .wants = "--repeat: " },
	{ "run", { "--no-io=yes", "true" }, 2, .wants = "--no-io takes no value" },
	{ "run", { "--frobnicate", "true" }, 2, .wants = "unknown option '--frobnicate'" },
	{ "run", { "-x", "true" }, 2, .wants = "unknown option '-x'" },
	{ "run", { "--sync", "/nonexistent", "true" }, 2, .wants = "not a directory" },
	{ "run", { "--strategy", "loop", "true" }, 2, .wants = "unknown option" },
	{ "run", { "--interval", "2s", "--", "true" }, 0, "interval",
	  FIELD(run.co.interval_ns, F_U64, 2000000000) },
	{ "run", { "--json-lines", "@NEW", "--", "true" }, 0, "json-lines",
	  SFIELD(run.co.json_lines, "@NEW") },
	{ "run", { "--json-lines", "@NEW", "--", "true" }, 0, NULL,
	  FIELD(run.co.interval_ns, F_U64, 1000000000) },
	{ "run", { "--interval", "10ms", "--", "true" }, 2, NULL, .wants = "at least 100ms" },
	{ "run", { "--interval", "x", "--", "true" }, 2, NULL, .wants = "--interval" },

	/* ---- attach ---- */
	{ "attach", { "-p", "12" }, 0, "pid", FIELD(attach.t.npids, F_INT, 1) },
	{ "attach", { "--pid=12,13" }, 0, "pid", FIELD(attach.t.npids, F_INT, 2) },
	{ "attach", { "--cgroup", "/x" }, 0, "cgroup", SFIELD(attach.t.cgroup, "/x") },
	{ "attach", { "-a" }, 0, "all", FIELD(attach.t.kind, F_INT, ATTACH_ALL) },
	{ "attach", { "--all" }, 0, "all", FIELD(attach.t.kind, F_INT, ATTACH_ALL) },
	{ "attach", { "-a", "--duration", "3s" }, 0, "duration",
	  FIELD(attach.t.duration_ns, F_U64, 3000000000) },
	{ "attach", { "-a", "--lite" }, 0, "lite", FIELD(attach.t.lite, F_INT, 1) },
	{ "attach", { "-p", "1", "--slow", "50" }, 0, "slow",
	  FIELD(attach.co.slow_ns, F_U64, 50000000) },
	{ "attach", { "-a", "--prometheus", "@NEW" }, 0, "prometheus",
	  SFIELD(attach.co.prometheus, "@NEW") },
	{ "attach", { "-a", "--prometheus", "@NEW" }, 0, NULL,
	  FIELD(attach.co.interval_ns, F_U64, 15000000000) },
	{ "attach", { "-a", "--interval", "5s", "--prometheus", "@NEW" }, 0, NULL,
	  FIELD(attach.co.interval_ns, F_U64, 5000000000) },
	{ "attach", { "-a", "--interval", "1s" }, 0, "interval",
	  FIELD(attach.co.interval_ns, F_U64, 1000000000) },
	{ "attach", { "-a", "--json-lines", "@NEW" }, 0, "json-lines",
	  SFIELD(attach.co.json_lines, "@NEW") },
	{ "attach", { "-a", "-j", "@NEW" }, 0, "json", SFIELD(attach.co.json_path, "@NEW") },
	{ "attach", { "-a", "-o", "@NEW" }, 0, "output", SFIELD(attach.co.text_path, "@NEW") },
	{ "attach", { "-a", "--no-io" }, 0, "no-io", FIELD(attach.co.no_io, F_INT, 1) },
	{ "attach", { "-a", "-q" }, 0, "brief", FIELD(attach.co.detail, F_INT, -1) },
	{ "attach", { "-p", "1", "--timeline", "@NEW" }, 0, "timeline",
	  SFIELD(attach.co.timeline_path, "@NEW") },
	{ "attach", { "-p", "1", "--timeline-max", "500" }, 0, "timeline-max",
	  FIELD(attach.co.timeline_max, F_U64, 500) },
	{ "attach", { "-a", "--html", "@NEW" }, 2, NULL, .wants = "--html" },
	{ "attach", { "-a", "-v" }, 0, "detail", FIELD(attach.co.detail, F_INT, 1) },
	{ "attach", { "--help" }, 1, "help" },
	{ "attach", { NULL }, 2, NULL, .wants = "no target" },
	{ "attach", { "-p", "1", "-a" }, 2, NULL, .wants = "one of -p" },
	{ "attach", { "-p", "x" }, 2, NULL, .wants = "not a list" },
	{ "attach", { "-p", "1," }, 2, NULL, .wants = "not a list" },
	{ "attach", { "-p", "0" }, 2, NULL, .wants = "not a list" },
	{ "attach", { "-a", "--lite", "--slow", "5" }, 2, NULL, .wants = "--lite" },
	{ "attach", { "-a", "--duration", "0" }, 2, NULL, .wants = "--duration" },
	{ "attach", { "-a", "--slow", "-1" }, 2, NULL, .wants = "--slow" },
	{ "attach", { "-a", "--repeat", "2" }, 2, NULL, .wants = "does not apply" },
	{ "attach", { "-a", "--dir", "/tmp" }, 2, NULL, .wants = "does not apply" },
	{ "attach", { "-a", "extra" }, 2, NULL, .wants = "unexpected argument" },
	{ "attach", { "-p" }, 2, NULL, .wants = "needs a value" },

	/* ---- gen ---- */
	{ "gen", { "--strategy", "split,loop", "--size", "1k", "--count", "2" }, 0, "strategy",
	  FIELD(gen.strategies[1], F_INT, GEN_LOOP) },
	{ "gen", { GEN }, 0, "size", FIELD(gen.size, F_U64, 1024) },
	{ "gen", { GEN }, 0, "count", FIELD(gen.count, F_U64, 2) },
	{ "gen", { GEN, "--sync" }, 0, "sync", FIELD(gen.sync, F_INT, 1) },
	{ "gen", { GEN, "--json", "@NEW" }, 0, "json", SFIELD(gen.common.json_path, "@NEW") },
	{ "gen", { GEN, "-j", "-" }, 0, "json", SFIELD(gen.common.json_path, "-") },
	{ "gen", { GEN, "-o", "@NEW" }, 0, "output", SFIELD(gen.common.text_path, "@NEW") },
	{ "gen", { GEN, "--dir", "/tmp" }, 0, "dir", SFIELD(gen.common.dir, "/tmp") },
	{ "gen", { GEN, "--repeat", "2" }, 0, "repeat", FIELD(gen.common.repeat, F_INT, 2) },
	{ "gen", { GEN, "--drop-caches" }, 0, "drop-caches", FIELD(gen.common.drop_caches, F_INT, 1) },
	{ "gen", { GEN, "--no-io" }, 0, "no-io", FIELD(gen.common.no_io, F_INT, 1) },
	{ "gen", { GEN, "--freq=97" }, 0, "freq", FIELD(gen.common.sample_hz, F_INT, 97) },
	{ "gen", { GEN, "--no-sample" }, 0, "no-sample", FIELD(gen.common.no_sample, F_INT, 1) },
	{ "gen", { GEN, "--folded", "@NEW" }, 0, "folded", SFIELD(gen.common.folded_path, "@NEW") },
	{ "gen", { GEN, "--html", "@NEW" }, 0, "html", SFIELD(gen.common.html_path, "@NEW") },
	{ "gen", { GEN, "--timeline", "@NEW" }, 0, "timeline",
	  SFIELD(gen.common.timeline_path, "@NEW") },
	{ "gen", { GEN, "--timeline-max=50" }, 0, "timeline-max",
	  FIELD(gen.common.timeline_max, F_U64, 50) },
	{ "gen", { GEN, "--interval", "1.5s" }, 0, "interval",
	  FIELD(gen.common.interval_ns, F_U64, 1500000000) },
	{ "gen", { GEN, "--json-lines", "@NEW" }, 0, "json-lines",
	  SFIELD(gen.common.json_lines, "@NEW") },
	{ "gen", { GEN, "-q" }, 0, "brief", FIELD(gen.common.detail, F_INT, -1) },
	{ "gen", { GEN, "-v" }, 0, "detail", FIELD(gen.common.detail, F_INT, 1) },
	{ "gen", { "--help" }, 1, "help" },
	{ "gen", { GEN, "-V" }, 1, "version" },
	{ "gen", { GEN, "extra" }, 2, .wants = "unexpected argument 'extra'" },
	{ "gen", { GEN, "--from", "/tmp" }, 2, .wants = "unknown option '--from'" },
	{ "gen", { GEN, "--sync=1" }, 2, .wants = "--sync takes no value" },
	{ "gen", { GEN, "--count" }, 2, .wants = "--count needs a value" },
	{ "gen", { GEN, "-o", "/proc/self/status" }, 2, .wants = "-o /proc/self/status" },
	{ "gen", { GEN, "--json", "/dev/null" }, 2, .wants = "is a device" },
	{ "gen", { GEN, "--json", "/nonexistent/dir/r.json" }, 2, .wants = "cannot create it" },
	/* ---- bigfile ---- */
	{ "bigfile", { "--size", "64M" }, 0, "size", FIELD(bigfile.size, F_U64, 64 << 20) },
	{ "bigfile", { "--size", "1M", "--method", "fallocate,truncate" }, 0, "method",
	  FIELD(bigfile.methods[1], F_INT, BF_TRUNCATE) },
	{ "bigfile", { "--size", "1M", "--bs", "4k,8k" }, 0, "bs", FIELD(bigfile.bs[1], F_U64, 8192) },
	{ "bigfile", { "--size", "1M", "--source", "random" }, 0, "source",
	  FIELD(bigfile.random, F_INT, 1) },
	{ "bigfile", { "--size", "1M", "--no-sync", "--sync" }, 0, "sync",
	  FIELD(bigfile.sync, F_INT, 1) },
	{ "bigfile", { "--size", "1M", "--no-sync" }, 0, "no-sync", FIELD(bigfile.sync, F_INT, 0) },
	{ "bigfile", { "--size", "1M", "--dir", "/tmp", "--repeat", "2" }, 0, "dir",
	  SFIELD(bigfile.co.dir, "/tmp") },
	{ "bigfile", { "--size", "1M", "--method", "dd,dd" }, 2, .wants = "given more than once" },
	{ "bigfile", { "--size", "1M", "--method", "dd," }, 2, .wants = "empty name" },
	{ "bigfile", { "--size", "1M", "--gzip" }, 2, .wants = "unknown option '--gzip'" },
	/* ---- read ---- */
	{ "read", { "@FILE" }, 0, NULL, SFIELD(read.file, "@FILE") },
	{ "read", { "--bs", "4k", "@FILE", "--direct" }, 0, NULL, SFIELD(read.file, "@FILE") },
	{ "read", { "--", "@FILE" }, 0, NULL, SFIELD(read.file, "@FILE") },
	{ "read", { RD }, 0, "size", FIELD(read.size, F_U64, 1 << 20) },
	{ "read", { RD, "--bs", "4k,64k" }, 0, "bs", FIELD(read.bs[1], F_U64, 65536) },
	{ "read", { RD, "--direct" }, 0, "direct", FIELD(read.direct, F_INT, 1) },
	{ "read", { RD, "--hash", "crc32" }, 0, "hash", FIELD(read.hash, F_INT, HASH_CRC32) },
	{ "read", { RD, "--threads", "4" }, 0, "threads", FIELD(read.threads, F_INT, 4) },
	{ "read", { RD, "--no-io" }, 0, "no-io", FIELD(read.co.no_io, F_INT, 1) },
	{ "read", { "@FILE", "@FILE" }, 2, .wants = "unexpected argument" },
	{ "read", { RD, "--threads" }, 2, .wants = "--threads needs a value" },
	{ "read", { RD, "--ops", "3" }, 2, .wants = "unknown option '--ops'" },
	/* ---- rand ---- */
	{ "rand", { RD }, 0, "size", FIELD(rand.size, F_U64, 1 << 20) },
	{ "rand", { RD, "--bs", "8k" }, 0, "bs", FIELD(rand.bs[0], F_U64, 8192) },
	{ "rand", { RD, "--op", "write" }, 0, "op", FIELD(rand.op, F_INT, RAND_WRITE) },
	{ "rand", { RD, "--workers", "1,8" }, 0, "workers", FIELD(rand.workers[1], F_U64, 8) },
	{ "rand", { RD, "--ops", "100" }, 0, "ops", FIELD(rand.ops, F_U64, 100) },
	{ "rand", { RD, "--time", "500ms" }, 0, "time", FIELD(rand.time_ns, F_U64, 500000000) },
	{ "rand", { RD, "--direct" }, 0, "direct", FIELD(rand.direct, F_INT, 1) },
	{ "rand", { "@FILE", "--bs", "512" }, 0, NULL, SFIELD(rand.file, "@FILE") },
	{ "rand", { RD, "--time", "10q" }, 2, .wants = "--time: " },
	{ "rand", { RD, "--time", "0s" }, 2, .wants = "--time: " },
	{ "rand", { RD, "--op", "trim" }, 2, .wants = "--op" },
	/* ---- fsbench ---- */
	{ "fsbench", { "--size", "8M" }, 0, "size", FIELD(fsbench.size, F_U64, 8 << 20) },
	{ "fsbench", { "--bs-seq", "64k" }, 0, "bs-seq", FIELD(fsbench.bs_seq, F_U64, 65536) },
	{ "fsbench", { "--bs-rand", "8k" }, 0, "bs-rand", FIELD(fsbench.bs_rand, F_U64, 8192) },
	{ "fsbench", { "--ops", "99" }, 0, "ops", FIELD(fsbench.ops, F_U64, 99) },
	{ "fsbench", { "--direct" }, 0, "direct", FIELD(fsbench.direct, F_INT, 1) },
	{ "fsbench", { "--fast" }, 2, .wants = "unknown option '--fast'" },
	{ "fsbench", { "FILE" }, 2, .wants = "unexpected argument 'FILE'" },
	/* ---- tar ---- */
	{ "tar", { "--members", "10" }, 0, "members", FIELD(tar.members, F_U64, 10) },
	{ "tar", { "--member-size", "1k" }, 0, "member-size", FIELD(tar.member_size, F_U64, 1024) },
	{ "tar", { "--readers", "3" }, 0, "readers", FIELD(tar.readers, F_U64, 3) },
	{ "tar", { "--gzip" }, 0, "gzip", FIELD(tar.gzip, F_INT, 1) },
	{ "tar", { "--archive", "@NEW" }, 0, "archive", SFIELD(tar.archive, "@NEW") },
	{ "tar", { "--archive", "@FILE" }, 2, .wants = "exists" },
	{ "tar", { "--archive", "@LINK" }, 2, .wants = "exists (a symbolic link)" },
	/* ---- copy and delete ---- */
	{ "copy", { "--files", "10" }, 0, "files", FIELD(copy.files, F_U64, 10) },
	{ "copy", { "--size", "4k" }, 0, "size", FIELD(copy.size, F_U64, 4096) },
	{ "copy", { "--tree", "2" }, 0, "tree", FIELD(copy.tree, F_U64, 2) },
	{ "copy", { "--tree", "0" }, 0, "tree", FIELD(copy.tree, F_U64, 0) },
	{ "copy", { "--jobs", "1,4" }, 0, "jobs", FIELD(copy.jobs[1], F_U64, 4) },
	{ "copy", { "--mode", "inproc,process" }, 0, "mode", FIELD(copy.modes[1], F_INT, COPY_PROCESS) },
	{ "copy", { "--from", "/tmp" }, 0, "from", SFIELD(copy.from, "/tmp") },
	{ "copy", { "--to", "@NEW" }, 0, "to", SFIELD(copy.to, "@NEW") },
	{ "copy", { "--mode", "process,inproc,process" }, 2, .wants = "'process' given more than once" },
	{ "copy", { "--mode", "" }, 2, .wants = "empty name" },
	{ "delete", { "--files", "10" }, 0, "files", FIELD(copy.files, F_U64, 10) },
	{ "delete", { "--size", "4k" }, 0, "size", FIELD(copy.size, F_U64, 4096) },
	{ "delete", { "--tree", "3" }, 0, "tree", FIELD(copy.tree, F_U64, 3) },
	{ "delete", { "--jobs", "2" }, 0, "jobs", FIELD(copy.jobs[0], F_U64, 2) },
	{ "delete", { "--mode", "inproc" }, 0, "mode", FIELD(copy.modes[0], F_INT, COPY_INPROC) },
	{ "delete", { "--from", "/tmp" }, 2, .wants = "unknown option '--from'" },
	{ "delete", { "--to", "/tmp/x" }, 2, .wants = "unknown option '--to'" },
};

static char tmpdir[] = "/tmp/iowhy-test-options-XXXXXX";
static char file_path[300], new_path[300], link_path[300];

static int setup(void **state)
{
	static char data[8192];
	int fd;

	(void)state;
	memset(data, 'x', sizeof(data));
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(file_path, sizeof(file_path), "%s/file", tmpdir);
	snprintf(new_path, sizeof(new_path), "%s/new", tmpdir);
	snprintf(link_path, sizeof(link_path), "%s/link", tmpdir);
	fd = open(file_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, sizeof(data)) != (ssize_t)sizeof(data))
		return -1;
	close(fd);
	return symlink("/nonexistent/iowhy-target", link_path);
}

static int teardown(void **state)
{
	(void)state;
	unlink(file_path);
	unlink(new_path);
	unlink(link_path);
	return rmdir(tmpdir);
}

/* "@FILE" and friends to real paths. */
static const char *subst(const char *a)
{
	if (!a)
		return NULL;
	if (!strcmp(a, "@FILE"))
		return file_path;
	if (!strcmp(a, "@NEW"))
		return new_path;
	if (!strcmp(a, "@LINK"))
		return link_path;
	if (!strcmp(a, "--output=@NEW")) {
		static char buf[320];

		snprintf(buf, sizeof(buf), "--output=%s", new_path);
		return buf;
	}
	return a;
}

/* The parse function of a command. */
static int parse_any(const char *cmd, int argc, char **argv, union any_opts *u)
{
	if (!strcmp(cmd, "run"))
		return run_parse(argc, argv, &u->run);
	if (!strcmp(cmd, "gen"))
		return gen_parse(argc, argv, &u->gen);
	if (!strcmp(cmd, "attach"))
		return attach_parse(argc, argv, &u->attach);
	if (!strcmp(cmd, "bigfile"))
		return bigfile_parse(argc, argv, &u->bigfile);
	if (!strcmp(cmd, "read"))
		return read_parse(argc, argv, &u->read);
	if (!strcmp(cmd, "rand"))
		return rand_parse(argc, argv, &u->rand);
	if (!strcmp(cmd, "fsbench"))
		return fsbench_parse(argc, argv, &u->fsbench);
	if (!strcmp(cmd, "tar"))
		return tar_parse(argc, argv, &u->tar);
	if (!strcmp(cmd, "copy"))
		return copy_parse(argc, argv, &u->copy, 0);
	if (!strcmp(cmd, "delete"))
		return copy_parse(argc, argv, &u->copy, 1);
	if (!strcmp(cmd, "hunt"))
		return hunt_parse(argc, argv, &u->hunt);
	if (!strcmp(cmd, "compare")) {
		int first;

		return opts_parse(&compare_cmd, argc, argv, &u->run.co, NULL, &first);
	}
	fail_msg("no parser for %s", cmd);
	return -1;
}

/* Run a case's parse with stdout and stderr caught in out and err. */
static int run_case(const struct opt_case *c, union any_opts *u, char *out, size_t on, char *err,
		    size_t en)
{
	char *argv[16] = { (char *)c->cmd };
	FILE *so = stdout, *se = stderr, *mo = fmemopen(out, on, "w"), *me = fmemopen(err, en, "w");
	int argc = 1, rc;

	assert_non_null(mo);
	assert_non_null(me);
	for (int k = 0; c->args[k]; k++)
		argv[argc++] = (char *)subst(c->args[k]);
	memset(u, 0xa5, sizeof(*u)); /* the parser must set what it reports, not find it */
	out[0] = err[0] = '\0';
	stdout = mo;
	stderr = me;
	rc = parse_any(c->cmd, argc, argv, u);
	stdout = so;
	stderr = se;
	fclose(mo);
	fclose(me);
	return rc;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void check_field(size_t k, const struct opt_case *c, const union any_opts *u)
{
	const char *p = (const char *)u + c->off;

	switch (c->type) {
	case F_INT:
		if (*(const int *)p != (int)c->want)
			fail_msg("case %zu (%s %s): field is %d, want %lld", k, c->cmd, c->args[0],
				 *(const int *)p, c->want);
		break;
	case F_U64:
		if (*(const uint64_t *)p != (uint64_t)c->want)
			fail_msg("case %zu (%s %s): field is %llu, want %lld", k, c->cmd, c->args[0],
				 (unsigned long long)*(const uint64_t *)p, c->want);
		break;
	case F_STR: {
		const char *v = *(const char *const *)p;

		if (!v || strcmp(v, subst(c->wants)))
			fail_msg("case %zu (%s %s): field is '%s', want '%s'", k, c->cmd, c->args[0],
				 v ? v : "(null)", subst(c->wants));
		break;
	}
	default:
		break;
	}
}

/* Every case: its result, its effect, or its one line with the hint. */
static void test_cases(void **state)
{
	static char out[16384], err[4096];

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct opt_case *c = &cases[k];
		union any_opts u;
		int rc = run_case(c, &u, out, sizeof(out), err, sizeof(err));
		char prefix[64];

		if (rc != c->rc)
			fail_msg("case %zu (%s %s): rc %d, want %d; stderr: %s", k, c->cmd,
				 c->args[0] ? c->args[0] : "", rc, c->rc, err);
		if (rc == 0) {
			if (err[0])
				fail_msg("case %zu (%s): printed '%s'", k, c->cmd, err);
			check_field(k, c, &u);
			continue;
		}
		if (rc == 1) {
			if (!out[0] || err[0])
				fail_msg("case %zu (%s): help/version printed nothing", k, c->cmd);
			continue;
		}
		snprintf(prefix, sizeof(prefix), "iowhy %s: ", c->cmd);
		if (count_lines(err) != 1 || strncmp(err, prefix, strlen(prefix)))
			fail_msg("case %zu (%s): want one line starting '%s', got '%s'", k, c->cmd, prefix,
				 err);
		if (c->wants && !strstr(err, c->wants))
			fail_msg("case %zu (%s): message '%s' lacks '%s'", k, c->cmd, err, c->wants);
	}
}

/* Syntax errors (unknown, misplaced, malformed options) carry the hint to --help. */
static void test_syntax_errors_hint_help(void **state)
{
	static char out[4096], err[4096];

	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		const struct opt_case *c = &cases[k];
		union any_opts u;
		char hint[64];

		if (c->rc != 2 || !c->wants || (!strstr(c->wants, "unknown option") &&
						 !strstr(c->wants, "needs a value") &&
						 !strstr(c->wants, "takes no value") &&
						 !strstr(c->wants, "does not apply") &&
						 !strstr(c->wants, "unexpected argument")))
			continue;
		run_case(c, &u, out, sizeof(out), err, sizeof(err));
		snprintf(hint, sizeof(hint), "(see iowhy %s --help)\n", c->cmd);
		if (!strstr(err, hint))
			fail_msg("case %zu (%s): '%s' lacks the hint '%s'", k, c->cmd, err, hint);
	}
}

static const struct cmd_def *const all_cmds[] = {
	&run_cmd, &gen_cmd, &bigfile_cmd, &read_cmd, &rand_cmd, &fsbench_cmd, &tar_cmd, &copy_cmd,
	&delete_cmd, &hunt_cmd, &compare_cmd, &attach_cmd,
};

/* The bit of a common option in cmd_def.common, as options.c maps it. */
static unsigned common_bit(const char *name)
{
	static const struct { const char *name; unsigned bit; } map[] = {
		{ "json", CO_JSON }, { "output", CO_TEXT }, { "dir", CO_DIR }, { "repeat", CO_REPEAT },
		{ "drop-caches", CO_DROP }, { "no-io", CO_NOIO }, { "brief", CO_DETAIL },
		{ "detail", CO_DETAIL }, { "freq", CO_SAMPLE }, { "no-sample", CO_SAMPLE },
		{ "folded", CO_SAMPLE }, { "html", CO_PICTURES }, { "timeline", CO_TIMELINE },
		{ "timeline-max", CO_TIMELINE },
		{ "interval", CO_INTERVAL }, { "json-lines", CO_INTERVAL },
	};

	for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++)
		if (!strcmp(map[k].name, name))
			return map[k].bit;
	return 0;
}

/* A good case of cmd that covers option `name`. */
static int covered(const char *cmd, const char *name)
{
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		if (!strcmp(cases[k].cmd, cmd) && cases[k].rc != 2 && cases[k].covers &&
		    !strcmp(cases[k].covers, name))
			return 1;
	return 0;
}

/* Every option a --help lists has a case above showing it works (common ones: on run, gen, or the
 * command itself). */
static void test_every_documented_option_is_covered(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(all_cmds) / sizeof(all_cmds[0]); c++) {
		const struct cmd_def *d = all_cmds[c];

		for (const struct opt_def *o = d->opts; o->name; o++)
			if (!covered(d->name, o->name))
				fail_msg("%s --%s: documented, no case shows it working", d->name, o->name);
		for (const struct opt_def *o = common_opt_defs; o->name; o++) {
			unsigned bit = common_bit(o->name);

			if (bit && !(d->common & bit))
				continue;
			if (!covered(d->name, o->name) && !covered("gen", o->name))
				fail_msg("%s --%s: documented, no case shows it working", d->name, o->name);
		}
	}
}

/* --help lists exactly the options the parser takes: its own and the common ones that apply. */
static void test_help_lists_what_is_parsed(void **state)
{
	static char out[16384], err[1024];

	(void)state;
	for (size_t c = 0; c < sizeof(all_cmds) / sizeof(all_cmds[0]); c++) {
		const struct cmd_def *d = all_cmds[c];
		struct opt_case hc = { .cmd = d->name, .args = { "--help" }, .rc = 1 };
		char want[64];
		union any_opts u;

		assert_int_equal(run_case(&hc, &u, out, sizeof(out), err, sizeof(err)), 1);
		assert_non_null(strstr(out, "usage: iowhy"));
		for (const struct opt_def *o = d->opts; o->name; o++) {
			snprintf(want, sizeof(want), "--%s", o->name);
			if (!strstr(out, want))
				fail_msg("%s --help lacks %s", d->name, want);
		}
		for (const struct opt_def *o = common_opt_defs; o->name; o++) {
			unsigned bit = common_bit(o->name);

			snprintf(want, sizeof(want), "--%s ", o->name);
			if (!bit || (d->common & bit)) {
				if (!strstr(out, want))
					fail_msg("%s --help lacks %s", d->name, want);
			} else if (strstr(out, want)) {
				fail_msg("%s --help lists %s, which it refuses", d->name, want);
			}
		}
	}
}

/* -V after any command prints the version lines. */
static void test_version_everywhere(void **state)
{
	static char out[4096], err[1024];

	(void)state;
	for (size_t c = 0; c < sizeof(all_cmds) / sizeof(all_cmds[0]); c++) {
		struct opt_case vc = { .cmd = all_cmds[c]->name, .args = { "-V" }, .rc = 1 };
		union any_opts u;

		assert_int_equal(run_case(&vc, &u, out, sizeof(out), err, sizeof(err)), 1);
		assert_non_null(strstr(out, "iowhy " IOWHY_VERSION "\n"));
		assert_non_null(strstr(out, "\nlibbpf "));
		assert_non_null(strstr(out, "\nkernel "));
		assert_non_null(strstr(out, "\nBTF (/sys/kernel/btf/vmlinux): "));
		assert_non_null(strstr(out, "\ntp_btf: "));
		assert_non_null(strstr(out, "\ntask storage: "));
	}
}

/* iowhy_main with argv, stdout and stderr caught. */
static int top(char *out, size_t on, char *err, size_t en, int argc, char **argv)
{
	FILE *so = stdout, *se = stderr, *mo = fmemopen(out, on, "w"), *me = fmemopen(err, en, "w");
	int rc;

	out[0] = err[0] = '\0';
	stdout = mo;
	stderr = me;
	rc = iowhy_main(argc, argv);
	stdout = so;
	stderr = se;
	fclose(mo);
	fclose(me);
	return rc;
}

/* The top level: options before the command are misplaced; -V and --help work there. */
static void test_top_level(void **state)
{
	static char out[8192], err[1024];
	char *misplaced[] = { "iowhy", "--json", "r.json", "run", "true" };
	char *unknown[] = { "iowhy", "frobnicate" };
	char *none[] = { "iowhy" };
	char *version[] = { "iowhy", "-V" };
	char *help[] = { "iowhy", "--help" };

	(void)state;
	assert_int_equal(top(out, sizeof(out), err, sizeof(err), 5, misplaced), 2);
	assert_int_equal(count_lines(err), 1);
	assert_non_null(strstr(err, "'--json' goes after the command"));
	assert_non_null(strstr(err, "iowhy --help"));
	assert_int_equal(top(out, sizeof(out), err, sizeof(err), 2, unknown), 2);
	assert_int_equal(count_lines(err), 1);
	assert_non_null(strstr(err, "unknown command 'frobnicate'"));
	assert_int_equal(top(out, sizeof(out), err, sizeof(err), 1, none), 2);
	assert_int_equal(top(out, sizeof(out), err, sizeof(err), 2, version), 0);
	assert_non_null(strstr(out, "\nlibbpf "));
	assert_int_equal(top(out, sizeof(out), err, sizeof(err), 2, help), 0);
	for (size_t c = 0; c < sizeof(all_cmds) / sizeof(all_cmds[0]); c++)
		assert_non_null(strstr(out, all_cmds[c]->name));
}

/* outfile_open: a regular file is truncated and written; a link, a FIFO (without blocking) and a
 * hard-linked file are refused and left as they were. */
static void test_outfile_open(void **state)
{
	char target[320], lnk[320], fifo[320], hard[320], buf[64] = "";
	static char err[1024];
	FILE *se = stderr, *me, *f;
	int fd;

	(void)state;
	snprintf(target, sizeof(target), "%s/target", tmpdir);
	snprintf(lnk, sizeof(lnk), "%s/olink", tmpdir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	snprintf(hard, sizeof(hard), "%s/hard", tmpdir);
	fd = open(target, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_int_equal(write(fd, "precious", 8), 8);
	close(fd);
	assert_int_equal(symlink(target, lnk), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);

	me = fmemopen(err, sizeof(err), "w");
	stderr = me;
	assert_null(outfile_open("test", "-o", lnk));
	assert_null(outfile_open("test", "-o", fifo));
	assert_int_equal(link(target, hard), 0);
	assert_null(outfile_open("test", "-o", hard));
	assert_int_equal(outfile_check("test", "-o", lnk), -1);
	assert_int_equal(outfile_check("test", "-o", fifo), -1);
	assert_int_equal(outfile_check("test", "-o", hard), -1);
	stderr = se;
	fclose(me);
	assert_int_equal(count_lines(err), 6);
	assert_non_null(strstr(err, "symbolic link"));
	assert_non_null(strstr(err, "FIFO"));
	assert_non_null(strstr(err, "hard links"));
	unlink(hard);

	fd = open(target, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 8);
	close(fd);
	assert_string_equal(buf, "precious");
	/* the regular file itself: truncated, then written */
	assert_int_equal(outfile_check("test", "-o", target), 0);
	f = outfile_open("test", "-o", target);
	assert_non_null(f);
	fputs("new", f);
	fclose(f);
	memset(buf, 0, sizeof(buf));
	fd = open(target, O_RDONLY);
	assert_int_equal(read(fd, buf, sizeof(buf) - 1), 3);
	close(fd);
	assert_string_equal(buf, "new");
	unlink(target);
	unlink(lnk);
	unlink(fifo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cases),
		cmocka_unit_test(test_syntax_errors_hint_help),
		cmocka_unit_test(test_every_documented_option_is_covered),
		cmocka_unit_test(test_help_lists_what_is_parsed),
		cmocka_unit_test(test_version_everywhere),
		cmocka_unit_test(test_top_level),
		cmocka_unit_test(test_outfile_open),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
