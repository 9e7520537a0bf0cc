/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core's event rings: one BPF ring buffer per CPU (bpf/iowhy.bpf.c writes to its CPU's ring
 * through an array of maps), made here, installed in that array and read here. A read takes what
 * each ring held when it began, in turns of a few records per ring, so that no ring's records wait
 * for a whole backlog of another's; the caller puts the records back in time order.
 */
#ifndef IOWHY_EVENT_RINGS_H
#define IOWHY_EVENT_RINGS_H

#include <linux/types.h>
#include <stddef.h>

struct ring_buffer;

/* Called for each record of ring `ring`; non-zero stops the read (returned by event_rings_read). */
typedef int (*event_ring_fn)(void *ctx, int ring, void *data, size_t size);

struct event_ring {
	int fd;                   /* the ring buffer map, -1 if none */
	struct ring_buffer *rb;   /* libbpf's reader of this ring alone (mapped) */
	void *pos;                /* its consumer and producer position pages, read-only */
	__u64 take, taken;        /* event_rings_read: bytes it held when the read began, read */
	int done;                 /* event_rings_read: what it held has been read */
};

struct event_rings {
	struct event_ring *v;
	int n;
	int outer_fd;             /* the array of maps the programs find them in (-1: none yet) */
	__u32 bytes;              /* each ring's size */
	__u64 peak;               /* the most one ring held when polled (event_rings_used) */
	event_ring_fn fn;
	void *ctx;
	int cur;                  /* the ring being read (its record callback) */
	__u64 turn_end;           /* its turn ends when it has handed on this much (taken) */
	int stop;                 /* the callback asked to stop */
};

/* Each online CPU's ring size with `nonline` CPUs online: 8 MiB, less beyond 8 CPUs (64 MiB in
 * all, at least 256 KiB each), a power of two; with `shared` (one ring that every CPU writes:
 * IOWHY_TEST_ONE_RING), 8 MiB a CPU in one, rounded up to a power of two, 64 MiB at most.
 * env_mb (IOWHY_RINGBUF_MB, a power of two 1-1024) overrides either. */
__u32 event_ring_bytes(int nonline, int shared, const char *env_mb);
/* The ring of a CPU that is possible but not online when the session starts (one brought online
 * later writes there; what does not fit is counted lost). */
#define EVENT_RING_OFFLINE_BYTES (64u << 10)
/* Whether `cpu` is in a kernel CPU list ("0-3,8", as /sys/devices/system/cpu/online has it);
 * every CPU is when the list is NULL or unreadable. */
int cpu_list_has(const char *list, int cpu);
/* CPUs in a kernel CPU list (0 when unreadable). */
int cpu_list_count(const char *list);
/* Make n rings (CPUs 0..n-1): `bytes` each for the CPUs in `online` (a CPU list, NULL: all),
 * EVENT_RING_OFFLINE_BYTES for the others. 0, or -1 after one line on stderr (the rings are
 * freed). */
int event_rings_make(struct event_rings *r, int n, __u32 bytes, const char *online);
/* Make the array of maps the programs find the rings in (outer_fd; an object's `events` map
 * reuses it), still empty. 0, or -1 after one line on stderr. */
int event_rings_outer(struct event_rings *r);
/* Put ring i at key i of outer_fd: one batch, where the kernel has batches for it, as each
 * update from user space waits for an RCU grace period (10-20 ms on a VM). May run in a thread
 * of its own while objects that reuse outer_fd load. 0, or -1 after one line on stderr. */
int event_rings_install(const struct event_rings *r);
/* Map the rings for reading; fn gets each record. 0, or -1 after one line on stderr. */
int event_rings_map(struct event_rings *r, event_ring_fn fn, void *ctx);
int event_rings_mapped(const struct event_rings *r);
void event_rings_unmap(struct event_rings *r);
/* Drop what the rings hold without reading it. 0, or -1 when a ring's pages cannot be mapped. */
int event_rings_skip(const struct event_rings *r);
/* Read what the rings hold now (not what is written meanwhile), in turns. Returns 0, the
 * callback's non-zero value, or -errno. */
int event_rings_read(struct event_rings *r);
/* Bytes the fullest ring holds that are not read yet (and the peak of that). */
__u64 event_rings_used(struct event_rings *r);
void event_rings_free(struct event_rings *r);

#endif
