/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A probe set: the probes one BPF object stands on, what became of each, and what loading,
 * attaching and detaching them cost. Every loader (core_probes.c, io_probes.c, ...) uses one.
 *
 * A probe is named after its tracepoint, "category:event" as in tracefs ("block:block_rq_issue"),
 * is required or optional, and has one program per flavour (tp_btf, raw_tp). After loading it is
 * attached, or it is not, for one reason: its tracepoint is absent from this kernel, it is named in
 * IOWHY_SKIP_PROBES, its program failed to load, or it failed to attach. Programs of probes that
 * will not be used (skipped, absent, the other flavour, failed) are set_autoload(false): the
 * session never loads a program it does not use. A required probe that cannot be attached stops
 * the loader with one line on stderr.
 *
 * How a loader uses it (see core_probes.c for a complete one):
 *
 *   static const struct probe_spec my_specs[] = {
 *           { "sched:sched_switch", { "btf_switch", "raw_switch" }, PROBE_REQUIRED },
 *           { "block:block_rq_issue", { "rq_issue" }, 0 },        (tp_btf only, optional)
 *   };
 *   static const struct probe_loader my_loader = { my_open, my_object, my_load, my_destroy, ctx };
 *
 *   probe_set_init(&set, "my probes", my_specs, ARRAY_SIZE(my_specs));
 *   if (probe_set_prepare_kernel(&set))                    (IOWHY_SKIP_PROBES, kernel BTF)
 *           fail;                                          (a required probe is skipped or absent)
 *   skel = probe_set_load(&set, PROBE_TP_BTF, &my_loader);  (NULL: a required one did not load;
 *                                                            try another flavour, or fail)
 *   if (probe_set_attach(&set))
 *           fail;                                          (a required one did not attach)
 *   ... probe_set_attached(&set, "sched:sched_switch"), probe_set_missing(&set, &list) ...
 *   probe_set_detach(&set); my_destroy(skel);
 *
 * The session then gathers every set's probe_set_missing and load/attach/detach times into the
 * results, and calls probe_skip_warn_unknown with all its sets.
 *
 * A loader whose programs attach another way (perf events, one link per CPU) declares them with
 * PROBE_NOT_TRACEPOINT (no BTF presence check; the name still says what it is, e.g.
 * "perf:cpu_clock", and IOWHY_SKIP_PROBES can name it), puts the program in the PROBE_TP_BTF slot
 * (a loader with one kind of program has that one flavour), skips probe_set_attach, attaches each
 * wanted probe's `prog` itself, reports with probe_set_mark, owns those links, and adds the time
 * it took to attach_ns / detach_ns.
 */
#ifndef IOWHY_PROBE_SET_H
#define IOWHY_PROBE_SET_H

#include <stdint.h>
#include "probe_status.h"

struct bpf_object;
struct bpf_program;
struct bpf_link;
struct btf;

#define PROBE_SET_MAX 48

enum probe_flavour { PROBE_TP_BTF, PROBE_RAW_TP, PROBE_FLAVOURS };

/* probe_spec.flags */
#define PROBE_REQUIRED       0x1u /* the loader fails without it */
#define PROBE_NOT_TRACEPOINT 0x2u /* no tracepoint to look for in the kernel's BTF (perf events) */
/* a program user space runs itself (BPF_PROG_RUN), never attached: no tracepoint to look for;
 * probe_set_attach marks it attached ("ready") once it loaded */
#define PROBE_RUN            0x4u

/* What a loader declares about one probe (usually a static table). */
struct probe_spec {
	const char *name;                  /* "category:event" */
	const char *prog[PROBE_FLAVOURS];  /* the program's C name in each flavour; NULL: none */
	unsigned flags;
};

/* One probe of a set and its outcome. */
struct probe {
	const struct probe_spec *spec;
	enum probe_state state;
	int err;                     /* errno of a failed load or attach */
	struct bpf_program *prog;    /* its program in the loaded object (NULL until loaded) */
	struct bpf_link *link;       /* while attached by probe_set_attach */
	int later;                   /* loaded by probe_set_load_later, not by probe_set_load */
	uint32_t verified_insns;     /* what the verifier processed for its program (once loaded) */
	uint64_t verify_ns;          /* the verifier's own time for it (0: unknown) */
};

/* How to make a fresh BPF object (a probe set may load several times to find what loads). */
struct probe_loader {
	void *(*open)(void *ctx);                 /* open, configure a skeleton; NULL on error */
	struct bpf_object *(*object)(void *skel); /* its bpf_object */
	int (*load)(void *skel);                  /* 0, or a negative error */
	void (*destroy)(void *skel);
	void *ctx;
};

