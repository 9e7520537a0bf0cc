/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compare two iowhy JSON reports of the same kind and schema version: two run reports (phases:
 * wall buckets, I/O wait by device, device busy time, syscalls) or two hunt reports (members'
 * throughput, IOPS and latency alone, together, verdicts). The differences are ranked (time
 * differences by seconds, rates by their ratio) and a headline names the largest.
 */
#ifndef IOWHY_COMPARE_H
#define IOWHY_COMPARE_H

#include <stddef.h>
#include <json-c/json.h>

#define CMP_MAX_ITEMS 128
#define CMP_SCHEMA 1 /* the schema_version this iowhy reads (run and hunt reports) */

struct cmp_item {
	char what[96];   /* "phase 0 iowait on loop2", "loop2 seq 1M best MiB/s" */
	double a, b;
	int is_time;     /* seconds (ranked by |b - a|); else a rate (ranked by ratio) */
	int higher_better; /* rates: 1 for MiB/s and IOPS, 0 for latency */
	double weight;   /* ranking key */
};

struct cmp_result {
	char kind[8];        /* "run" or "hunt" */
	char headline[512];
	int n;
	struct cmp_item items[CMP_MAX_ITEMS]; /* ranked, largest difference first */
	char only_a[512], only_b[512];       /* verdicts (kind:subject) in one report only */
};

/* Compare A and B (named NAME_A, NAME_B in messages). 0, or -1 with one line in err: another
 * schema version, not an iowhy report, or reports of different kinds. */
int compare_reports(struct json_object *a, struct json_object *b, const char *name_a,
		    const char *name_b, struct cmp_result *r, char *err, size_t errlen);

#endif
