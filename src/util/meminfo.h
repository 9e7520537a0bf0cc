/* SPDX-License-Identifier: GPL-2.0 */
/* The system's dirty page cache, from /proc/meminfo. */
#ifndef IOWHY_MEMINFO_H
#define IOWHY_MEMINFO_H

#include <stdint.h>

/* Dirty and Writeback of /proc/meminfo, in bytes (0 when unreadable). */
void meminfo_dirty(uint64_t *dirty, uint64_t *wb);

#endif
