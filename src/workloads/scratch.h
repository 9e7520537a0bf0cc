/* SPDX-License-Identifier: GPL-2.0 */
/* The scratch area: the one directory tree a built-in workload writes in, created and removed by iowhy. */
#ifndef IOWHY_SCRATCH_H
#define IOWHY_SCRATCH_H

#include <stddef.h>
#include "phase.h"

/*
 * Where built-in workloads write: a fresh directory iowhy creates (mode 0700, owned by iowhy's
 * user) and removes. It is held open from its creation: the phases run with it as their working
 * directory (phase_spec.cwd = &s->dir) and name their files relative to it, and it is emptied
 * through that fd, so renaming or swapping its name in --dir cannot redirect a write or a removal.
 */
struct scratch {
	char parent[4096];    /* the --dir the user gave (or cwd) */
	char path[4096];      /* parent/iowhy-XXXXXX, created by scratch_create (for messages) */
	char name[16];        /* iowhy-XXXXXX */
	int parent_fd;        /* --dir, opened at creation (-1: none) */
	struct phase_dir dir; /* the area itself: fd (-1: none), device and inode */
	int created;
};

/* Create parent/iowhy-XXXXXX. Returns 0, or -1 with a one-line message on stderr. */
int scratch_create(struct scratch *s, const char *parent);
/* Make a fresh subdirectory `name` inside the scratch area; its full path written to out. */
int scratch_subdir(const struct scratch *s, const char *name, char *out, size_t n);
/* Make a fresh subdirectory `name` inside the scratch area (for phases whose cwd is the area). */
int scratch_mkdir(const struct scratch *s, const char *name);
/* Remove everything iowhy created under the scratch area (only its own directory tree). */
void scratch_remove(struct scratch *s);

#endif
