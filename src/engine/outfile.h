/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Report files (-o FILE, --json FILE), opened so that iowhy, running as root, never writes through
 * a link or into something that is not a plain file: no symbolic link, no hard-linked file, no FIFO,
 * device, directory or socket, nothing on a pseudo file system (/proc, /sys, cgroup, debugfs, ...).
 */
#ifndef IOWHY_OUTFILE_H
#define IOWHY_OUTFILE_H

#include <stdio.h>

/*
 * Check `path` before anything runs: 0 when it is a regular file iowhy may replace, or a missing
 * name in an existing, writable directory; -1 after one line "iowhy TOOL: OPT PATH: why".
 */
int outfile_check(const char *tool, const char *opt, const char *path);

/*
 * Open `path` for writing (created 0644 or truncated) with O_NOFOLLOW|O_CREAT|O_CLOEXEC and
 * O_NONBLOCK (a FIFO planted since the check cannot block iowhy), check the open file as above,
 * then truncate it. The stream, or NULL after one line.
 */
FILE *outfile_open(const char *tool, const char *opt, const char *path);

#endif
