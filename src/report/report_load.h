/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved JSON report (docs/json.md) read back into a session, for `iowhy report`: the header,
 * every phase's wall view, facts, work view and syscall counts and times, and the summary the run
 * computed (its columns, headline figures, disks and explanation, taken from the JSON, not
 * recomputed). What the JSON does not keep stays empty: the syscalls' latency histograms (it keeps
 * their p50/p99 only) and the devices' raw data (phase_result.io is NULL).
 */
#ifndef IOWHY_REPORT_LOAD_H
#define IOWHY_REPORT_LOAD_H

#include <stddef.h>
#include <linux/types.h> /* result.h -> iowhy.h uses __u64 before model.h includes it */
#include "result.h"

/* Read path into s (zeroed first). Returns 0; -1 with a one-line reason in err (not JSON, not an
 * iowhy report, another schema version); -2 when out of memory. */
int report_load(const char *path, struct session_result *s, char *err, size_t errlen);
/* Free what report_load allocated. */
void report_load_free(struct session_result *s);

#endif
