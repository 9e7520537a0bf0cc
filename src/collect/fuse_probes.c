// SPDX-License-Identifier: GPL-2.0
/* Loader of bpf/fuse.bpf.c and the per-phase collection; see fuse_probes.h. */
#include <ctype.h>
#include <signal.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "core_btf.h"
#include "fuse_probes.h"
#include "probe_set.h"
#include "clock.h"
#include "core_probes.h"
#include "syscalls.h"
#include "units.h"
#include "result.h"
#include "iowhy.skel.h"
#include "fuse.skel.h"

#define MAX_MOUNTS 64
#define MAX_DAEMONS 256

/* The loader's context: whose maps the programs share. */
struct fuse_load_ctx {
	struct core_probes *core;
	struct fuse_bpf *first;   /* when set: a later load reuses every map of this one */
};

struct fuse_probes {
	struct fuse_bpf *skel;
	struct fuse_bpf *daemon_skel; /* the daemon programs, when loaded after the first object */
	struct fuse_load_ctx ctx;
	struct probe_set probes;  /* the request and daemon probes: attached, or why not */
	int daemons_attached;     /* daemon programs: from the first phase with a FUSE mount */
	int ncpus;
	int nfs_probes;
	struct missing_probes nfs_missing; /* NFS tracepoints this kernel lacks (named, not used) */
	int load_tried;           /* both request probes were there: the object was loaded */
	struct fuse_lost lost0;
	struct fuse_mount_info mounts[MAX_MOUNTS]; /* seen at the phase's begin */
	int nmounts;
};

/* The requests, and the daemon tracking: programs on sched_switch and the syscall tracepoints,
 * named apart from the core's (IOWHY_SKIP_PROBES=fusedaemon:sched_switch skips only this one). */
enum { FP_SEND, FP_END, FP_SWITCH, FP_SYS_ENTER, FP_SYS_EXIT, FP_N };
static const struct probe_spec fuse_specs[FP_N] = {
	[FP_SEND] = { "fuse:fuse_request_send", { "fuse_send" }, 0 },
	[FP_END] = { "fuse:fuse_request_end", { "fuse_end" }, 0 },
	[FP_SWITCH] = { "fusedaemon:sched_switch", { "fuse_switch" }, PROBE_NOT_TRACEPOINT },
	[FP_SYS_ENTER] = { "fusedaemon:sys_enter", { "fuse_sys_enter" }, PROBE_NOT_TRACEPOINT },
	[FP_SYS_EXIT] = { "fusedaemon:sys_exit", { "fuse_sys_exit" }, PROBE_NOT_TRACEPOINT },
};

static uint64_t mono_ns(void)
{
	return now_ns();
}

/* Per syscall number, for the daemon probes: 1 first argument an fd, 2 network syscall, 4 sends
 * bytes (its return value), 8 receives bytes, 16 poll/ppoll (asleep on a socket: network), 32
 * read (a request's header at its buffer), 64 readv (... at its first iovec's), 128 splice (a
 * request from /dev/fuse into a pipe). */
static void set_nr_flags(__u8 *flags)
{
	static const char *const tx[] = { "write", "writev", "pwrite64", "pwritev", "pwritev2",
					  "sendto", "sendmsg", NULL };
	static const char *const rx[] = { "read", "readv", "pread64", "preadv", "preadv2",
					  "recvfrom", "recvmsg", NULL };
	int nr;

	for (nr = 0; nr < FUSE_NET_NR_SLOTS; nr++)
		flags[nr] = (syscall_first_arg_fd(nr) ? 1 : 0) | (syscall_is_network(nr) ? 2 : 0);
	for (int i = 0; tx[i]; i++)
		if ((nr = syscall_nr(tx[i])) >= 0 && nr < FUSE_NET_NR_SLOTS)
			flags[nr] |= 4;
	for (int i = 0; rx[i]; i++)
		if ((nr = syscall_nr(rx[i])) >= 0 && nr < FUSE_NET_NR_SLOTS)
			flags[nr] |= 8;
	if ((nr = syscall_nr("poll")) >= 0 && nr < FUSE_NET_NR_SLOTS)
		flags[nr] |= 16;
	if ((nr = syscall_nr("ppoll")) >= 0 && nr < FUSE_NET_NR_SLOTS)
		flags[nr] |= 16;
	if ((nr = syscall_nr("read")) >= 0 && nr < FUSE_NET_NR_SLOTS)
		flags[nr] |= 32;
	if ((nr = syscall_nr("readv")) >= 0 && nr < FUSE_NET_NR_SLOTS)
		flags[nr] |= 64;
	if ((nr = syscall_nr("splice")) >= 0 && nr < FUSE_NET_NR_SLOTS)
		flags[nr] |= 128;
}

