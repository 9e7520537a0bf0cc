/* SPDX-License-Identifier: GPL-2.0 */
/*
 * (Not "features.h": that name is glibc's and -I would shadow it.)
 * What this kernel and libbpf offer iowhy, found by trying (a tiny program or map load), never by
 * version numbers: kernel BTF, tp_btf programs, task storage maps. `iowhy -V` prints it.
 */
#ifndef IOWHY_BPF_FEATURES_H
#define IOWHY_BPF_FEATURES_H

#include <stdio.h>

/* A probed feature: 1 available, 0 not, -errno when it could not be probed (not root). */
struct iowhy_features {
	unsigned libbpf_major, libbpf_minor;
	char kernel[128];       /* uname release */
	char machine[72];       /* uname machine */
	int btf;                /* /sys/kernel/btf/vmlinux readable and parsed */
	int tp_btf;             /* a BPF_PROG_TYPE_TRACING raw-tracepoint program on sched_switch loads */
	int task_storage;       /* BPF_MAP_TYPE_TASK_STORAGE can be created */
};

void features_detect(struct iowhy_features *f);

/* The lines `iowhy --version` prints: iowhy (`version`), libbpf, kernel, BTF, tp_btf, task storage. */
void features_print_version(FILE *out, const char *version);

#endif
