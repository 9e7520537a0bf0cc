/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `iowhy gen`: the small-file workload. COUNT files of SIZE bytes of pseudo-random data, made by
 * one or more strategies, each in its own fresh directory of the scratch area, traced side by
 * side:
 *   loop    one child process per file exec'ing a writer (the system dd, else `iowhy __write`),
 *           waited for before the next, as a shell loop does;
 *   split   one process writes COUNT x SIZE bytes to big.img, splits it into COUNT files of SIZE as
 *           `split -n COUNT` does, and removes big.img;
 *   direct  one process creates and writes the COUNT files: the floor.
 */
#ifndef IOWHY_GEN_H
#define IOWHY_GEN_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"
#include "options.h"
#include "phase.h"
#include "prng.h"
#include "scratch.h"

enum gen_strategy { GEN_LOOP, GEN_SPLIT, GEN_DIRECT, GEN_NSTRATEGIES };

#define GEN_SIZE_MAX  (1ULL << 30)          /* --size at most 1 GiB */
#define GEN_COUNT_MAX 10000000ULL           /* --count at most 10,000,000 */
#define GEN_TOTAL_MAX (64ULL << 30)         /* size x count at most 64 GiB */
#define GEN_BIG_FILE  "big.img"             /* split's intermediate file */
#define GEN_MAX_RUNS  SESSION_MAX_PHASES      /* strategies x --repeat, flush phases aside */

struct gen_opts {
	enum gen_strategy strategies[GEN_NSTRATEGIES]; /* in the order given */
	int nstrategies;
	uint64_t size;
	uint64_t count;
	int sync;                                      /* --sync: a flush phase after each run */
	struct common_opts common;                     /* --json, --dir, --repeat, --drop-caches */
};

/*
 * Parse `gen` arguments (argv[0] is "gen"): 0 when o is ready, 1 when --help or --version was
 * printed, 2 after a one-line message on stderr (options.h's convention).
 */
int gen_parse(int argc, char **argv, struct gen_opts *o);
/* gen's options table (tests walk it). */
extern const struct cmd_def gen_cmd;

const char *gen_strategy_name(enum gen_strategy s);

/*
 * Bytes the strategies will need in `dir`'s filesystem (each strategy keeps its files until the
 * session ends; split holds its big file and its pieces at once; files rounded up to the block
 * size; 10% headroom). 0 if there is room, else -1 with the reason in err.
 */
int gen_check_space(const struct gen_opts *o, const char *dir, char *err, size_t n);

/* Full path of `name` found in PATH (executable regular file): 0, or -1 when absent. */
int gen_find_program(const char *name, char *out, size_t n);

/* One run of one strategy: what its phase hooks and its gated child share. */
struct gen_work {
	enum gen_strategy strategy;
	char name[32];              /* its phase's name: "loop", or "loop#2" with --repeat */
	uint64_t size, count;
	const char *dd_path;        /* loop: the system dd; NULL: exec /proc/self/exe __write */
	const struct scratch *scratch;
	int drop_caches;            /* before hook: drop the page cache first */
	char dir[PATH_MAX];         /* the run's directory (made by the before hook) */
	/* Set by gen_verify when the run left the wrong files; the message says what is wrong. */
	int verify_failed;
	char verify_msg[PATH_MAX + 128];
};

/* Run the strategy in w->dir (the WORK phase's body): 0, or 1 after a one-line message. Sets the
 * facts files_written, bytes_written, app_seconds (and bytes_read for split). */
int gen_run(struct gen_work *w, struct phase_facts *facts);
/* Check w->dir: COUNT regular files of exactly SIZE bytes and no big file. Sets the facts files,
 * bytes_on_disk, bytes_allocated, files_wrong_size. Returns 0 when all is as expected, else 1
 * (w->verify_failed set). */
int gen_verify(struct gen_work *w, struct phase_facts *facts);
/* syncfs() on w->dir's filesystem, timed (the FLUSH phase's body): fact app_seconds. */
int gen_flush(struct gen_work *w, struct phase_facts *facts);

/* `iowhy gen ...` (argv[0] is "gen"): the exit status. */
int cmd_gen(int argc, char **argv);
/* `iowhy __gen STRATEGY SIZE COUNT DIR`: one run, untraced (bench/overhead.sh). */
int gen_untraced_main(int argc, char **argv);

#endif