static int scan_mounts(struct fuse_mount_info *out, int max);

/* Make every map of obj (opened, not loaded) the same map of `from` (loaded). */
static int reuse_maps(struct bpf_object *obj, const struct bpf_object *from)
{
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj) {
		const struct bpf_map *f = bpf_object__find_map_by_name(from, bpf_map__name(m));

		if (!f || bpf_map__reuse_fd(m, bpf_map__fd(f)))
			return -1;
	}
	return 0;
}

/* The probe set's loader: a fresh skeleton sharing the tree's maps (with them the I/O probes'
 * writeback and inode maps: tree_inodes.bpf.h). */
static void *open_fuse(void *ctx)
{
	struct fuse_load_ctx *c = ctx;
	struct fuse_bpf *s = fuse_bpf__open_opts(core_btf_open_opts());

	if (!s)
		return NULL;
	if (c->first && reuse_maps(s->obj, c->first->obj)) {
		fuse_bpf__destroy(s);
		return NULL;
	}
	if (core_probes_share_tree_maps(c->core, s->obj)) {
		fuse_bpf__destroy(s);
		return NULL;
	}
	s->rodata->use_hash = c->core->use_hash != 0;
	set_nr_flags(s->rodata->nr_flags);
	return s;
}

static struct bpf_object *fuse_object(void *skel)
{
	return ((struct fuse_bpf *)skel)->obj;
}

static int load_fuse(void *skel)
{
	return fuse_bpf__load(skel);
}

static void destroy_fuse(void *skel)
{
	fuse_bpf__destroy(skel);
}

/* Does the kernel (vmlinux or a loaded module's BTF) have tracepoint `tp`? */
static int has_tp(const struct btf *vmlinux, const char *tp)
{
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	return vmlinux && btf__find_by_name_kind(vmlinux, name, BTF_KIND_TYPEDEF) > 0;
}

/* The NFS client tracepoints iowhy would attach to (docs/IO.md); listed as missing when absent. */
static void check_nfs(struct fuse_probes *t)
{
	static const char *const tps[] = { "nfs:nfs_initiate_write", "nfs:nfs_writeback_done",
		"nfs:nfs_initiate_read", "nfs:nfs_readpage_done", "nfs:nfs_initiate_commit",
		"nfs:nfs_commit_done", "sunrpc:rpc_task_begin", "sunrpc:rpc_task_end",
		"sunrpc:rpc_stats_latency", "sunrpc:xprt_transmit" };
	/* tracefs answers without parsing the kernel's BTF (~20 ms of CPU) when it is mounted */
	int tracefs = !access("/sys/kernel/tracing/events", X_OK), found = 0;
	struct btf *vmlinux = tracefs ? NULL : btf__load_vmlinux_btf();

	for (size_t i = 0; i < sizeof(tps) / sizeof(tps[0]); i++) {
		if (tracefs ? probe_tracefs_event_exists("/sys/kernel/tracing/events", tps[i]) :
			      has_tp(vmlinux, strchr(tps[i], ':') + 1))
			found++;
		else
			missing_probes_add(&t->nfs_missing, tps[i], PROBE_ABSENT, 0);
	}
	btf__free(vmlinux);
	t->nfs_probes = found > 0;
}

/* Attach the loaded probes [from, to) and record each outcome in the set. */
static void attach_range(struct fuse_probes *t, int from, int to)
{
	for (int i = from; i < to; i++) {
		struct probe *p = &t->probes.p[i];

		if (p->state != PROBE_WANTED || !p->prog)
			continue;
		p->link = bpf_program__attach(p->prog);
		probe_set_mark(&t->probes, i, p->link ? PROBE_ATTACHED : PROBE_ATTACH_FAILED,
			       p->link ? 0 : errno);
	}
}

