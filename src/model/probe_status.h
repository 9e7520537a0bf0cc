/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What became of each probe of a session, as plain data for the results and the reporters: the
 * state of one probe, and the list of probes that are not attached, each with its reason. The
 * probe sets (collect/probe_set.h) produce these; the reporters print them.
 */
#ifndef IOWHY_PROBE_STATUS_H
#define IOWHY_PROBE_STATUS_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_NAME_LEN 64      /* "category:tracepoint" */
#define MISSING_PROBES_MAX 64

enum probe_state {
	PROBE_WANTED,          /* declared, not loaded or attached (yet) */
	PROBE_ATTACHED,
	PROBE_ABSENT,          /* its tracepoint is not in this kernel */
	PROBE_SKIPPED,         /* named in IOWHY_SKIP_PROBES */
	PROBE_LOAD_FAILED,     /* the verifier (or libbpf) refused its program */
	PROBE_ATTACH_FAILED,
};

struct missing_probe {
	char name[PROBE_NAME_LEN];
	enum probe_state why;  /* PROBE_ABSENT .. PROBE_ATTACH_FAILED */
	int err;               /* errno of a failed load or attach, else 0 */
};

/* The probes that are not attached, in declaration order. */
struct missing_probes {
	unsigned n;
	struct missing_probe v[MISSING_PROBES_MAX];
};

#define LOADED_PROGRAMS_MAX 96

/* One BPF program a session loaded, and what the kernel's verifier spent on it. */
struct loaded_program {
	char probe[PROBE_NAME_LEN];  /* the probe it stands on, "category:event" */
	char prog[32];               /* its C name in the BPF object */
	char set[16];                /* its probe set: "core", "I/O", "sampler", "FUSE", ... */
	uint32_t verified_insns;     /* instructions the verifier processed (bpf_prog_info) */
	uint64_t verify_ns;          /* the verifier's own time for it (its stats log; 0: unknown) */
};

/* Time the probes of a session cost (CLOCK_MONOTONIC ns), summed over the probe sets, and the
 * programs they loaded. */
struct probe_times {
	uint64_t load_ns;    /* checking the kernel, opening and loading the BPF objects */
	uint64_t attach_ns;  /* attaching the programs */
	uint64_t detach_ns;  /* detaching them and unloading the objects */
	uint64_t load_cpu_ns; /* CPU time (user + system) iowhy spent loading, all its threads */
	uint64_t start_ns;   /* iowhy's main() to the first workload's release (0: none, attach) */
	uint64_t core_btf_types; /* types of the cut-down CO-RE target BTF (0: the kernel's whole) */
	uint64_t core_btf_ns;    /* making it: one pass over the kernel's BTF */
	int consumer_nice;       /* the nice iowhy's main thread drains the rings at while behind */
	uint64_t consumer_raised_ns; /* the time it spent at that nice */
	unsigned nprogs;
	struct loaded_program progs[LOADED_PROGRAMS_MAX]; /* in load order */
};

/* Short machine name of a state: "wanted", "attached", "absent", "skipped", "load_failed",
 * "attach_failed" (the JSON's reason). */
const char *probe_state_code(enum probe_state s);
/* The same in words: "not in this kernel", "skipped by IOWHY_SKIP_PROBES", "failed to load", ... */
const char *probe_state_text(enum probe_state s);
/* Append one (a name already listed stays as it is). Returns 0, or -1 when the list is full
 * (MISSING_PROBES_MAX). */
int missing_probes_add(struct missing_probes *m, const char *name, enum probe_state why, int err);
/* Append every entry of src to dst. Returns 0, or -1 if some did not fit. */
int missing_probes_append(struct missing_probes *dst, const struct missing_probes *src);
/* The list for a report line: "a, b (skipped by IOWHY_SKIP_PROBES), c (failed to attach: EPERM
 * text)". An absent probe is named alone: absent from the kernel is what "missing" means; three
 * or more absent probes of one category in a row are one entry, "nfs:* (6 tracepoints)".
 * Returns buf ("" for an empty list; cut short if n is too small). */
char *missing_probes_text(const struct missing_probes *m, char *buf, size_t n);

#endif