struct probe_set {
	const char *what;            /* for messages: "core", "I/O" */
	enum probe_flavour flavour;  /* of the last load */
	int n;
	struct probe p[PROBE_SET_MAX];
	uint64_t load_ns, attach_ns, detach_ns; /* CLOCK_MONOTONIC time spent, all attempts */
	uint64_t load_cpu_ns;        /* CPU time of the loading thread (user + system), all attempts */
};

/* Declare the probes (specs must outlive the set). Returns 0, or -1 if there are too many. */
int probe_set_init(struct probe_set *s, const char *what, const struct probe_spec *specs, int n);
/* Whether `name` is in a comma-separated list such as IOWHY_SKIP_PROBES (blanks around names are
 * ignored; NULL or "" lists nothing). */
int probe_skip_listed(const char *list, const char *name);
/* Names in skip_list that no probe of the n sets (NULL entries allowed) has: one warning line on
 * stderr for each (a typo must not pass for a skipped probe). Returns how many. */
int probe_skip_warn_unknown(const char *skip_list, const struct probe_set *const *sets, int n);
/* Whether the kernel has the tracepoint "category:event" (its btf_trace_<event> type). */
int probe_tracepoint_exists(const struct btf *vmlinux, const char *name);
/*
 * Mark the probes named in skip_list as skipped and, when vmlinux is given, those whose tracepoint
 * the kernel lacks as absent. Returns 0, or -1 after one line on stderr if a required probe is out.
 */
int probe_set_prepare(struct probe_set *s, const char *skip_list, const struct btf *vmlinux);
/* Whether tracefs (its events directory, /sys/kernel/tracing/events) lists "category:event". */
int probe_tracefs_event_exists(const char *events_dir, const char *name);
/* probe_set_prepare with IOWHY_SKIP_PROBES and the running kernel's tracepoints: tracefs when it is
 * mounted (no BTF parse), else the kernel's BTF (timed into load_ns). */
int probe_set_prepare_kernel(struct probe_set *s);
/*
 * Load the wanted probes' programs in `flavour` (and no other program of the object). When that
 * fails, find which programs do not load by trying each alone: they are marked load_failed and the
 * rest is loaded. Returns the loaded skeleton, or NULL (errno set) when a required probe does not
 * load or nothing does; probe states from an earlier flavour's failure are reset first.
 */
void *probe_set_load(struct probe_set *s, enum probe_flavour flavour, const struct probe_loader *l);
/*
 * Load, in a second object of the same kind (its loader's open reuses the first object's maps),
 * the wanted probes marked `later` that probe_set_load left out, e.g. programs needed only once
 * something appears. Returns that skeleton (the probes' `prog` point into it, `later` is cleared),
 * or NULL (errno set; those probes are marked load_failed). Timed into load_ns.
 */
void *probe_set_load_later(struct probe_set *s, const struct probe_loader *l);
/* Attach every loaded probe. Returns 0, or -1 after one line on stderr if a required one fails
 * (the others stay attached: probe_set_detach). */
int probe_set_attach(struct probe_set *s);
/* Record the outcome of a probe the loader attached itself (state PROBE_ATTACHED or
 * PROBE_ATTACH_FAILED; err the errno). */
void probe_set_mark(struct probe_set *s, int i, enum probe_state state, int err);
/* Destroy the links probe_set_attach made (timed into detach_ns). Safe to call twice. */
void probe_set_detach(struct probe_set *s);
/* CPU time of the calling thread (user + system), ns: what load_cpu_ns adds up. */
uint64_t probe_thread_cpu_ns(void);
/* Add the set's load/attach/detach times and CPU time to *add, and append its loaded programs
 * with their verifier cost (nothing for a NULL set). */
void probe_set_add_times(const struct probe_set *s, struct probe_times *add);
/* Whether IOWHY_FALLBACKS=1 asks for the fallbacks of newer kernel features even where the kernel
 * has them (the tests of those fallbacks): ksym_addrs.c's kallsyms scan, io_probes.c's I/O
 * programs without bpf_rdonly_cast. */
int probe_fallbacks_forced(void);
/* Index of the probe called name, or -1. */
int probe_set_find(const struct probe_set *s, const char *name);
/* Whether the probe called name is attached. */
int probe_set_attached(const struct probe_set *s, const char *name);
/* How many probes are in state st. */
int probe_set_count(const struct probe_set *s, enum probe_state st);
/* Append every probe that is not attached, with why, to out. Returns 0, or -1 if out is full. */
int probe_set_missing(const struct probe_set *s, struct missing_probes *out);

#endif