int fuse_probes_open(struct fuse_probes **out, struct core_probes *core)
{
	struct fuse_probes *t = calloc(1, sizeof(*t));
	const struct probe_loader loader = { open_fuse, fuse_object, load_fuse, destroy_fuse,
					     t ? &t->ctx : NULL };
	struct fuse_mount_info *now = calloc(MAX_MOUNTS, sizeof(*now));
	uint64_t t0;
	int later;

	*out = NULL;
	if (!t || !now || probe_set_init(&t->probes, "FUSE", fuse_specs, FP_N)) {
		free(t);
		free(now);
		fprintf(stderr, "iowhy: out of memory\n");
		return -1;
	}
	t->ctx = (struct fuse_load_ctx){ core, NULL };
	t->ncpus = libbpf_num_possible_cpus();
	check_nfs(t);
	probe_set_prepare_kernel(&t->probes); /* all optional: never fails */
	/* no FUSE mount yet: the daemon programs (the verifier's largest work) wait for one */
	later = scan_mounts(now, MAX_MOUNTS) == 0;
	for (int i = FP_SWITCH; i < FP_N; i++)
		t->probes.p[i].later = later;
	free(now);
	/* without both request probes there is nothing to charge the daemons' work to */
	if (t->ncpus > 0 && t->probes.p[FP_SEND].state == PROBE_WANTED &&
	    t->probes.p[FP_END].state == PROBE_WANTED) {
		t->load_tried = 1;
		t->skel = probe_set_load(&t->probes, PROBE_TP_BTF, &loader);
	}
	t0 = now_ns();
	if (t->skel)
		attach_range(t, FP_SEND, FP_SWITCH);
	t->probes.attach_ns += now_ns() - t0;
	*out = t;
	return 0;
}

/* The daemon programs, loaded (when they were left out at first) and attached at the first phase
 * with a FUSE mount. */
static void attach_daemon_probes(struct fuse_probes *t)
{
	const struct probe_loader loader = { open_fuse, fuse_object, load_fuse, destroy_fuse,
					     &t->ctx };
	uint64_t t0;
	int waiting = 0;

	for (int i = FP_SWITCH; i < FP_N; i++)
		waiting += t->probes.p[i].later && t->probes.p[i].state == PROBE_WANTED;
	if (waiting) {
		t->ctx.first = t->skel;
		t->daemon_skel = probe_set_load_later(&t->probes, &loader);
	}
	t0 = now_ns();
	attach_range(t, FP_SWITCH, FP_N);
	t->probes.attach_ns += now_ns() - t0;
}

int fuse_probes_missing(const struct fuse_probes *t, struct missing_probes *out)
{
	int rc = 0;

	if (!t)
		return 0;
	/* a daemon probe still only wanted waits for a FUSE mount: that is not missing */
	for (int i = 0; i < t->probes.n; i++) {
		const struct probe *p = &t->probes.p[i];
		enum probe_state st = p->state;

		if (!t->skel && st == PROBE_WANTED && t->load_tried)
			st = PROBE_LOAD_FAILED; /* the object did not load: nothing of it runs */
		if (st != PROBE_ATTACHED && st != PROBE_WANTED &&
		    missing_probes_add(out, p->spec->name, st, p->err))
			rc = -1;
	}
	if (missing_probes_append(out, &t->nfs_missing))
		rc = -1;
	return rc;
}

const struct probe_set *fuse_probes_set(const struct fuse_probes *t)
{
	return t ? &t->probes : NULL;
}

void fuse_probes_close(struct fuse_probes *t)
{
	if (!t)
		return;
	probe_set_detach(&t->probes);
	fuse_bpf__destroy(t->daemon_skel);
	fuse_bpf__destroy(t->skel);
	free(t);
}

