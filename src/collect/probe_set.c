// SPDX-License-Identifier: GPL-2.0
/* Probe sets: declare, skip, check, load, attach, detach; see probe_set.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>
#include "probe_set.h"
#include "clock.h"

uint64_t probe_thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int probe_set_init(struct probe_set *s, const char *what, const struct probe_spec *specs, int n)
{
	memset(s, 0, sizeof(*s));
	s->what = what;
	if (n < 0 || n > PROBE_SET_MAX)
		return -1;
	for (int i = 0; i < n; i++)
		s->p[i].spec = &specs[i];
	s->n = n;
	return 0;
}

int probe_skip_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list && *list) {
		size_t len = strcspn(list, ","), b = 0, e = len;

		while (b < e && (list[b] == ' ' || list[b] == '\t'))
			b++;
		while (e > b && (list[e - 1] == ' ' || list[e - 1] == '\t'))
			e--;
		if (n && e - b == n && !strncmp(list + b, name, n))
			return 1;
		list += len + (list[len] == ',');
	}
	return 0;
}

int probe_skip_warn_unknown(const char *skip_list, const struct probe_set *const *sets, int n)
{
	const char *p = skip_list;
	int unknown = 0;

	while (p && *p) {
		size_t len = strcspn(p, ","), b = strspn(p, " \t"), e = len;
		char name[PROBE_NAME_LEN];
		int known = 0;

		while (e > b && (p[e - 1] == ' ' || p[e - 1] == '\t'))
			e--;
		if (e > b) {
			snprintf(name, sizeof(name), "%.*s", (int)(e - b), p + b);
			for (int i = 0; i < n && !known; i++)
				known = sets[i] && probe_set_find(sets[i], name) >= 0;
			if (!known) {
				fprintf(stderr, "iowhy: warning: IOWHY_SKIP_PROBES names %s, but no "
					"probe of this session stands on it (names are "
					"category:event, e.g. block:block_rq_issue)\n", name);
				unknown++;
			}
		}
		p += len + (p[len] == ',');
	}
	return unknown;
}

int probe_tracepoint_exists(const struct btf *vmlinux, const char *name)
{
	const char *event = strchr(name, ':');
	char type[PROBE_NAME_LEN + 16];

	snprintf(type, sizeof(type), "btf_trace_%s", event ? event + 1 : name);
	return vmlinux && btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF) > 0;
}

/* One line for a required probe that will not be attached. */
static void say_required(const struct probe *p)
{
	if (p->err)
		fprintf(stderr, "iowhy: cannot attach the required tracepoint %s: %s: %s\n",
			p->spec->name, probe_state_text(p->state), strerror(p->err));
	else
		fprintf(stderr, "iowhy: cannot attach the required tracepoint %s: %s\n",
			p->spec->name, probe_state_text(p->state));
}

int probe_tracefs_event_exists(const char *events_dir, const char *name)
{
	const char *event = strchr(name, ':');
	char path[PATH_MAX];

	if (!event)
		return 0;
	snprintf(path, sizeof(path), "%s/%.*s/%s", events_dir, (int)(event - name), name, event + 1);
	return access(path, F_OK) == 0;
}

/* How the presence of a tracepoint is checked: in the kernel's BTF, or in tracefs. */
struct tp_check {
	const struct btf *vmlinux;  /* when not NULL */
	const char *events_dir;     /* else this, when not NULL; neither: no check */
};

/* Whether the check says the tracepoint is there (1 when there is nothing to check with). */
static int tp_present(const struct tp_check *k, const char *name)
{
	if (k->vmlinux)
		return probe_tracepoint_exists(k->vmlinux, name);
	if (k->events_dir)
		return probe_tracefs_event_exists(k->events_dir, name);
	return 1;
}

/* probe_set_prepare with either check. */
static int prepare_with(struct probe_set *s, const char *skip_list, const struct tp_check *k)
{
	for (int i = 0; i < s->n; i++) {
		struct probe *p = &s->p[i];

		if (probe_skip_listed(skip_list, p->spec->name))
			p->state = PROBE_SKIPPED;
		else if (!(p->spec->flags & (PROBE_NOT_TRACEPOINT | PROBE_RUN)) &&
			 !tp_present(k, p->spec->name))
			p->state = PROBE_ABSENT;
		else
			continue;
		if (p->spec->flags & PROBE_REQUIRED) {
			say_required(p);
			return -1;
		}
	}
	return 0;
}

int probe_set_prepare(struct probe_set *s, const char *skip_list, const struct btf *vmlinux)
{
	const struct tp_check k = { .vmlinux = vmlinux };

	return prepare_with(s, skip_list, &k);
}

/* tracefs's events directory, or NULL when tracefs is not mounted. */
static const char *tracefs_events_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing/events",
					    "/sys/kernel/debug/tracing/events" };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (!access(dirs[i], X_OK))
			return dirs[i];
	return NULL;
}

