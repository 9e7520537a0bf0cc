/* SPDX-License-Identifier: GPL-2.0 */
/* The flush phase: syncfs() on the file system holding a directory, as the shell experiments timed
 * `sync` after the writes. Shared by every command that has a --sync / flush phase. */
#ifndef IOWHY_FLUSH_H
#define IOWHY_FLUSH_H

#include "phase.h"

/* Phase function: arg is the directory (char *). Sets the fact "sync_seconds". */
int flush_fn(void *dir, struct phase_facts *facts);
/* Fill a FLUSH phase spec for `dir` in column `column`. */
void flush_phase(struct phase_spec *ps, const char *column, char *dir);

#endif