/* ---- /proc ---- */

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[2]) &&
		    isdigit((unsigned char)s[3])) {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/* The FUSE mounts of /proc/self/mountinfo: connection (the mount's st_dev), point, source. */
static int scan_mounts(struct fuse_mount_info *out, int max)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int n = 0;

	if (!f)
		return 0;
	while (n < max && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char point[1024], fstype[64], source[1024], *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*u %*u %u:%u %*s %1023s", &maj, &min, point) != 3 ||
		    sscanf(dash + 3, "%63s %1023s", fstype, source) != 2)
			continue;
		if (strcmp(fstype, "fuse") && strncmp(fstype, "fuse.", 5) &&
		    strcmp(fstype, "fuseblk") && strncmp(fstype, "fuseblk.", 8))
			continue;
		unescape(point);
		unescape(source);
		out[n].conn = (maj << 20) | min;
		snprintf(out[n].point, sizeof(out[n].point), "%.159s", point);
		snprintf(out[n].source, sizeof(out[n].source), "%.95s", source);
		snprintf(out[n].fstype, sizeof(out[n].fstype), "%.31s", fstype);
		n++;
	}
	fclose(f);
	return n;
}

/* Name of process pid (its comm) into buf[16]; "" if gone. */
static void proc_comm(int pid, char *buf)
{
	char path[64];
	FILE *c;

	buf[0] = 0;
	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	c = fopen(path, "re");
	if (!c)
		return;
	if (fgets(buf, 16, c))
		buf[strcspn(buf, "\n")] = 0;
	fclose(c);
}

/* Calls fn(pid, inode, arg) for each "socket:[inode]" fd of pid and returns whether pid holds
 * /dev/fuse open. */
static int scan_fds(int pid, void (*fn)(int pid, uint32_t ino, void *arg), void *arg)
{
	char path[288], link[64];
	struct dirent *fe;
	DIR *fds;
	int fuse = 0;

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	fds = opendir(path);
	if (!fds)
		return 0;
	while ((fe = readdir(fds))) {
		unsigned ino;
		ssize_t n;

		if (fe->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid, fe->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = 0;
		if (!strcmp(link, "/dev/fuse"))
			fuse = 1;
		else if (fn && sscanf(link, "socket:[%u]", &ino) == 1)
			fn(pid, ino, arg);
	}
	closedir(fds);
	return fuse;
}

struct inoset {
	uint32_t *ino, *owner;   /* socket inode, and the daemon it leads to */
	int n, cap;
};

static void inoset_add(struct inoset *s, uint32_t ino, uint32_t owner)
{
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 64;
		uint32_t *a = realloc(s->ino, cap * sizeof(*a)), *b;

		if (!a)
			return;
		s->ino = a;
		b = realloc(s->owner, cap * sizeof(*b));
		if (!b)
			return;
		s->owner = b;
		s->cap = cap;
	}
	s->ino[s->n] = ino;
	s->owner[s->n++] = owner;
}

static int inoset_find(const struct inoset *s, uint32_t ino)
{
	for (int i = 0; i < s->n; i++)
		if (s->ino[i] == ino)
			return i;
	return -1;
}

static void collect_ino(int pid, uint32_t ino, void *arg)
{
	inoset_add(arg, ino, pid);
}

/* The peers of the unix sockets in `mine` (sock_diag), as a set owned by the same daemons. */
static void unix_peers(const struct inoset *mine, struct inoset *peers)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req r;
	} req = {
		.nlh = { .nlmsg_len = sizeof(req), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = ~0u,
		       .udiag_show = UDIAG_SHOW_PEER },
	};
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG), done = 0;
	static char buf[32768];

	if (fd < 0)
		return;
	if (send(fd, &req, sizeof(req), 0) < 0)
		done = 1;
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n <= 0)
			break;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			struct unix_diag_msg *m = NLMSG_DATA(h);
			struct rtattr *a = (struct rtattr *)(m + 1);
			int len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*m)), i;

			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			i = inoset_find(mine, m->udiag_ino);
			if (i < 0)
				continue;
			for (; RTA_OK(a, len); a = RTA_NEXT(a, len))
				if (a->rta_type == UNIX_DIAG_PEER)
					inoset_add(peers, *(uint32_t *)RTA_DATA(a), mine->owner[i]);
		}
	}
	close(fd);
}

