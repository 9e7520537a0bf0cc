// SPDX-License-Identifier: GPL-2.0
/*
 * A session: probes attached once; each phase runs in a gated child (released only once every
 * probe is attached and the child is a tree root), its events feed the model, and the results go
 * to the reporters. See session.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "session.h"
#include "progress.h"
#include "session_priv.h"
#include "attach.h"
#include "report.h"
#include "report_html.h"
#include "timeline.h"
#include "summary.h"
#include "clock.h"
#include "cpu_report.h"
#include "core_probes.h"
#include "model.h"
#include "units.h"
#include "io_probes.h"
#include "outfile.h"
#include "workload_group.h"
#include "sampler.h"
#include "fuse_probes.h"
#include "bg_call.h"
#include "vmlinux_btf.h"
#include "consumer_nice.h"
#include "core_btf.h"
#include "prog_runtime.h"
#include "task_clock.h"
#include "vm_child.h"

#define ROOT_DRAIN_NS (1000ull * 1000 * 1000)  /* wait this long for the tree after the root exits */
#define KILL_GRACE_NS (2000ull * 1000 * 1000)  /* SIGINT, then SIGKILL after this */
#define STUCK_HINT_NS (3000ull * 1000 * 1000)  /* still there this long after SIGKILL: say why */

static volatile sig_atomic_t interrupted;
static struct wgroup wg = { .guard_wr = -1, .dir_fd = -1 }; /* the workload's cgroup and guard */
static int home_fd = -1;          /* iowhy's own working directory, to come back to after a hook */
static void (*teardown_fn)(void *);
static void *teardown_arg;

void common_opts_init(struct common_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dir = ".";
	o->repeat = 1;
	o->sample_hz = SAMPLER_DEFAULT_HZ;
	o->timeline_max = TIMELINE_MAX_DEFAULT;
}

int session_interrupted(void)
{
	return interrupted != 0;
}

void session_clear_interrupt(void)
{
	interrupted = 0;
}

