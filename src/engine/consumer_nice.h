/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The consumer's scheduling priority. iowhy's main thread drains the event rings; on a busy
 * machine, sharing the CPUs at the workload's nice, it fell behind a syscall storm and the rings
 * filled (a dd loop beside two CPU spinners on 2 CPUs: events lost in 2 of 8 runs and 4 of 6). So
 * while a ring is more than an eighth full (the consumer is behind: core_probes_behind) the main
 * thread runs 10 nice levels above the nice iowhy was started with (at most -20; it needs root or
 * CAP_SYS_NICE, and nothing changes without), and back at that nice once it has caught up: a
 * consumer raised for the whole run slowed the workload beside the spinners (3.7 s against 2.7 s
 * of wall, 8 runs each). A workload child started while it is raised goes back to that nice
 * before it runs anything of the workload's.
 *
 * Tests: IOWHY_TEST_CONSUMER_BEHIND=1 takes the consumer as behind at every turn.
 *
 *   consumer_nice_init();         at the start of a session, in the main thread
 *   consumer_nice_behind(b, now); each turn of the drain loop: b, the consumer is behind
 *   consumer_nice_child();        in a workload child
 *   consumer_nice_stats(&lvl, &ns, now); the raised nice, the time spent raised (JSON probes)
 */
#ifndef IOWHY_CONSUMER_NICE_H
#define IOWHY_CONSUMER_NICE_H

#include <stdint.h>

#define CONSUMER_NICE_RAISE 10

void consumer_nice_init(void);
void consumer_nice_behind(int behind, uint64_t now_ns);
void consumer_nice_child(void);
void consumer_nice_stats(int *raised_nice, uint64_t *raised_ns, uint64_t now_ns);

#endif