static void add_daemon(struct fuse_probes *t, int pid, int parent)
{
	struct fuse_daemon d = { .parent = parent };
	__u32 key = pid;

	proc_comm(pid, d.comm);
	bpf_map__update_elem(t->skel->maps.daemons, &key, sizeof(key), &d, sizeof(d), BPF_NOEXIST);
}

struct helper_scan {
	struct fuse_probes *t;
	const struct inoset *peers;
	int found;
};

static void match_helper(int pid, uint32_t ino, void *arg)
{
	struct helper_scan *h = arg;
	int i = inoset_find(h->peers, ino);

	if (i >= 0 && !h->found && (uint32_t)pid != h->peers->owner[i]) {
		add_daemon(h->t, pid, h->peers->owner[i]);
		h->found = 1;
	}
}

/* Register every process holding /dev/fuse open as a daemon (its connection is learnt at its
 * first reply), and the processes at the other end of its unix sockets as its helpers (sshfs's
 * ssh), so that their time is followed from the window's start. */
static void scan_daemons(struct fuse_probes *t)
{
	struct inoset mine = { 0 }, peers = { 0 };
	int *pids = NULL, np = 0, cap = 0, nh = 0;
	DIR *proc = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid();

	if (!proc)
		return;
	while ((e = readdir(proc))) {
		int pid = atoi(e->d_name), before = mine.n;

		if (pid <= 0 || pid == self)
			continue;
		if (np == cap) {
			int *n = realloc(pids, (cap = cap ? 2 * cap : 1024) * sizeof(*n));

			if (!n)
				break;
			pids = n;
		}
		pids[np++] = pid;
		if (scan_fds(pid, collect_ino, &mine) && nh < MAX_DAEMONS) {
			add_daemon(t, pid, 0);
			nh++;
		} else {
			mine.n = before; /* not a daemon: its sockets do not count */
		}
	}
	closedir(proc);
	if (mine.n)
		unix_peers(&mine, &peers);
	for (int i = 0; peers.n && i < np; i++) {
		struct helper_scan h = { t, &peers, 0 };

		scan_fds(pids[i], match_helper, &h);
	}
	free(pids);
	free(mine.ino);
	free(mine.owner);
	free(peers.ino);
	free(peers.owner);
}

/* ---- map readers ---- */

static void sum_lost(struct fuse_probes *t, struct fuse_lost *out)
{
	struct fuse_lost v[t->ncpus];
	__u32 zero = 0;

	memset(out, 0, sizeof(*out));
	if (bpf_map__lookup_elem(t->skel->maps.fuse_lost, &zero, sizeof(zero), v, sizeof(v), 0))
		return;
	for (int c = 0; c < t->ncpus; c++) {
		out->inflight_full += v[c].inflight_full;
		out->unmatched_end += v[c].unmatched_end;
		out->stats_full += v[c].stats_full;
		out->daemon_full += v[c].daemon_full;
	}
}

/* Delete the keys of `map` whose phase field (phase_size bytes at phase_off) is tag; count them. */
static uint64_t clear_phase(struct bpf_map *map, size_t key_size, size_t phase_off,
			    size_t phase_size, int tag)
{
	unsigned char key[32], next[32], (*dead)[32] = calloc(16384, 32);
	uint64_t ndead = 0;
	int have = 0;

	if (!dead)
		return 0;
	while (ndead < 16384 && !bpf_map__get_next_key(map, have ? key : NULL, next, key_size)) {
		uint32_t ph = 0;

		memcpy(&ph, next + phase_off, phase_size);
		if ((int)ph == tag)
			memcpy(dead[ndead++], next, key_size);
		memcpy(key, next, key_size);
		have = 1;
	}
	for (uint64_t i = 0; i < ndead; i++)
		bpf_map__delete_elem(map, dead[i], key_size, 0);
	free(dead);
	return ndead;
}

/* Requests of phase `tag` still in flight (a daemon that never answered): counted, dropped. */
static uint64_t drop_inflight(struct fuse_probes *t, int tag)
{
	struct bpf_map *m = t->skel->maps.inflight;
	struct fuse_inflight_key key, next, *dead = calloc(16384, sizeof(key));
	struct fuse_inflight v;
	uint64_t n = 0;
	int have = 0;

	if (!dead)
		return 0;
	while (n < 16384 && !bpf_map__get_next_key(m, have ? &key : NULL, &next, sizeof(next))) {
		key = next;
		have = 1;
		if (!bpf_map__lookup_elem(m, &key, sizeof(key), &v, sizeof(v), 0) && v.phase == tag)
			dead[n++] = key;
	}
	for (uint64_t i = 0; i < n; i++)
		bpf_map__delete_elem(m, &dead[i], sizeof(key), 0);
	free(dead);
	return n;
}

