// SPDX-License-Identifier: GPL-2.0
/* Empty programs on iowhy's tracepoints; see floor_probes.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "floor_probes.h"
#include "core_probes.h"
#include "io_probes.h"
#include "floor_timer.skel.h"
#include "sampler.h"
#include <sys/ioctl.h>
#include <linux/perf_event.h>

int floor_wants(enum floor_kind kind, int set, const char *name)
{
	switch (kind) {
	case FLOOR_ALL:
		return 1;
	case FLOOR_CORE:
		return set == 0;
	case FLOOR_SYSCALLS:
	case FLOOR_TIMER:
		return set == 0 && !strncmp(name, "raw_syscalls:", 13);
	case FLOOR_IO_TIMER:
	case FLOOR_SAMPLER:
		return 0; /* their own programs, not empty ones */
	}
	return 0;
}

/* The BTF id of the tracepoint's btf_trace_<event> typedef, or a negative error. */
static int tracepoint_btf_id(const struct btf *vmlinux, const char *name)
{
	const char *event = strchr(name, ':');
	char type[PROBE_NAME_LEN + 16];

	snprintf(type, sizeof(type), "btf_trace_%s", event ? event + 1 : name);
	return btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF);
}

/* Load "r0 = 0; exit" as a tp_btf program for the tracepoint with BTF id `id`. */
static int load_empty(int id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP,
		    .attach_btf_id = id);

	return bpf_prog_load(BPF_PROG_TYPE_TRACING, "iowhy_floor", "GPL", insns, 2, &opts);
}

/* Load and attach an empty program for every wanted probe of set i. */
static int attach_set(struct floor_probes *f, int i, const struct btf *vmlinux)
{
	struct probe_set *s = &f->set[i];

	for (int k = 0; k < s->n; k++) {
		struct probe *p = &s->p[k];
		int id;

		if (p->state != PROBE_WANTED || (p->spec->flags & (PROBE_NOT_TRACEPOINT | PROBE_RUN)))
			continue;
		id = tracepoint_btf_id(vmlinux, p->spec->name);
		f->fd[i][k] = id > 0 ? load_empty(id) : -ENOENT;
		if (f->fd[i][k] < 0) {
			probe_set_mark(s, k, PROBE_LOAD_FAILED, -f->fd[i][k]);
			f->fd[i][k] = -1;
			continue;
		}
		f->link[i][k] = bpf_raw_tracepoint_open(NULL, f->fd[i][k]);
		if (f->link[i][k] < 0) {
			fprintf(stderr, "iowhy: cannot attach an empty program to %s: %s\n",
				p->spec->name, strerror(-f->link[i][k]));
			f->link[i][k] = -1;
			return -1;
		}
		probe_set_mark(s, k, PROBE_ATTACHED, 0);
		f->attached++;
	}
	return 0;
}

/* F2: the timer's syscall pair; F3 (io): its scheduler and request programs too */
static int attach_timer(struct floor_probes *f, int io)
{
	struct bpf_program *io_progs[4];
	int err;

	f->timer = floor_timer_bpf__open();
	if (!f->timer) {
		fprintf(stderr, "iowhy: cannot open the floor timer: %s\n", strerror(errno));
		return -1;
	}
	io_progs[0] = f->timer->progs.ft_switch;
	io_progs[1] = f->timer->progs.ft_wakeup;
	io_progs[2] = f->timer->progs.ft_issue;
	io_progs[3] = f->timer->progs.ft_complete;
	for (int i = 0; i < 4; i++)
		bpf_program__set_autoload(io_progs[i], io != 0);
	err = floor_timer_bpf__load(f->timer);
	if (err) {
		fprintf(stderr, "iowhy: cannot load the floor timer: %s\n", strerror(-err));
		return -1;
	}
	err = floor_timer_bpf__attach(f->timer);
	if (err) {
		fprintf(stderr, "iowhy: cannot attach the floor timer: %s\n", strerror(-err));
		return -1;
	}
	f->attached = io ? 6 : 2;
	return 0;
}

