// SPDX-License-Identifier: GPL-2.0
/* Feature detection by trying: see features.h. */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include "bpf_features.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/* libbpf's messages are noise while probing: a failed probe is an answer, not an error. */
static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* Load "r0 = 0; exit" as a tp_btf program on sched_switch: 1, 0, or -errno when not permitted. */
static int probe_tp_btf(const struct btf *vmlinux)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_RAW_TP);
	int id, fd;

	if (!vmlinux)
		return 0;
	id = btf__find_by_name_kind(vmlinux, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	if (id <= 0)
		return 0;
	opts.attach_btf_id = (unsigned)id;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "iowhy_probe", "GPL", insns, 2, &opts);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EPERM || errno == EACCES ? -errno : 0;
}

void features_detect(struct iowhy_features *f)
{
	libbpf_print_fn_t old = libbpf_set_print(quiet);
	struct utsname u;
	struct btf *vmlinux;
	int r;

	memset(f, 0, sizeof(*f));
	f->libbpf_major = libbpf_major_version();
	f->libbpf_minor = libbpf_minor_version();
	if (!uname(&u)) {
		snprintf(f->kernel, sizeof(f->kernel), "%s", u.release);
		snprintf(f->machine, sizeof(f->machine), "%s", u.machine);
	}
	vmlinux = access(VMLINUX_BTF, R_OK) ? NULL : btf__load_vmlinux_btf();
	f->btf = vmlinux != NULL;
	f->tp_btf = probe_tp_btf(vmlinux);
	r = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL);
	f->task_storage = r == 1 ? 1 : r == -EPERM || r == -EACCES ? r : 0;
	btf__free(vmlinux);
	libbpf_set_print(old);
}

/* "yes", "no", or why it is unknown. */
static const char *answer(int v)
{
	if (v > 0)
		return "yes";
	if (v == 0)
		return "no";
	return "unknown (probing needs root, or CAP_BPF and CAP_PERFMON)";
}

void features_print_version(FILE *out, const char *version)
{
	struct iowhy_features f;

	features_detect(&f);
	fprintf(out, "iowhy %s\n", version);
	fprintf(out, "libbpf %u.%u\n", f.libbpf_major, f.libbpf_minor);
	fprintf(out, "kernel %s %s\n", f.kernel, f.machine);
	fprintf(out, "BTF (%s): %s\n", VMLINUX_BTF, f.btf ? "yes" : "no");
	fprintf(out, "tp_btf: %s\n", answer(f.tp_btf));
	fprintf(out, "task storage: %s\n", answer(f.task_storage));
}