void fuse_probes_phase_begin(struct fuse_probes *t, int tag)
{
	if (!t || !t->skel || tag < 0 || tag >= FUSE_MAX_PHASES)
		return;
	t->skel->data->current_phase = FUSE_NO_PHASE;
	clear_phase(t->skel->maps.fuse_stats, sizeof(struct fuse_key), 6, 1, tag);
	clear_phase(t->skel->maps.dstats, sizeof(struct fuse_dkey), 4, 4, tag);
	clear_phase(t->skel->maps.ddisk, sizeof(struct fuse_ddkey), 8, 4, tag);
	clear_phase(t->skel->maps.tstats, sizeof(struct fuse_tkey), 4, 4, tag);
	drop_inflight(t, tag);
	sum_lost(t, &t->lost0);
	t->nmounts = scan_mounts(t->mounts, MAX_MOUNTS);
	/* Daemon tracking runs on every context switch and syscall of the machine: only once there
	 * is a FUSE mount to serve (a mount made during a phase gets its daemon from the next
	 * one). */
	if (t->nmounts && !t->daemons_attached) {
		attach_daemon_probes(t);
		t->daemons_attached = 1;
	}
	if (t->daemons_attached)
		scan_daemons(t);
	t->skel->bss->outstanding = 0;
	t->skel->bss->busy_base = 0;
	t->skel->bss->busy_since = 0;
	t->skel->bss->phase_begin_ns = mono_ns(); /* CLOCK_MONOTONIC, bpf_ktime_get_ns()'s clock */
	t->skel->data->current_phase = tag;
}

static void read_rows(struct fuse_probes *t, int tag, struct fuse_phase *p)
{
	struct bpf_map *m = t->skel->maps.fuse_stats;
	struct fuse_stat *v = calloc(t->ncpus, sizeof(*v));
	struct fuse_key key, next;
	int have = 0;

	while (v && !bpf_map__get_next_key(m, have ? &key : NULL, &next, sizeof(next))) {
		struct fuse_row *r;

		key = next;
		have = 1;
		if (key.phase != tag ||
		    bpf_map__lookup_elem(m, &key, sizeof(key), v, t->ncpus * sizeof(*v), 0))
			continue;
		r = realloc(p->rows, (p->nrows + 1) * sizeof(*r));
		if (!r)
			break;
		p->rows = r;
		r = &p->rows[p->nrows++];
		memset(r, 0, sizeof(*r));
		r->conn = key.conn;
		r->op = key.op;
		r->who = key.who;
		for (int c = 0; c < t->ncpus; c++)
			fuse_row_merge(&r->st, &v[c]);
	}
	free(v);
}

/* The daemons with time in this phase, with their connection and name. */
static void read_daemons(struct fuse_probes *t, int tag, struct fuse_phase *p)
{
	struct bpf_map *m = t->skel->maps.dstats;
	struct fuse_dstat *v = calloc(t->ncpus, sizeof(*v));
	struct fuse_dkey key, next;
	int have = 0;

	while (v && !bpf_map__get_next_key(m, have ? &key : NULL, &next, sizeof(next))) {
		struct fuse_daemon_row *r;
		struct fuse_daemon d;

		key = next;
		have = 1;
		if ((int)key.phase != tag ||
		    bpf_map__lookup_elem(m, &key, sizeof(key), v, t->ncpus * sizeof(*v), 0))
			continue;
		r = realloc(p->daemons, (p->ndaemons + 1) * sizeof(*r));
		if (!r)
			break;
		p->daemons = r;
		r = &p->daemons[p->ndaemons++];
		memset(r, 0, sizeof(*r));
		r->tgid = key.tgid;
		if (!bpf_map__lookup_elem(t->skel->maps.daemons, &key.tgid, sizeof(key.tgid), &d,
					  sizeof(d), 0)) {
			r->conn = d.conn;
			r->parent = d.parent;
			memcpy(r->comm, d.comm, sizeof(r->comm));
		}
		for (int c = 0; c < t->ncpus; c++)
			fuse_dstat_merge(&r->st, &v[c]);
		r->replies = r->st.replies;
	}
	free(v);
}