int probe_set_prepare_kernel(struct probe_set *s)
{
	uint64_t t0 = now_ns(), c0 = probe_thread_cpu_ns();
	struct tp_check k = { .events_dir = tracefs_events_dir() };
	struct btf *vmlinux = NULL;
	int rc;

	/* tracefs answers with one access(2) per probe; parsing the kernel's BTF (~6 MB) costs
	 * ~20 ms and ~10 MB, and libbpf parses it again for every object it loads */
	if (!k.events_dir) {
		vmlinux = btf__load_vmlinux_btf();
		k.vmlinux = vmlinux;
	}
	rc = prepare_with(s, getenv("IOWHY_SKIP_PROBES"), &k);
	btf__free(vmlinux);
	s->load_ns += now_ns() - t0;
	s->load_cpu_ns += probe_thread_cpu_ns() - c0;
	return rc;
}

/* The program of probe p in obj for the set's flavour, or NULL. */
static struct bpf_program *prog_of(const struct probe_set *s, const struct probe *p,
				   struct bpf_object *obj)
{
	const char *name = p->spec->prog[s->flavour];

	return name ? bpf_object__find_program_by_name(obj, name) : NULL;
}

/* Room for the verifier's statistics of one program (BPF_LOG_STATS: its time, stack depth and
 * "processed N insns ..." line, ~200 bytes). A log that does not fit fails the load (ENOSPC):
 * the load is then retried without statistics. */
#define STATS_LOG_LEN 2048
#define BPF_LOG_STATS_ 4

/* Read the verifier's cost of p's program from its statistics log (NULL: none) or, for the count
 * alone, from the kernel's bpf_prog_info. */
static void read_verifier_cost(struct probe *p, const char *log, struct bpf_program *prog)
{
	const char *t = log ? strstr(log, "verification time ") : NULL;
	const char *n = log ? strstr(log, "processed ") : NULL;
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	unsigned long long v;

	p->verify_ns = t && sscanf(t, "verification time %llu usec", &v) == 1 ? v * 1000 : 0;
	if (n && sscanf(n, "processed %llu insns", &v) == 1) {
		p->verified_insns = (uint32_t)v;
		return;
	}
	memset(&info, 0, sizeof(info));
	if (!bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		p->verified_insns = info.verified_insns;
}

/* Open a fresh object and load the wanted probes whose `later` is `later` (only probe `only` if
 * >= 0), nothing else; with `stats`, ask the verifier for its statistics of each. Returns the
 * skeleton, or NULL with errno set. */
static void *load_once(struct probe_set *s, const struct probe_loader *l, int only, int later,
		       int stats)
{
	void *skel = l->open(l->ctx);
	char *logs = stats ? calloc(s->n, STATS_LOG_LEN) : NULL;
	struct bpf_object *obj;
	struct bpf_program *prog;
	int err;

	if (!skel) {
		free(logs);
		return NULL;
	}
	obj = l->object(skel);
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_autoload(prog, false);
	for (int i = 0; i < s->n; i++) {
		struct probe *p = &s->p[i];

		if (p->state != PROBE_WANTED || (only >= 0 && only != i) || p->later != later)
			continue;
		prog = prog_of(s, p, obj);
		if (!prog)
			continue;
		bpf_program__set_autoload(prog, true);
		if (logs) {
			bpf_program__set_log_buf(prog, logs + (size_t)i * STATS_LOG_LEN,
						 STATS_LOG_LEN);
			bpf_program__set_log_level(prog, BPF_LOG_STATS_);
		}
	}
	err = l->load(skel);
	for (int i = 0; !err && i < s->n; i++) {
		struct probe *p = &s->p[i];

		prog = prog_of(s, p, obj);
		if (prog && bpf_program__autoload(prog))
			read_verifier_cost(p, logs ? logs + (size_t)i * STATS_LOG_LEN : NULL, prog);
	}
	free(logs);
	if (err) {
		l->destroy(skel);
		errno = err < 0 ? -err : err;
		return NULL;
	}
	return skel;
}

/* load_once with the verifier's statistics, without them when they did not fit their log. */
static void *load_with(struct probe_set *s, const struct probe_loader *l, int only, int later)
{
	void *skel = load_once(s, l, only, later, 1);

	if (!skel && errno == ENOSPC)
		skel = load_once(s, l, only, later, 0);
	return skel;
}

/* Try each wanted probe alone and mark those that do not load. Returns 0, or -1 when a required
 * one does not. */
static int find_load_failures(struct probe_set *s, const struct probe_loader *l)
{
	for (int i = 0; i < s->n; i++) {
		struct probe *p = &s->p[i];
		void *trial;

		if (p->state != PROBE_WANTED)
			continue;
		trial = p->spec->prog[s->flavour] ? load_with(s, l, i, p->later) : NULL;
		if (trial) {
			l->destroy(trial);
			continue;
		}
		p->state = PROBE_LOAD_FAILED;
		p->err = p->spec->prog[s->flavour] ? errno : EOPNOTSUPP;
		if (p->spec->flags & PROBE_REQUIRED)
			return -1;
	}
	return 0;
}

void *probe_set_load(struct probe_set *s, enum probe_flavour flavour, const struct probe_loader *l)
{
	uint64_t t0 = now_ns(), c0 = probe_thread_cpu_ns();
	void *skel;
	int err = 0;

	s->flavour = flavour;
	for (int i = 0; i < s->n; i++) {
		if (s->p[i].state == PROBE_LOAD_FAILED) {
			s->p[i].state = PROBE_WANTED;
			s->p[i].err = 0;
		}
	}
	skel = load_with(s, l, -1, 0);
	if (!skel) {
		if (!find_load_failures(s, l))
			skel = load_with(s, l, -1, 0);
		err = errno;
	}
	for (int i = 0; skel && i < s->n; i++)
		if (s->p[i].state == PROBE_WANTED && !s->p[i].later)
			s->p[i].prog = prog_of(s, &s->p[i], l->object(skel));
	s->load_ns += now_ns() - t0;
	s->load_cpu_ns += probe_thread_cpu_ns() - c0;
	errno = err;
	return skel;
}

void *probe_set_load_later(struct probe_set *s, const struct probe_loader *l)
{
	uint64_t t0 = now_ns(), c0 = probe_thread_cpu_ns();
	void *skel = load_with(s, l, -1, 1);
	int err = skel ? 0 : errno;

	for (int i = 0; i < s->n; i++) {
		struct probe *p = &s->p[i];

		if (p->state != PROBE_WANTED || !p->later)
			continue;
		p->later = 0;
		if (skel) {
			p->prog = prog_of(s, p, l->object(skel));
		} else {
			p->state = PROBE_LOAD_FAILED;
			p->err = err;
		}
	}
	s->load_ns += now_ns() - t0;
	s->load_cpu_ns += probe_thread_cpu_ns() - c0;
	errno = err;
	return skel;
}

int probe_set_attach(struct probe_set *s)
{
	uint64_t t0 = now_ns();
	int rc = 0;

	for (int i = 0; i < s->n && !rc; i++) {
		struct probe *p = &s->p[i];

		if (p->state != PROBE_WANTED)
			continue;
		if ((p->spec->flags & PROBE_RUN) && p->prog) { /* run, not attached: ready */
			p->state = PROBE_ATTACHED;
			continue;
		}
		p->link = p->prog ? bpf_program__attach(p->prog) : NULL;
		if (p->link) {
			p->state = PROBE_ATTACHED;
			continue;
		}
		p->state = PROBE_ATTACH_FAILED;
		p->err = p->prog ? errno : ENOENT;
		if (p->spec->flags & PROBE_REQUIRED) {
			say_required(p);
			rc = -1;
		}
	}
	s->attach_ns += now_ns() - t0;
	return rc;
}

void probe_set_mark(struct probe_set *s, int i, enum probe_state state, int err)
{
	if (i < 0 || i >= s->n)
		return;
	s->p[i].state = state;
	s->p[i].err = err;
}

void probe_set_detach(struct probe_set *s)
{
	uint64_t t0 = now_ns();

	for (int i = s->n - 1; i >= 0; i--) {
		bpf_link__destroy(s->p[i].link);
		s->p[i].link = NULL;
	}
	s->detach_ns += now_ns() - t0;
}

int probe_fallbacks_forced(void)
{
	const char *v = getenv("IOWHY_FALLBACKS");

	return v && *v && strcmp(v, "0");
}

int probe_set_find(const struct probe_set *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->p[i].spec->name, name))
			return i;
	return -1;
}

