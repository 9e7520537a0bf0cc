/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The closing explanation of a session, computed from its numbers once (by summary_compute) as
 * structured sentences: each has a kind, its text, and the numbers it states. The reporters only
 * format them.
 */
#ifndef IOWHY_EXPLAIN_H
#define IOWHY_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>
#include <linux/types.h> /* result.h -> iowhy.h uses __u64 before model.h includes it */
#include "result.h"

#define SENTENCE_LEN 1024
#define SENTENCE_NUMS 10
#define EXPLAIN_MAX 48

/* A number a sentence states: key names its unit by suffix (_ns, _share, _bytes, _runs). */
struct sentence_num {
	char key[32];
	double value;
};

/* One sentence (group) of the explanation. Sentences that state a part of a whole carry both as
 * numbers "part_ns" and "whole_ns" (or "part_share" of 1): the part is never larger. */
struct sentence {
	char kind[24];        /* "column", "top_syscall", "iowait", "compare", "noise", "flush", ... */
	char text[SENTENCE_LEN];
	int nnums;
	struct sentence_num num[SENTENCE_NUMS];
};

struct explanation {
	int n;
	struct sentence s[EXPLAIN_MAX];
};

struct phase_summary;

/*
 * The explanation of session s into out. ps holds the summary of each phase (s->nphases entries,
 * for the flush phases' I/O); NULL leaves the I/O out.
 */
void explain(const struct session_result *s, const struct phase_summary *ps,
	     struct explanation *out);

/* The sentences' texts, one per line (no final newline), cut cleanly when buf is full. */
void explanation_join(const struct explanation *e, char *buf, size_t n);

/* A number of sentence se by key; returns 1 and sets *v when present. */
int sentence_get(const struct sentence *se, const char *key, double *v);

#endif