/* The workload's processes that sent requests in phase tag, with the daemon time charged to
 * them per request. */
static void read_tasks(struct fuse_probes *t, int tag, struct fuse_phase *p)
{
	struct bpf_map *m = t->skel->maps.tstats;
	struct fuse_tstat *v = calloc(t->ncpus, sizeof(*v));
	struct fuse_tkey key, next;
	int have = 0;

	while (v && !bpf_map__get_next_key(m, have ? &key : NULL, &next, sizeof(next))) {
		struct fuse_task_row *r;

		key = next;
		have = 1;
		if ((int)key.phase != tag ||
		    bpf_map__lookup_elem(m, &key, sizeof(key), v, t->ncpus * sizeof(*v), 0))
			continue;
		r = realloc(p->tasks, (p->ntasks + 1) * sizeof(*r));
		if (!r)
			break;
		p->tasks = r;
		r = &p->tasks[p->ntasks++];
		memset(r, 0, sizeof(*r));
		r->tgid = key.tgid;
		for (int c = 0; c < t->ncpus; c++) {
			r->st.replied += v[c].replied;
			r->st.paired += v[c].paired;
			for (int k = 0; k < FUSE_D_COUNT; k++)
				r->st.dreq_ns[k] += v[c].dreq_ns[k];
			if (!r->comm[0] && v[c].comm[0])
				memcpy(r->comm, v[c].comm, sizeof(r->comm));
		}
		r->comm[sizeof(r->comm) - 1] = 0;
	}
	free(v);
}

