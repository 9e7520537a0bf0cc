/* SPDX-License-Identifier: GPL-2.0 */
/* The scratch area: the one directory tree a built-in workload writes in, created and removed by iowhy. */
#ifndef IOWHY_SCRATCH_H
#define IOWHY_SCRATCH_H

#include <stddef.h>

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

#endif