int drop_caches(void)
{
	int fd;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		fprintf(stderr, "iowhy: cannot drop caches (%s): results may come from the page cache\n",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000ull + (uint64_t)tv.tv_usec * 1000;
}

static void on_signal(int sig)
{
	interrupted = sig;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

static void on_event(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct phase_ctx *pc = ctx;

	if (!pc->open || e->phase != pc->tag) {
		pc->stray++;
		return;
	}
	model_event(&pc->model, e, comm);
	if (pc->tap)
		pc->tap(pc->tap_ctx, e, comm);
	if (pc->iv)
		interval_event(pc->iv, e, comm);
}

/* fchdir to d and check that "." is the directory d was opened as (device and inode). */
static int enter_dir(const struct phase_dir *d)
{
	struct stat st;

	if (fchdir(d->fd) != 0 || stat(".", &st) != 0)
		return -1;
	if (st.st_dev != d->dev || st.st_ino != d->ino) {
		errno = ESTALE;
		return -1;
	}
	return 0;
}

/* The account the workload runs as (run -u), looked up by the parent before the fork. */
struct run_as {
	const char *name;
	uid_t uid;
	gid_t gid;
	char home[512];
};

/* In the child: drop to the user: groups, gid, uid; HOME, USER, LOGNAME. 0, or -1 (errno). */
static int drop_to(const struct run_as *u)
{
	if (initgroups(u->name, u->gid) != 0 || setgid(u->gid) != 0 || setuid(u->uid) != 0)
		return -1;
	if (setuid(0) == 0 && u->uid != 0) { /* must not be able to come back */
		errno = EPERM;
		return -1;
	}
	setenv("HOME", u->home, 1);
	setenv("USER", u->name, 1);
	setenv("LOGNAME", u->name, 1);
	return 0;
}

/*
 * In the gated child: become what the workload needs (working directory, user, process group),
 * wait for the release, then become the workload. Everything before the release is untraced; after
 * it, a command is one execve of a path resolved beforehand. Never returns. Its messages are
 * written with dprintf: a command's child shares iowhy's memory (command_child).
 */
static void child_main(const struct phase_spec *ps, int gate_rd, int gate_wr, struct phase_facts *facts,
		       pid_t parent, const char *exe, const struct run_as *user)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	char b;

	close(gate_wr);
	if (wg.guard_wr >= 0)
		close(wg.guard_wr); /* only iowhy's death may close the guard's pipe */
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
	if (ps->fn || !wg.path[0])
		setpgid(0, 0); /* one group the session can stop as a whole (run: the cgroup does) */
	consumer_nice_child(); /* the workload at the nice iowhy was started with */
	if (ps->cwd && enter_dir(ps->cwd) != 0) {
		dprintf(2, "iowhy: cannot enter the phase's directory: %s\n", strerror(errno));
		_exit(125);
	}
	if (user && drop_to(user) != 0) {
		dprintf(2, "iowhy: cannot become user %s: %s\n", user->name, strerror(errno));
		_exit(125);
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* after the uid change, which clears it */
	if (getppid() != parent)
		_exit(125);
	if (ps->comm)
		prctl(PR_SET_NAME, ps->comm);
	if (read(gate_rd, &b, 1) != 1)
		_exit(125); /* iowhy gave up before the release */
	/* gate_rd is O_CLOEXEC: no close of the launcher's to count as the workload's */
	if (ps->fn) {
		fflush(NULL);
		_exit(ps->fn(ps->arg, facts) & 0xff);
	}
	if (exe) {
		execv(exe, ps->argv);
		if (errno == ENOEXEC)
			execvp(exe, ps->argv); /* a script without #!: glibc hands it to sh */
	} else {
		execvp(ps->argv[0], ps->argv);
	}
	if (errno == ENOENT && !strchr(ps->argv[0], '/'))
		dprintf(2, "iowhy: %s: command not found\n", ps->argv[0]);
	else
		dprintf(2, "iowhy: %s: %s\n", ps->argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
}

/* A command's child, started with CLONE_VM (vm_child.h): child_main's path for a command without
 * -u uses only what vm_child.h allows (its messages go to fd 2 with dprintf, no stdio). */
struct child_args {
	const struct phase_spec *ps;
	int gate_rd, gate_wr;
	pid_t parent;
	const char *exe;
};

static int command_child(void *arg)
{
	const struct child_args *a = arg;

	child_main(a->ps, a->gate_rd, a->gate_wr, NULL, a->parent, a->exe, NULL);
	return 125;
}

/*
 * The file execvp would run for name (PATH search as execvp does: "" means "."), resolved before
 * the gate so the workload's only execve is the one that succeeds. NULL if there is none (the child
 * then runs execvp for its message and status).
 */
static const char *resolve_command(const char *name, char *buf, size_t n)
{
	const char *path = getenv("PATH");
	struct stat st;

	if (strchr(name, '/'))
		return name;
	if (!path)
		path = "/bin:/usr/bin";
	for (const char *p = path;; p += strcspn(p, ":") + 1) {
		size_t len = strcspn(p, ":");
		int w = snprintf(buf, n, "%.*s%s%s", (int)len, len ? p : ".", "/", name);

		if (w > 0 && (size_t)w < n && stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(buf, X_OK) == 0)
			return buf;
		if (!p[len])
			return NULL;
	}
}

/* Wait (briefly) until the child sleeps in the gate's read, so its seeded state is true. */
static void wait_gated(pid_t pid)
{
	char path[64], buf[512];
	uint64_t until = now_ns() + 500ull * 1000 * 1000;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	while (now_ns() < until) {
		int fd = open(path, O_RDONLY);
		ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
		char *p;

		if (fd >= 0)
			close(fd);
		if (n <= 0)
			return;
		buf[n] = 0;
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			return;
		usleep(200);
	}
}

/* CPU time a task has used so far (ns), from /proc/PID/schedstat; 0 if unknown. */
static uint64_t task_cpu_ns(pid_t pid)
{
	char path[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

void phase_take_model(struct phase_result *r, struct model *m)
{
	r->wall = m->wall;
	r->comms = m->comms;
	r->ncomms = m->ncomms;
	m->comms = NULL;
	m->ncomms = m->capcomms = 0;
	r->events = m->events;
	r->out_of_order = m->out_of_order;
	r->unknown_task = m->unknown_task;
	r->clock_skew_events = m->clock_skew_events;
	r->clock_skew_max_ns = m->clock_skew_max_ns;
	model_free(m);
}

static int wait_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

/* Reap orphans that came to us as subreaper (their CPU time then counts in RUSAGE_CHILDREN). */
static void reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}


/*
 * Stop a phase after Ctrl-C or SIGTERM: SIGINT to the whole workload (its cgroup, and its process
 * group), SIGKILL to all of it after a grace period.
 */
static void stop_child(const struct phase_spec *ps, pid_t pid, int *signalled, uint64_t *deadline)
{
	pid_t target = ps->fn || !wg.path[0] ? -pid : pid;

	if (!*signalled) {
		kill(target, SIGINT);
		wgroup_signal(&wg, SIGINT);
		*signalled = 1;
		*deadline = now_ns() + KILL_GRACE_NS;
	} else if (*signalled == 1 && now_ns() > *deadline) {
		kill(target, SIGKILL);
		wgroup_signal(&wg, SIGKILL);
		*signalled = 2;
	}
}

/* Events lost so far: in the kernel (a full ring) and by the consumer. */
uint64_t session_events_lost(struct session *s)
{
	struct iowhy_counters c;

	core_probes_counters(&s->core, &c);
	return c.events_lost + s->core.dropped;
}

static int run_phase(struct session *s, const struct phase_spec *ps, int idx, struct phase_result *r,
		     const struct run_as *user)
{
	char exe_buf[4096];
	const char *exe = ps->fn ? NULL : resolve_command(ps->argv[0], exe_buf, sizeof(exe_buf));
	struct phase_ctx *pc = &s->pc;
	struct rusage ru0, ru1;
	int gate[2], st = 0, signalled = 0, pidfd, hinted = 0, tclock, in_group = 0;
	uint64_t start, deadline = 0, end, pre_release, tclock0, tclock1, lost0;
	pid_t pid, parent = getpid();
	struct vm_child vc = { 0 };
	struct child_args ca;

	memset(s->shared, 0, sizeof(*s->shared));
	lost0 = session_events_lost(s);
	if (pipe2(gate, O_CLOEXEC)) {
		fprintf(stderr, "iowhy: pipe: %s\n", strerror(errno));
		return -1;
	}
	core_probes_flush(&s->core); /* stragglers of the previous phase */
	pc->tag = idx % IOWHY_MAX_PHASES;
	pc->open = 0;
	fflush(NULL);
	ca = (struct child_args){ ps, gate[0], gate[1], parent, exe }; /* read by the child */
	if (!ps->fn && !user) { /* no fork of iowhy's ~45 MiB, made in the cgroup: vm_child.h */
		pid = vm_child_start_in(&vc, command_child, &ca, wg.dir_fd, &in_group);
	} else {
		pid = fork();
		if (pid == 0)
			child_main(ps, gate[0], gate[1], s->shared, parent, exe, user);
	}
	if (pid < 0) {
		fprintf(stderr, "iowhy: cannot start the workload: %s\n", strerror(errno));
		close(gate[0]);
		close(gate[1]);
		return -1;
	}
	close(gate[0]);
	if (ps->fn || !wg.path[0])
		setpgid(pid, pid);
	if (!in_group)
		wgroup_add(&wg, pid);
	wait_gated(pid);
	if (core_probes_add_root(&s->core, pid, pc->tag, SYS_read)) {
		close(gate[1]);
		waitpid(pid, NULL, 0);
		vm_child_free(&vc);
		return -1;
	}
	tclock = task_clock_open(pid); /* a second witness of the tree's CPU (or none: -1) */
	if (s->io)
		io_probes_phase_begin(s->io, pc->tag);
	if (sampler_active(s->smp))
		sampler_phase_begin(s->smp, pc->tag);
	fuse_probes_phase_begin(s->fuse, pc->tag);
	getrusage(RUSAGE_CHILDREN, &ru0);
	/* rusage will include what the child used before the release (fork, gate): not traced */
	pre_release = task_cpu_ns(pid);
	start = now_ns();
	model_init(&pc->model, start);
	if (s->tl && !timeline_phase_begin(s->tl, ps->name, start))
		model_set_slice_sink(&pc->model, timeline_slice, s->tl);
	model_add_task(&pc->model, pid, pid, ps->comm ? ps->comm : "iowhy", IOWHY_TS_SWAIT, SYS_read);
	model_gate(&pc->model, pid);
	interval_begin(s->iv, s, &pc->model, start, ps->name, pc->tag, 0);
	pc->iv = s->iv;
	pc->open = 1;
	tclock0 = task_clock_read(tclock);
	if (write(gate[1], "g", 1) != 1) {
		fprintf(stderr, "iowhy: cannot release the workload: %s\n", strerror(errno));
		kill(pid, SIGKILL);
	}
	close(gate[1]);
	if (!s->first_release)
		s->first_release = now_ns();
	/* after the release: the statistics' set-up (the first time, a clock calibration) must not
	 * hold the workload at its gate */
	session_cost_begin(s, now_ns());

	pidfd = syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		struct pollfd p = { .fd = pidfd, .events = POLLIN };

		consumer_nice_behind(core_probes_behind(&s->core), now_ns());
		poll(&p, pidfd >= 0 ? 1 : 0, core_probes_poll_ms(&s->core));
		core_probes_drain(&s->core);
		io_probes_poll(s->io);
		interval_poll(s->iv, now_ns());
		session_cost_poll(s, now_ns());
		if (interrupted)
			stop_child(ps, pid, &signalled, &deadline);
		if (signalled == 2 && !hinted && now_ns() > deadline + STUCK_HINT_NS)
			hinted = fuse_probes_stuck(s->fuse, STUCK_HINT_NS, stderr) >= 0;
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
	}
	if (pidfd >= 0)
		close(pidfd);
	vm_child_free(&vc); /* reaped */
	r->status = wait_status(st);
	r->partial = interrupted != 0;

	/* The root is gone; give the rest of the tree a moment, reaping orphans as subreaper. */
	end = now_ns() + (interrupted ? ROOT_DRAIN_NS / 5 : ROOT_DRAIN_NS);
	do {
		reap_orphans();
		core_probes_flush(&s->core); /* the root is gone: deliver all, the tree's last events too */
		if (!pc->model.live)
			break;
		usleep(1000);
	} while (now_ns() < end);
	if ((ps->fn || !wg.path[0]) && pc->model.live)
		kill(-pid, SIGKILL);
	if (interrupted)
		wgroup_signal(&wg, SIGKILL); /* nothing of an interrupted workload lives on */
	getrusage(RUSAGE_CHILDREN, &ru1);
	tclock1 = task_clock_read(tclock);
	if (tclock >= 0)
		close(tclock);

	end = pc->model.live ? now_ns() : pc->model.last_dead_ns;
	session_cost_end(s, now_ns(), r);
	r->tasks_left = pc->model.live;
	model_finish(&pc->model, end);
	if (s->tl)
		timeline_phase_end(s->tl, pc->model.wall.end_ns);
	interval_end(s->iv, r);
	pc->iv = NULL;
	pc->open = 0;
	phase_take_model(r, &pc->model);
	r->events_lost = session_events_lost(s) - lost0;
	r->rusage_user_ns = tv_ns(ru1.ru_utime) - tv_ns(ru0.ru_utime);
	r->rusage_sys_ns = tv_ns(ru1.ru_stime) - tv_ns(ru0.ru_stime);
	r->rusage_sys_ns -= pre_release < r->rusage_sys_ns ? pre_release : r->rusage_sys_ns;
	r->task_clock_ok = tclock0 != UINT64_MAX && tclock1 != UINT64_MAX && tclock1 >= tclock0;
	r->task_clock_ns = r->task_clock_ok ? tclock1 - tclock0 : 0;
	core_probes_sys_stats(&s->core, pc->tag, r->sys);
	core_probes_reset_sys_stats(&s->core, pc->tag);
	if (s->io)
		io_probes_phase_end(s->io, pc->tag, r);
	if (s->tl && r->io && timeline_devices(s->tl, r->io))
		fprintf(stderr, "iowhy: --timeline: out of memory for the devices' names\n");
	if (sampler_active(s->smp) && (r->samples = sampler_phase_end(s->smp, pc->tag,
						      ps->argv ? ps->argv[0] : NULL)))
		cpu_samples_split_phase(r->samples, r);
	fuse_probes_phase_end(s->fuse, pc->tag, r);
	r->facts = *s->shared;
	return 0;
}

static void fill_header(struct session_result *res, const char *tool, const char *command,
			const struct session *s)
{
	struct utsname u;
	struct iowhy_counters c;

	res->tool = tool;
	snprintf(res->command, sizeof(res->command), "%s", command);
	if (!uname(&u))
		snprintf(res->kernel, sizeof(res->kernel), "%s", u.release);
	snprintf(res->probe_mode, sizeof(res->probe_mode), "%s", core_probes_mode(&s->core));
	memcpy(res->disk_names, s->core.disk_names, sizeof(res->disk_names));
	core_probes_missing(&s->core, &res->missing);
	io_probes_missing(s->io, &res->missing);
	sampler_missing(s->smp, &res->missing);
	fuse_probes_missing(s->fuse, &res->missing);
	interval_missing(s->iv, &res->missing);
	probe_set_add_times(&s->core.probes, &res->probe_times);
	probe_set_add_times(io_probes_set(s->io), &res->probe_times);
	probe_set_add_times(sampler_probe_set(s->smp), &res->probe_times);
	probe_set_add_times(fuse_probes_set(s->fuse), &res->probe_times);
	{
		struct core_btf_stats cb;

		core_btf_stats(&cb);
		res->probe_times.core_btf_types = cb.types;
		res->probe_times.core_btf_ns = cb.make_ns;
	}
	consumer_nice_stats(&res->probe_times.consumer_nice, &res->probe_times.consumer_raised_ns,
			    now_ns());
	core_probes_counters((struct core_probes *)&s->core, &c);
	res->events_lost = c.events_lost + s->core.dropped;
	res->storage_failed = c.storage_failed;
	res->nr_folded = c.nr_folded;
	res->hidden_switches = c.hidden_switches;
	res->hidden_at_event = c.hidden_at_event;
	res->hidden_outs = c.hidden_outs;
	res->dwait_no_file = c.dwait_no_file;
	res->dwait_inflight = c.dwait_inflight;
	res->test_hidden = c.test_hidden;
	res->events_total = s->core.received;
	res->events_late = core_probes_late(&s->core);
	res->lite = s->core.lite;
	res->event_cost_ps = s->core.event_cost_ps;
	res->event_rings = (uint64_t)s->core.rings.n;
	res->event_ring_bytes = s->core.rings.bytes;
	/* the consumer samples the fill at its turns and can miss the top; a reservation fails only in
	 * a full ring, so a run that lost events in the kernel had one full */
	res->event_ring_peak = c.events_lost && s->core.rings.bytes > s->core.rings.peak ?
				       s->core.rings.bytes : s->core.rings.peak;
	res->io_stat_rows = (uint64_t)io_probes_stats_rows(s->io);
	io_probes_sweeps(s->io, &res->io_sweeps, &res->io_sweep_ns);
}

static void free_results(struct session_result *res)
{
	summary_free(res);
	for (int i = 0; i < res->nphases; i++) {
		free(res->phases[i].comms);
		free(res->phases[i].procs);
		free(res->phases[i].cgroups);
		free(res->phases[i].slow);
		io_result_free(res->phases[i].io);
		cpu_samples_free(res->phases[i].samples);
		fuse_phase_free(res->phases[i].fuse);
	}
	free(res->phases);
}

/*
 * iowhy's exit status: the command's for `run`, else 1 if any phase failed; 128 + the signal when
 * interrupted (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP).
 */
static int session_status(const char *tool, const struct session_result *res, int failed)
{
	if (interrupted)
		return 128 + interrupted;
	if (failed)
		return failed;
	for (int i = 0; i < res->nphases; i++) {
		const struct phase_result *p = &res->phases[i];

		if (!strcmp(tool, "run") && p->kind == PHASE_WORK) {
			if (p->status)  /* with --repeat: the first run that failed */
				return p->status;
			continue;
		}
		if (p->status)
			return 1;
	}
	return 0;
}

/* Where the reports go: the files are opened (safely) before anything runs. */
struct report_files {
	FILE *text;  /* the text report's stream */
	FILE *json;  /* --json FILE's stream; NULL without --json or with --json - */
	FILE *html;  /* --html FILE's stream, else NULL */
	FILE *timeline; /* --timeline FILE's stream, else NULL */
};

static void reports_close(struct report_files *rf)
{
	if (rf->text && rf->text != stdout && rf->text != stderr)
		fclose(rf->text);
	if (rf->json)
		fclose(rf->json);
	if (rf->html)
		fclose(rf->html);
	if (rf->timeline)
		fclose(rf->timeline);
	*rf = (struct report_files){ 0 };
}

/*
 * The text report goes to -o FILE; else to stderr for `run` (the command owns stdout and stderr
 * is where strace, time and perf stat write too) and when the JSON owns stdout (--json -); else
 * to stdout. 0, or 2 after one line.
 */
static int reports_open(const char *tool, const struct common_opts *o, struct report_files *rf)
{
	int json_stdout = o->json_path && !strcmp(o->json_path, "-");

	*rf = (struct report_files){ 0 };
	if (o->json_path && !json_stdout &&
	    !(rf->json = outfile_open(tool, "--json", o->json_path)))
		return 2;
	if ((o->html_path && !(rf->html = outfile_open(tool, "--html", o->html_path))) ||
	    (o->timeline_path &&
	     !(rf->timeline = outfile_open(tool, "--timeline", o->timeline_path)))) {
		reports_close(rf);
		return 2;
	}
	if (o->text_path)
		rf->text = outfile_open(tool, "-o", o->text_path);
	else
		rf->text = !strcmp(tool, "run") || json_stdout ? stderr : stdout;
	if (!rf->text) {
		reports_close(rf);
		return 2;
	}
	return 0;
}

/* Both reports; 0, or -1 when one could not be written (message printed). */
static int reports_write(struct report_files *rf, const struct common_opts *o,
			 const struct session_result *res)
{
	struct report_options ro = { .detail = o->detail };
	int rc = 0;

	report_text(rf->text, res, &ro);
	if (fflush(rf->text) == EOF || ferror(rf->text)) {
		fprintf(stderr, "iowhy: cannot write the text report%s%s: %s\n",
			o->text_path ? " to " : "", o->text_path ? o->text_path : "", strerror(errno));
		rc = -1;
	}
	if (rf->json) {
		FILE *j = rf->json;

		rf->json = NULL; /* report_json_file closes it */
		if (report_json_file(j, o->json_path, res))
			rc = -1;
	} else if (o->json_path && report_json_stdout(res)) {
		rc = -1;
	}
	return rc;
}

/* --folded FILE (and FILE.offcpu), opened as safely as the other reports. 0, or -1 (message). */
static int write_folded(const char *tool, const char *path, const struct session_result *res)
{
	char off_name[4096];
	FILE *on, *off = NULL;

	if (cpu_report_has_offcpu(res)) {
		if ((size_t)snprintf(off_name, sizeof(off_name), "%s.offcpu", path) >= sizeof(off_name)) {
			fprintf(stderr, "iowhy %s: --folded %s: name too long\n", tool, path);
			return -1;
		}
		if (!(off = outfile_open(tool, "--folded", off_name)))
			return -1;
	}
	if (!(on = outfile_open(tool, "--folded", path))) {
		if (off)
			fclose(off);
		return -1;
	}
	return cpu_report_folded(on, path, off, off_name, res);
}

void session_on_teardown(void (*fn)(void *), void *arg)
{
	teardown_fn = fn;
	teardown_arg = arg;
}

/* Look up the account a phase runs as. 0, or -1 after a one-line message. */
static int lookup_user(const char *tool, const char *name, struct run_as *u)
{
	struct passwd *pw;

	errno = 0;
	pw = getpwnam(name);
	if (!pw) {
		fprintf(stderr, "iowhy %s: -u %s: %s\n", tool, name,
			errno ? strerror(errno) : "no such user");
		return -1;
	}
	u->name = name;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	snprintf(u->home, sizeof(u->home), "%s", pw->pw_dir ? pw->pw_dir : "/");
	return 0;
}

/* Every phase's user exists, and only root can switch to one. 0, or 2 after a message. */
static int check_users(const char *tool, const struct phase_spec *phases, int nphases)
{
	struct run_as u;

	for (int i = 0; i < nphases; i++) {
		if (!phases[i].user)
			continue;
		if (lookup_user(tool, phases[i].user, &u) != 0)
			return 2;
		if (geteuid() != 0) {
			fprintf(stderr, "iowhy %s: -u %s needs root\n", tool, phases[i].user);
			return 2;
		}
	}
	return 0;
}

/* Run a before/after hook in the phase's directory (if it has one), then come back. */
static int run_hook(const struct phase_spec *ps, int (*call)(const struct phase_spec *, void *),
		    void *facts)
{
	int rc;

	if (ps->cwd && enter_dir(ps->cwd) != 0) {
		fprintf(stderr, "iowhy: the scratch directory is gone or was replaced (%s); stopping\n",
			strerror(errno));
		if (home_fd >= 0 && fchdir(home_fd) != 0)
			return 1;
		return 1;
	}
	rc = call(ps, facts);
	if (ps->cwd && home_fd >= 0 && fchdir(home_fd) != 0) {
		fprintf(stderr, "iowhy: cannot return to the working directory: %s\n", strerror(errno));
		rc = rc ? rc : 1;
	}
	return rc;
}

static int call_before(const struct phase_spec *ps, void *facts)
{
	(void)facts;
	return ps->before(ps->arg);
}

static int call_after(const struct phase_spec *ps, void *facts)
{
	return ps->after(ps->arg, facts);
}

/* Close what session_main opened before the probes. */
static void session_close_group(void)
{
	wgroup_close(&wg, interrupted != 0);
	if (home_fd >= 0)
		close(home_fd);
	home_fd = -1;
}

/* prog_runtime's view of the session's programs (the I/O set's once its thread has loaded it). */
static int cost_progs(void *ctx, struct prog_ref *progs, int max)
{
	struct session *s = ctx;
	const struct probe_set *all[] = { &s->core.probes, io_probes_set(s->io),
					  sampler_probe_set(s->smp), fuse_probes_set(s->fuse) };

	return prog_runtime_sets_progs(all, sizeof(all) / sizeof(all[0]), progs, max);
}

/* This process's CPU time so far, every thread (user + system). */
static uint64_t self_cpu_ns(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
}

void session_cost_begin(struct session *s, uint64_t now)
{
	s->cost_cpu0 = self_cpu_ns();
	if (!s->prt)
		s->prt = prog_runtime_new(cost_progs, s, !getenv("IOWHY_NO_PROG_STATS"));
	prog_runtime_begin(s->prt, now);
}

void session_cost_poll(struct session *s, uint64_t now)
{
	prog_runtime_poll(s->prt, now);
}

void session_cost_end(struct session *s, uint64_t now, struct phase_result *r)
{
	struct prog_runtime_phase p = prog_runtime_end(s->prt, now);

	r->prog_run_ns = p.run_ns;
	r->prog_runs = p.runs;
	r->prog_on_ns = p.on_ns;
	r->prog_windows = p.windows;
	r->prog_missed = p.missed;
	r->prog_missed_top = p.missed_top;
	snprintf(r->prog_missed_top_name, sizeof(r->prog_missed_top_name), "%s", p.missed_top_name);
	r->tracer_cpu_ns = self_cpu_ns() - s->cost_cpu0;
}

void session_cost_free(struct session *s)
{
	prog_runtime_free(s->prt);
	s->prt = NULL;
}

/* Undo what session_main set up before its phases, in reverse; returns rc (an error path). */
static int session_unwind(struct session *s, struct report_files *rf, struct phase_result *phases,
			  int core_open, int rc)
{
	timeline_free(s->tl);
	if (s->shared && s->shared != MAP_FAILED)
		munmap(s->shared, sizeof(*s->shared));
	free(phases);
	session_cost_free(s);
	fuse_probes_close(s->fuse);
	sampler_close(s->smp);
	io_probes_close(s->io);
	if (core_open)
		core_probes_close(&s->core);
	session_close_group();
	interval_close(s->iv);
	reports_close(rf);
	return rc;
}

/* The I/O probes' loading, and the FUSE probes', each in a thread of its own (bg_call) while the
 * core and the sampler load and the core attaches in the caller's. */
struct io_open_arg {
	struct session *s;
	int timeline;              /* --timeline: keep each request's record */
};

static int open_io(void *arg)
{
	struct io_open_arg *a = arg;

	return io_probes_open_timeline(&a->s->io, &a->s->core, a->timeline);
}

static int open_fuse(void *arg)
{
	struct session *s = arg;

	fuse_probes_open(&s->fuse, &s->core); /* optional: never fails (NULL when out of memory) */
	return 0;
}

/* Start both loads (none with --no-io). */
static void start_io_loads(struct session *s, const struct common_opts *o, struct bg_call *io,
			   struct bg_call *fuse, struct io_open_arg *arg)
{
	if (o->no_io)
		return;
	bg_call_start(io, open_io, arg);
	bg_call_start(fuse, open_fuse, s);
}

/* Wait for both: the I/O load's result (FUSE's is optional). */
static int wait_io_loads(struct bg_call *io, struct bg_call *fuse)
{
	int rc = bg_call_wait(io);

	bg_call_wait(fuse);
	return rc;
}

static uint64_t process_start_ns;

void session_note_process_start(void)
{
	process_start_ns = now_ns();
}

int session_main(const char *tool, const char *command, struct phase_spec *phases, int nphases,
		 const struct common_opts *o)
{
	struct session s = { 0 };
	struct session_result res = { 0 };
	struct report_files rf;
	struct bg_call io_load = { 0 }, fuse_load = { 0 };
	struct io_open_arg io_arg = { &s, o->timeline_path != NULL };
	uint64_t detach0;
	int failed = 0, rc;
	uint64_t t0;

	if (nphases < 1 || nphases > SESSION_MAX_PHASES) {
		fprintf(stderr, "iowhy %s: %d runs asked for; a session runs 1 to %d\n", tool, nphases,
			SESSION_MAX_PHASES);
		return 2;
	}
	if ((rc = check_users(tool, phases, nphases)))
		return rc;
	progress_set_quiet(o->detail < 0 || o->interval_ns); /* -q; live blocks own the terminal */
	if (reports_open(tool, o, &rf))
		return 2;
	if (o->folded_path && o->no_sample) {
		fprintf(stderr, "iowhy %s: --folded needs the CPU samples: drop --no-sample\n", tool);
		reports_close(&rf);
		return 2;
	}
	s.iv = interval_open(tool, o, &rc);
	if (rc) {
		reports_close(&rf);
		return rc;
	}
	install_signals();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	home_fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* the workload group's guard is forked first, while iowhy is small (after the checks: an
	 * unprivileged run gets their one line only). A fork copies the page tables and makes every
	 * private page copy-on-write, so that iowhy's first write to each page faults afterwards:
	 * 2-4 ms once the probes are loaded. The guard closes every fd but its pipe: it never
	 * holds a probe. */
	if (core_probes_check())
		return session_unwind(&s, &rf, NULL, 0, 1);
	consumer_nice_init(); /* the rings' consumer raised while behind (consumer_nice.h) */
	if (!phases[0].attach) /* attach starts nothing: no workload group, no guard */
		wgroup_open(&wg);
	core_probes_configure_io(!o->no_io);
	if (core_probes_prepare(&s.core, on_event, &s.pc, nphases))
		return session_unwind(&s, &rf, NULL, 0, 1);
	/* the tree's maps exist: the I/O and the FUSE probes load in threads of their own while
	 * the core and then the sampler load here and the core attaches; the core calibrates once
	 * those threads are done (nothing beside it), then the sampler attaches (after the core: in
	 * raw_tp its sched_switch program runs after the core's; in tp_btf it turns on the core's
	 * off-CPU work) */
	start_io_loads(&s, o, &io_load, &fuse_load, &io_arg);
	rc = core_probes_load_objects(&s.core);
	if (rc == 1) { /* the core loads only as raw_tp here: the I/O and FUSE probes again so */
		wait_io_loads(&io_load, &fuse_load);
		fuse_probes_close(s.fuse);
		io_probes_close(s.io);
		s.fuse = NULL;
		s.io = NULL;
		rc = core_probes_fall_back(&s.core);
		if (!rc)
			start_io_loads(&s, o, &io_load, &fuse_load, &io_arg);
	}
	if (rc) {
		wait_io_loads(&io_load, &fuse_load);
		return session_unwind(&s, &rf, NULL, 1, 1);
	}
	rc = !o->no_sample && sampler_load(&s.smp, &s.core, o->sample_hz);
	if (core_probes_start(&s.core)) {
		wait_io_loads(&io_load, &fuse_load);
		return session_unwind(&s, &rf, NULL, 0, 1);
	}
	if (wait_io_loads(&io_load, &fuse_load) || rc)
		return session_unwind(&s, &rf, NULL, 1, 1);
	if (core_probes_calibrate(&s.core))
		return session_unwind(&s, &rf, NULL, 0, 1);
	sampler_attach(s.smp);
	vmlinux_btf_release(); /* loaded: the kernel's BTF bytes are not kept through the run */
	interval_load_probes(s.iv, &s.core); /* --slow: the kernel's side of slow calls */
	probe_skip_warn_unknown(getenv("IOWHY_SKIP_PROBES"),
				(const struct probe_set *[]){ &s.core.probes, io_probes_set(s.io),
								 sampler_probe_set(s.smp),
								 fuse_probes_set(s.fuse) }, 4);
	if (core_probes_dontfork_mappings(&s.core))
		return session_unwind(&s, &rf, NULL, 1, 1);
	s.shared = mmap(NULL, sizeof(*s.shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	res.phases = calloc(nphases, sizeof(*res.phases));
	if (o->timeline_path)
		s.tl = timeline_new(o->timeline_max);
	if (s.shared == MAP_FAILED || !res.phases || (o->timeline_path && !s.tl)) {
		fprintf(stderr, "iowhy: out of memory\n");
		return session_unwind(&s, &rf, res.phases, 1, 1);
	}
	if (s.tl) /* the devices' requests and the dirty bytes */
		io_probes_set_sink(s.io, &(struct io_timeline_sink){ timeline_request,
								      timeline_dirty, s.tl });
	for (int i = 0; i < nphases && !interrupted; i++) {
		struct phase_spec *ps = &phases[i];
		struct phase_result *r = &res.phases[res.nphases];
		struct run_as user;

		t0 = now_ns();
		rc = ps->before ? run_hook(ps, call_before, NULL) : 0;
		res.setup_ns += ps->before ? now_ns() - t0 : 0;
		if (rc) {
			failed = rc;
			break;
		}
		if (interrupted)
			break; /* no phase starts after an interrupt */
		if (ps->user && lookup_user(tool, ps->user, &user) != 0) {
			failed = 2;
			break;
		}
		snprintf(r->name, sizeof(r->name), "%s", ps->name);
		snprintf(r->column, sizeof(r->column), "%.*s", (int)sizeof(r->column) - 1,
			 ps->column[0] ? ps->column : ps->name); /* a name may be longer: cut */
		r->kind = ps->kind;
		rc = ps->attach ? attach_run_phase(&s, ps, i, r) :
				  run_phase(&s, ps, i, r, ps->user ? &user : NULL);
		if (rc) {
			failed = rc > 0 ? rc : 1; /* attach: 2 for a target that vanished */
			break;
		}
		res.nphases++;
		t0 = now_ns();
		if (ps->after && !interrupted && run_hook(ps, call_after, &r->facts))
			failed = 1;
		res.teardown_ns += ps->after ? now_ns() - t0 : 0;
	}
	res.partial = interrupted != 0;
	fill_header(&res, tool, command, &s);
	if (s.first_release && process_start_ns && s.first_release > process_start_ns)
		res.probe_times.start_ns = s.first_release - process_start_ns;
	if (s.tl)
		timeline_requests_lost(s.tl, io_probes_requests_lost(s.io));
	detach0 = now_ns();
	session_cost_free(&s);
	fuse_probes_close(s.fuse);
	sampler_close(s.smp);
	io_probes_close(s.io);
	core_probes_close(&s.core);
	res.probe_times.detach_ns = now_ns() - detach0;
	munmap(s.shared, sizeof(*s.shared));
	if (interval_close(s.iv) && !failed)
		failed = 1;
	session_close_group();
	if (teardown_fn) {
		t0 = now_ns();
		teardown_fn(teardown_arg); /* e.g. removing the scratch area: part of the untraced time */
		res.teardown_ns += now_ns() - t0;
	}
	teardown_fn = NULL;

	if (res.nphases) {
		if (summary_compute(&res))
			fprintf(stderr, "iowhy: out of memory for the summary: raw numbers only\n");
		if (reports_write(&rf, o, &res) && !failed)
			failed = 1;
		if (o->folded_path && write_folded(tool, o->folded_path, &res) && !failed)
			failed = 1;
		if (rf.html && report_html_stream(rf.html, o->html_path, &res) && !failed)
			failed = 1;
		rf.html = NULL; /* closed by report_html_stream */
		if (rf.timeline && s.tl &&
		    timeline_write_stream(rf.timeline, o->timeline_path, s.tl, res.command) && !failed)
			failed = 1;
		else if (s.tl && (timeline_dropped(s.tl) || timeline_requests_dropped(s.tl)))
			fprintf(stderr, "iowhy: --timeline %s: cut at %llu slices (--timeline-max); %llu "
				"later slices and %llu requests left out\n", o->timeline_path,
				(unsigned long long)timeline_slices(s.tl),
				(unsigned long long)timeline_dropped(s.tl),
				(unsigned long long)timeline_requests_dropped(s.tl));
		if (s.tl)
			rf.timeline = NULL; /* closed by timeline_write_stream */
	}
	reports_close(&rf);
	if (!res.nphases && interrupted)
		fprintf(stderr, "iowhy %s: interrupted during setup, before any phase: nothing traced\n",
			tool);
	rc = session_status(tool, &res, failed);
	timeline_free(s.tl);
	free_results(&res);
	return rc;
}