/* "vda", "loop3" for a block device (/sys/dev/block), else "MAJ:MIN"; "?" for 0. */
static void dev_name(uint32_t dev, char *buf, size_t n)
{
	char path[64], link[256];
	ssize_t k;

	if (!dev) {
		snprintf(buf, n, "?");
		return;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", dev >> 20, dev & 0xfffff);
	k = readlink(path, link, sizeof(link) - 1);
	if (k > 0) {
		link[k] = 0;
		snprintf(buf, n, "%.31s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	} else {
		snprintf(buf, n, "%u:%u", dev >> 20, dev & 0xfffff);
	}
}

/* Each daemon's disk I/O wait by device in phase tag, largest first (the 8 largest). */
static void read_disks(struct fuse_probes *t, int tag, struct fuse_phase *p)
{
	struct bpf_map *m = t->skel->maps.ddisk;
	struct fuse_ddstat *v = calloc(t->ncpus, sizeof(*v));
	struct fuse_ddkey key, next;
	int have = 0;

	while (v && !bpf_map__get_next_key(m, have ? &key : NULL, &next, sizeof(next))) {
		struct fuse_disk_row r = { 0 };
		struct fuse_daemon_row *d = NULL;
		int at;

		key = next;
		have = 1;
		if ((int)key.phase != tag ||
		    bpf_map__lookup_elem(m, &key, sizeof(key), v, t->ncpus * sizeof(*v), 0))
			continue;
		for (size_t i = 0; i < p->ndaemons; i++)
			if (p->daemons[i].tgid == key.tgid)
				d = &p->daemons[i];
		if (!d)
			continue;
		r.dev = key.dev;
		dev_name(key.dev, r.name, sizeof(r.name));
		for (int c = 0; c < t->ncpus; c++) {
			r.total_ns += v[c].total_ns;
			r.overlap_ns += v[c].overlap_ns;
		}
		/* insert by total, largest first, keeping the 8 largest */
		at = d->ndisks < 8 ? d->ndisks : 8;
		while (at > 0 && d->disks[at - 1].total_ns < r.total_ns) {
			if (at < 8)
				d->disks[at] = d->disks[at - 1];
			at--;
		}
		if (at < 8) {
			d->disks[at] = r;
			if (d->ndisks < 8)
				d->ndisks++;
		}
	}
	free(v);
}

/* The mounts seen at the begin, plus those mounted since. */
static void merge_mounts(struct fuse_probes *t, struct fuse_phase *p)
{
	struct fuse_mount_info now[MAX_MOUNTS];
	int n = scan_mounts(now, MAX_MOUNTS);

	p->mounts = calloc(t->nmounts + n, sizeof(*p->mounts));
	if (!p->mounts)
		return;
	for (int i = 0; i < t->nmounts; i++)
		p->mounts[p->nmounts++] = t->mounts[i];
	for (int i = 0; i < n; i++)
		if (!fuse_mount_of(p, now[i].conn))
			p->mounts[p->nmounts++] = now[i];
}

/* ", or end its daemon (pid N[, M])" for the daemons known to serve conn. */
static void print_daemons_of(struct fuse_probes *t, uint32_t conn, FILE *out)
{
	__u32 key, next;
	struct fuse_daemon d;
	int have = 0, n = 0;

	while (!bpf_map__get_next_key(t->skel->maps.daemons, have ? &key : NULL, &next,
				      sizeof(next))) {
		key = next;
		have = 1;
		if (bpf_map__lookup_elem(t->skel->maps.daemons, &key, sizeof(key), &d, sizeof(d),
					 0) || d.conn != conn || kill(key, 0))
			continue;
		fprintf(out, "%s%u", n++ ? ", " : ", or end its daemon (pid ", key);
	}
	if (n)
		fprintf(out, ")");
}

int fuse_probes_stuck(struct fuse_probes *t, uint64_t min_age_ns, FILE *out)
{
	struct fuse_inflight_key key, next;
	struct fuse_inflight v;
	uint64_t now = mono_ns();
	int have = 0, n = 0;

	if (!t || !t->skel)
		return 0;
	while (!bpf_map__get_next_key(t->skel->maps.inflight, have ? &key : NULL, &next,
				      sizeof(next))) {
		const struct fuse_mount_info *m = NULL;
		char age[32], path[80];

		key = next;
		have = 1;
		if (bpf_map__lookup_elem(t->skel->maps.inflight, &key, sizeof(key), &v, sizeof(v),
					 0) || v.who == FUSE_WHO_OTHER)
			continue;
		if (now < v.t_send + min_age_ns)
			continue;
		for (int i = 0; i < t->nmounts; i++)
			if (t->mounts[i].conn == key.conn)
				m = &t->mounts[i];
		fmt_ns(age, sizeof(age), now - v.t_send);
		snprintf(path, sizeof(path), "/sys/fs/fuse/connections/%u/abort",
			 key.conn & 0xfffff);
		fprintf(out, "iowhy: the workload waits on FUSE (%s, %s) for %s: its daemon has "
			"not answered, and a task waiting on a request its daemon has read cannot "
			"be killed; abort the connection: %secho 1 > %s", m ? m->point : "?",
			fuse_op_name(v.op), age, access(path, F_OK) ?
			"mount -t fusectl none /sys/fs/fuse/connections; " : "", path);
		print_daemons_of(t, key.conn, out);
		fprintf(out, "\n");
		n++;
	}
	return n;
}

int fuse_probes_phase_end(struct fuse_probes *t, int tag, struct phase_result *r)
{
	struct fuse_phase *p;
	struct fuse_lost now;

	if (!t || tag < 0 || tag >= FUSE_MAX_PHASES)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -1;
	p->nfs_probes = t->nfs_probes;
	if (t->skel) {
		t->skel->data->current_phase = FUSE_NO_PHASE;
		read_rows(t, tag, p);
		read_daemons(t, tag, p);
		read_disks(t, tag, p);
		read_tasks(t, tag, p);
		p->unfinished = drop_inflight(t, tag);
		sum_lost(t, &now);
		p->lost.inflight_full = now.inflight_full - t->lost0.inflight_full;
		p->lost.unmatched_end = now.unmatched_end - t->lost0.unmatched_end;
		p->lost.stats_full = now.stats_full - t->lost0.stats_full;
		p->lost.daemon_full = now.daemon_full - t->lost0.daemon_full;
		merge_mounts(t, p);
	}
	r->fuse = p;
	return 0;
}
