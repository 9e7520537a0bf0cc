// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the attribution model (src/model/model.c) fed an arbitrary event stream: any
 * types, tids, states, syscall numbers, forks, execs (also by threads that take the leader's pid),
 * timestamps mostly rising with some going back. After model_finish the closure holds: the wall
 * buckets and the unattributed time add up to the wall exactly, each bucket equals the sum of its
 * split by syscall, kernel time equals the sum of its groups, the I/O wait by disk adds up to the
 * I/O wait bucket, no time is "negative" (wrapped: larger than the wall times the tasks ever seen).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static void check_closure(const struct model *m, uint64_t tasks_seen)
{
	const struct wall_view *w = &m->wall;
	uint64_t wall = wall_ns(w), groups = 0, disks = 0;

	CHECK(wall_sum_ns(w) == wall);
	for (int g = 0; g < SG_COUNT; g++)
		groups += w->kernel_group_ns[g];
	CHECK(groups == w->bucket_ns[WB_KERNEL]);
	for (int b = 0; b < WB_COUNT; b++) {
		uint64_t sum = 0;

		CHECK(w->bucket_ns[b] <= wall);
		for (int nr = 0; nr <= IOWHY_NR_SLOTS; nr++)
			sum += w->by_nr[b][nr];
		CHECK(sum == w->bucket_ns[b]);
	}
	for (int d = 0; d <= IOWHY_DISK_SLOTS; d++)
		disks += w->iowait_by_disk[d];
	CHECK(disks == w->bucket_ns[WB_IOWAIT]);
	for (size_t i = 0; i < m->ncomms; i++)
		for (int st = 0; st < IOWHY_TS_DEAD; st++)
			CHECK(m->comms[i].state_ns[st] <= wall * tasks_seen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const size_t rec = 12;
	uint64_t ts = 1000, tasks = 1;
	struct model m;

	model_init(&m, 1000);
	model_add_task(&m, 1, 1, "root", IOWHY_TS_SWAIT, 61);
	for (size_t off = 0; off + rec <= size; off += rec) {
		const uint8_t *r = data + off;
		char comm[IOWHY_COMM_LEN] = "c";
		struct iowhy_event e;

		memset(&e, 0, sizeof(e));
		/* time: mostly forward, now and then back (out of order, clamped by the model) */
		if (r[0] & 0x80)
			ts -= ts > 1000 + (r[0] & 0x7f) ? (r[0] & 0x7f) : 0;
		else
			ts += (uint64_t)r[0] * (1 + r[1] % 16);
		e.ts = ts;
		e.type = 1 + r[2] % 4; /* STATE, FORK, EXEC, and one unknown type */
		e.tid = 1 + r[3] % 8;  /* few tids: they collide, die and come back */
		e.tgid = (r[4] & 1) ? e.tid : 1 + r[4] % 8;
		e.state = r[5] % (IOWHY_TS_COUNT + 1);
		e.flags = r[6];
		e.nr = (r[7] == 0xff) ? IOWHY_NR_NONE : (uint16_t)(r[7] | (r[8] & 1) << 8);
		e.arg = (e.type == IOWHY_EV_STATE) ? (uint32_t)r[9] << 24 | r[10] : 1 + r[9] % 8;
		e.arg2 = (e.type == IOWHY_EV_STATE) ? r[11] : 1 + r[11] % 8;
		comm[1] = (char)('a' + r[10] % 4);
		if (e.type == IOWHY_EV_FORK)
			tasks++;
		model_event(&m, &e,
			    (e.type == IOWHY_EV_FORK || e.type == IOWHY_EV_EXEC) ? comm : NULL);
	}
	model_finish(&m, ts + 10);
	check_closure(&m, tasks + 8); /* + tids first seen through state events */
	model_free(&m);
	return 0;
}
