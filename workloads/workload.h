/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit of traced work: a phase. iowhy forks one gated child per phase; the child waits until
 * every probe is attached, then runs `fn(arg)` (a built-in workload) or execs `argv` (iowhy run).
 * Everything the child and its descendants do is the phase's workload; nothing else is.
 */
#ifndef IOWHY_WORKLOAD_H
#define IOWHY_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>

enum phase_kind { PHASE_WORK, PHASE_FLUSH };

/* Phases one session runs at most. The BPF side tags events with the phase index modulo
 * IOWHY_MAX_PHASES; phases run one after another and each slot is cleared after it is read. */
#define SESSION_MAX_PHASES 64

#define FACTS_MAX 24

/* Numbers a workload reports about itself (files made, bytes written, its own timing). The child
 * writes them into shared memory; the parent reads them after the phase. */
struct fact {
	char key[32];     /* json key, e.g. "files", "bytes_written", "app_seconds" */
	char label[48];   /* text label, e.g. "files created" */
	char unit[8];     /* "", "B", "s", "B/s", "ns" */
	double value;
};

struct phase_facts {
	int n;
	struct fact f[FACTS_MAX];
};

/* Add or replace a fact (no-op when full). */
void facts_set(struct phase_facts *pf, const char *key, const char *label, const char *unit,
	       double value);
const struct fact *facts_get(const struct phase_facts *pf, const char *key);

struct phase_spec {
	char name[48];        /* unique: "loop", "loop/flush", "bs=4k" */
	char column[32];      /* side-by-side column this phase belongs to: "loop" */
	enum phase_kind kind;
	const char *comm;     /* name the gated child takes before release (prctl), or NULL */
	/* Built-in: runs in the child after release; returns the exit status (0 ok). The child may
	 * fill *facts. */
	int (*fn)(void *arg, struct phase_facts *facts);
	void *arg;
	/* External: exec'd in the child after release when fn is NULL. */
	char **argv;
	/* Optional, in the parent before the phase is forked (untraced): prepare (mkdir, drop caches).
	 * Non-zero return aborts the session with that status after printing its message. */
	int (*before)(void *arg);
	/* Optional, in the parent after the phase (untraced): verify / clean; may add facts. */
	int (*after)(void *arg, struct phase_facts *facts);
};

/* Where built-in workloads write: a fresh directory iowhy creates and removes. */
struct scratch {
	char parent[4096];    /* the --dir the user gave (or cwd) */
	char path[4096];      /* parent/iowhy-XXXXXX, created by scratch_create */
	int created;
};

/* Create parent/iowhy-XXXXXX (mkdtemp). Returns 0, or -1 with a one-line message on stderr. */
int scratch_create(struct scratch *s, const char *parent);
/* Make a fresh subdirectory `name` inside the scratch area; path written to out. */
int scratch_subdir(const struct scratch *s, const char *name, char *out, size_t n);
/* Remove everything iowhy created under the scratch area (only its own directory tree). */
void scratch_remove(struct scratch *s);

/* Fill buf with pseudo-random bytes (xoshiro256**; fast, not zeros, not compressible). */
struct prng { uint64_t s[4]; };
void prng_seed(struct prng *p, uint64_t seed);
void prng_fill(struct prng *p, void *buf, size_t n);
uint64_t prng_next(struct prng *p);

#endif