int probe_set_attached(const struct probe_set *s, const char *name)
{
	int i = probe_set_find(s, name);

	return i >= 0 && s->p[i].state == PROBE_ATTACHED;
}

int probe_set_count(const struct probe_set *s, enum probe_state st)
{
	int n = 0;

	for (int i = 0; i < s->n; i++)
		n += s->p[i].state == st;
	return n;
}

int probe_set_missing(const struct probe_set *s, struct missing_probes *out)
{
	for (int i = 0; i < s->n; i++) {
		const struct probe *p = &s->p[i];

		if (p->state != PROBE_ATTACHED &&
		    missing_probes_add(out, p->spec->name, p->state, p->err))
			return -1;
	}
	return 0;
}

void probe_set_add_times(const struct probe_set *s, struct probe_times *add)
{
	if (!s)
		return;
	add->load_ns += s->load_ns;
	add->attach_ns += s->attach_ns;
	add->detach_ns += s->detach_ns;
	add->load_cpu_ns += s->load_cpu_ns;
	for (int i = 0; i < s->n && add->nprogs < LOADED_PROGRAMS_MAX; i++) {
		const struct probe *p = &s->p[i];
		struct loaded_program *o;

		if (!p->prog || (p->state != PROBE_ATTACHED && p->state != PROBE_WANTED &&
				 p->state != PROBE_ATTACH_FAILED))
			continue;
		o = &add->progs[add->nprogs++];
		snprintf(o->probe, sizeof(o->probe), "%s", p->spec->name);
		snprintf(o->prog, sizeof(o->prog), "%s", bpf_program__name(p->prog));
		snprintf(o->set, sizeof(o->set), "%s", s->what);
		o->verified_insns = p->verified_insns;
		o->verify_ns = p->verify_ns;
	}
}
