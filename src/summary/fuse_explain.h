/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the FUSE data adds to the explanation: the workload's longest wait on FUSE requests, the
 * daemon that served them and what it did meanwhile. For explain.c and the FUSE report section.
 */
#ifndef IOWHY_FUSE_EXPLAIN_H
#define IOWHY_FUSE_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>
#include "result.h"
#include "fuse_model.h"

/* "/mnt/x" for a connection, or "conn 0:N" when its mount is unknown (unmounted before the end). */
const char *fuse_mount_label(const struct fuse_phase *f, uint32_t conn, char *buf, size_t n);

/* " 99% other wait, 1% on CPU": each daemon class of ns[FUSE_D_COUNT] that is at least min_pct
 * percent of total, into buf (NUL-terminated when n > 0). Returns the length, 0 if none. */
size_t fuse_shares(const __u64 *ns, uint64_t total, unsigned min_pct, char *buf, size_t n);

/*
 * One sentence (newline-terminated) about phase p into buf (always NUL-terminated when n > 0):
 * "dd took 1.38 s; 1.34 s of it waiting on 64 FUSE WRITE requests to /mnt (fuse_slow, pid N,
 * p50 20.4 ms); per request, fuse_slow spent 1.33 s on them: 99% other wait" (the daemon
 * threads' time from reading each request to replying; "per request (N of M)" when only some
 * were read and answered by one thread), or, when none was, "; by overlap, fuse_slow spent that
 * time 99% other wait" (the process while the workload waited). *wait_ns (may be NULL) is the
 * wait. Returns the length written, 0 when the workload did not wait on FUSE.
 */
size_t fuse_explain(const struct phase_result *p, char *buf, size_t n, uint64_t *wait_ns);

#endif