static void floor_reset(struct floor_probes *f)
{
	memset(f, 0, sizeof(*f));
	memset(f->fd, -1, sizeof(f->fd));
	memset(f->link, -1, sizeof(f->link));
	f->sample_prog = -1;
}

int floor_sampler_attach(struct floor_probes *f, unsigned hz)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int n = libbpf_num_possible_cpus();

	floor_reset(f);
	f->sample_prog = bpf_prog_load(BPF_PROG_TYPE_PERF_EVENT, "iowhy_floor", "GPL", insns, 2, NULL);
	f->perf_fds = n > 0 ? malloc(n * sizeof(int)) : NULL;
	if (f->sample_prog < 0 || !f->perf_fds) {
		fprintf(stderr, "iowhy: cannot load an empty perf_event program: %s\n",
			strerror(f->sample_prog < 0 ? -f->sample_prog : ENOMEM));
		floor_probes_detach(f);
		return -1;
	}
	f->nperf = n;
	for (int cpu = 0; cpu < n; cpu++) {
		int fd = f->perf_fds[cpu] = sampler_perf_open(hz, cpu);

		if (fd < 0 && (errno == ENODEV || errno == ENXIO))
			continue; /* an offline CPU */
		if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_SET_BPF, f->sample_prog) ||
		    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
			fprintf(stderr, "iowhy: cannot sample CPU %d: %s\n", cpu, strerror(errno));
			floor_probes_detach(f);
			return -1;
		}
		f->attached++;
	}
	return 0;
}

int floor_probes_attach(struct floor_probes *f, enum floor_kind kind)
{
	const struct probe_spec *specs[2] = { core_probe_specs, io_probe_specs };
	const int nspecs[2] = { core_probe_nspecs, io_probe_nspecs };
	struct btf *vmlinux;
	int rc = 0;

	floor_reset(f);
	if (kind == FLOOR_TIMER || kind == FLOOR_IO_TIMER) {
		rc = attach_timer(f, kind == FLOOR_IO_TIMER);
		if (rc)
			floor_probes_detach(f);
		return rc;
	}
	vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		fprintf(stderr, "iowhy: cannot read the kernel's BTF: %s\n", strerror(errno));
		return -1;
	}
	for (int i = 0; i < 2 && !rc; i++) {
		if (probe_set_init(&f->set[i], i ? "I/O" : "core", specs[i], nspecs[i])) {
			rc = -1;
			break;
		}
		for (int k = 0; k < f->set[i].n; k++)
			if (!floor_wants(kind, i, specs[i][k].name))
				f->set[i].p[k].state = PROBE_SKIPPED;
		/* required probes that are skipped or absent would stop iowhy: stop here too */
		rc = probe_set_prepare(&f->set[i], getenv("IOWHY_SKIP_PROBES"), vmlinux) ||
		     attach_set(f, i, vmlinux);
	}
	btf__free(vmlinux);
	if (rc)
		floor_probes_detach(f);
	return rc ? -1 : 0;
}

void floor_probes_detach(struct floor_probes *f)
{
	for (int i = 0; i < 2; i++) {
		for (int k = 0; k < PROBE_SET_MAX; k++) {
			if (f->link[i][k] >= 0)
				close(f->link[i][k]);
			if (f->fd[i][k] >= 0)
				close(f->fd[i][k]);
			f->link[i][k] = f->fd[i][k] = -1;
		}
	}
	floor_timer_bpf__destroy(f->timer);
	f->timer = NULL;
	for (int cpu = 0; cpu < f->nperf; cpu++)
		if (f->perf_fds[cpu] >= 0)
			close(f->perf_fds[cpu]);
	free(f->perf_fds);
	f->perf_fds = NULL;
	f->nperf = 0;
	if (f->sample_prog >= 0)
		close(f->sample_prog);
	f->sample_prog = -1;
	f->attached = 0;
}
