// SPDX-License-Identifier: GPL-2.0
/*
 * A session: probes attached once; each phase runs in a gated child (released only once every
 * probe is attached and the child is a tree root), its events feed the model, and the results go
 * to the reporters. See session.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include "session.h"
#include "report.h"
#include "explain.h"
#include "core_probes.h"
#include "model.h"
#include "units.h"
#include "io_probes.h"

#define ROOT_DRAIN_NS (1000ull * 1000 * 1000)  /* wait this long for the tree after the root exits */
#define KILL_GRACE_NS (2000ull * 1000 * 1000)  /* SIGINT, then SIGKILL after this */

static volatile sig_atomic_t interrupted;

const char common_opts_help[] =
	"  --json FILE      also write the report as JSON (docs/json.md)\n"
	"  --dir DIR        where the scratch directory goes (default: current directory)\n"
	"  --repeat R       run each case R times; report the mean without best and worst\n"
	"  --drop-caches    drop the page cache before each run (root)\n"
	"  --no-io          core probes only: no block layer / page cache tracing\n";

void common_opts_init(struct common_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dir = ".";
	o->repeat = 1;
}

/* "--name VALUE" or "--name=VALUE": returns the value, advancing *i, or NULL if not this option. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *err)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		fprintf(stderr, "iowhy: %s needs a value\n", name);
		*err = 1;
		return NULL;
	}
	return argv[++*i];
}

int common_opt(int argc, char **argv, int *i, struct common_opts *o)
{
	const char *v;
	int err = 0;

	if ((v = opt_value(argc, argv, i, "--json", &err))) {
		o->json_path = v;
		return 1;
	}
	if (!err && (v = opt_value(argc, argv, i, "--dir", &err))) {
		o->dir = v;
		return 1;
	}
	if (!err && (v = opt_value(argc, argv, i, "--repeat", &err))) {
		uint64_t r;
		char msg[160];

		if (parse_count(v, 100, &r, msg, sizeof(msg))) {
			fprintf(stderr, "iowhy: --repeat: %s\n", msg);
			return -1;
		}
		o->repeat = (int)r;
		return 1;
	}
	if (err)
		return -1;
	if (!strcmp(argv[*i], "--drop-caches")) {
		o->drop_caches = 1;
		return 1;
	}
	if (!strcmp(argv[*i], "--no-io")) {
		o->no_io = 1;
		return 1;
	}
	return 0;
}

int session_interrupted(void)
{
	return interrupted != 0;
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

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
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

/* The phase whose model takes the events; events of any other phase are counted as stray. */
struct phase_ctx {
	struct model model;
	int tag;          /* phase index mod IOWHY_MAX_PHASES, as the BPF side tags events */
	int open;
	uint64_t stray;
};

static void on_event(void *ctx, const struct iowhy_event *e, const char *comm)
{
	struct phase_ctx *pc = ctx;

	if (!pc->open || e->phase != pc->tag) {
		pc->stray++;
		return;
	}
	model_event(&pc->model, e, comm);
}

/* In the gated child: wait for the release, then become the workload. Never returns. */
static void child_main(const struct phase_spec *ps, int gate_rd, int gate_wr, struct phase_facts *facts,
		       pid_t parent)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	char b;

	close(gate_wr);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
	if (ps->fn)
		setpgid(0, 0); /* built-in workloads: one group the session can stop as a whole */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(125);
	if (ps->comm)
		prctl(PR_SET_NAME, ps->comm);
	if (read(gate_rd, &b, 1) != 1)
		_exit(125); /* iowhy gave up before the release */
	close(gate_rd);
	if (ps->fn) {
		fflush(NULL);
		_exit(ps->fn(ps->arg, facts) & 0xff);
	}
	execvp(ps->argv[0], ps->argv);
	if (errno == ENOENT && !strchr(ps->argv[0], '/'))
		fprintf(stderr, "iowhy: %s: command not found\n", ps->argv[0]);
	else
		fprintf(stderr, "iowhy: %s: %s\n", ps->argv[0], strerror(errno));
	_exit(errno == ENOENT ? 127 : 126);
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

struct session {
	struct tracer tracer;
	struct io_tracer *io;
	struct phase_ctx pc;
	struct phase_facts *shared;   /* MAP_SHARED: the child writes its facts here */
};

/* Stop a phase after Ctrl-C: SIGINT to the workload, SIGKILL after a grace period. */
static void stop_child(const struct phase_spec *ps, pid_t pid, int *signalled, uint64_t *deadline)
{
	pid_t target = ps->fn ? -pid : pid;

	if (!*signalled) {
		kill(target, SIGINT);
		*signalled = 1;
		*deadline = now_ns() + KILL_GRACE_NS;
	} else if (*signalled == 1 && now_ns() > *deadline) {
		kill(target, SIGKILL);
		*signalled = 2;
	}
}

static int run_phase(struct session *s, const struct phase_spec *ps, int idx, struct phase_result *r)
{
	struct phase_ctx *pc = &s->pc;
	struct rusage ru0, ru1;
	int gate[2], st = 0, signalled = 0, pidfd;
	uint64_t start, deadline = 0, end, pre_release;
	pid_t pid, parent = getpid();

	memset(s->shared, 0, sizeof(*s->shared));
	if (pipe2(gate, O_CLOEXEC)) {
		fprintf(stderr, "iowhy: pipe: %s\n", strerror(errno));
		return -1;
	}
	tracer_flush(&s->tracer); /* stragglers of the previous phase */
	pc->tag = idx % IOWHY_MAX_PHASES;
	pc->open = 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "iowhy: fork: %s\n", strerror(errno));
		close(gate[0]);
		close(gate[1]);
		return -1;
	}
	if (pid == 0)
		child_main(ps, gate[0], gate[1], s->shared, parent);
	close(gate[0]);
	if (ps->fn)
		setpgid(pid, pid);
	wait_gated(pid);
	if (tracer_add_root(&s->tracer, pid, pc->tag, SYS_read)) {
		close(gate[1]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	if (s->io)
		io_tracer_phase_begin(s->io, pc->tag);
	getrusage(RUSAGE_CHILDREN, &ru0);
	/* rusage will include what the child used before the release (fork, gate): not traced */
	pre_release = task_cpu_ns(pid);
	start = now_ns();
	model_init(&pc->model, start);
	model_add_task(&pc->model, pid, pid, ps->comm ? ps->comm : "iowhy", IOWHY_TS_SWAIT, SYS_read);
	pc->open = 1;
	if (write(gate[1], "g", 1) != 1) {
		fprintf(stderr, "iowhy: cannot release the workload: %s\n", strerror(errno));
		kill(pid, SIGKILL);
	}
	close(gate[1]);

	pidfd = syscall(SYS_pidfd_open, pid, 0);
	for (;;) {
		struct pollfd p = { .fd = pidfd, .events = POLLIN };

		poll(&p, pidfd >= 0 ? 1 : 0, 20);
		tracer_drain(&s->tracer);
		if (interrupted)
			stop_child(ps, pid, &signalled, &deadline);
		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
	}
	if (pidfd >= 0)
		close(pidfd);
	r->status = wait_status(st);
	r->partial = interrupted != 0;

	/* The root is gone; give the rest of the tree a moment, reaping orphans as subreaper. */
	end = now_ns() + (interrupted ? ROOT_DRAIN_NS / 5 : ROOT_DRAIN_NS);
	do {
		reap_orphans();
		tracer_flush(&s->tracer); /* the root is gone: deliver all, the tree's last events too */
		if (!pc->model.live)
			break;
		usleep(1000);
	} while (now_ns() < end);
	if (ps->fn && pc->model.live)
		kill(-pid, SIGKILL);
	getrusage(RUSAGE_CHILDREN, &ru1);

	end = pc->model.live ? now_ns() : pc->model.last_dead_ns;
	r->tasks_left = pc->model.live;
	model_finish(&pc->model, end);
	pc->open = 0;
	r->wall = pc->model.wall;
	r->comms = pc->model.comms;
	r->ncomms = pc->model.ncomms;
	pc->model.comms = NULL;
	pc->model.ncomms = pc->model.capcomms = 0;
	r->events = pc->model.events;
	r->out_of_order = pc->model.out_of_order;
	r->unknown_task = pc->model.unknown_task;
	model_free(&pc->model);
	r->rusage_user_ns = tv_ns(ru1.ru_utime) - tv_ns(ru0.ru_utime);
	r->rusage_sys_ns = tv_ns(ru1.ru_stime) - tv_ns(ru0.ru_stime);
	r->rusage_sys_ns -= pre_release < r->rusage_sys_ns ? pre_release : r->rusage_sys_ns;
	tracer_sys_stats(&s->tracer, pc->tag, r->sys);
	tracer_reset_sys_stats(&s->tracer, pc->tag);
	if (s->io)
		io_tracer_phase_end(s->io, pc->tag, r);
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
	snprintf(res->probe_mode, sizeof(res->probe_mode), "%s", tracer_mode(&s->tracer));
	snprintf(res->missing, sizeof(res->missing), "%s", s->tracer.missing);
	memcpy(res->disk_names, s->tracer.disk_names, sizeof(res->disk_names));
	if (s->io && io_tracer_missing(s->io)[0]) {
		if (res->missing[0])
			strncat(res->missing, ",", sizeof(res->missing) - strlen(res->missing) - 1);
		strncat(res->missing, io_tracer_missing(s->io),
			sizeof(res->missing) - strlen(res->missing) - 1);
	}
	tracer_counters((struct tracer *)&s->tracer, &c);
	res->events_lost = c.events_lost + s->tracer.dropped;
	res->storage_failed = c.storage_failed;
	res->nr_folded = c.nr_folded;
	res->events_total = s->tracer.received;
}

static void free_results(struct session_result *res)
{
	for (int i = 0; i < res->nphases; i++) {
		free(res->phases[i].comms);
		io_result_free(res->phases[i].io);
	}
	free(res->phases);
}

/* iowhy's exit status: the command's for `run`, else 1 if any phase failed; 130 when interrupted. */
static int session_status(const char *tool, const struct session_result *res, int failed)
{
	if (interrupted)
		return 130;
	if (failed)
		return failed;
	for (int i = 0; i < res->nphases; i++) {
		const struct phase_result *p = &res->phases[i];

		if (!strcmp(tool, "run") && p->kind == PHASE_WORK)
			return p->status;
		if (p->status)
			return 1;
	}
	return 0;
}

/* --json FILE must be writable before anything runs: a report lost at the end wastes the run. */
static int json_path_ok(const char *path)
{
	char dir[4096], *slash;

	if (!path || !strcmp(path, "-"))
		return 1;
	if (!access(path, F_OK))
		return !access(path, W_OK) || (fprintf(stderr, "iowhy: --json %s: %s\n", path,
							strerror(errno)), 0);
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = 0;
	else
		*slash = 0;
	if (access(dir, W_OK)) {
		fprintf(stderr, "iowhy: --json %s: cannot create it: %s\n", path, strerror(errno));
		return 0;
	}
	return 1;
}

int session_main(const char *tool, const char *command, struct phase_spec *phases, int nphases,
		 const struct common_opts *o)
{
	struct session s = { 0 };
	struct session_result res = { 0 };
	int failed = 0, rc;

	if (nphases < 1 || nphases > SESSION_MAX_PHASES) {
		fprintf(stderr, "iowhy %s: %d runs asked for; a session runs 1 to %d\n", tool, nphases,
			SESSION_MAX_PHASES);
		return 2;
	}
	if (!json_path_ok(o->json_path))
		return 2;
	install_signals();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (tracer_open(&s.tracer, on_event, &s.pc))
		return 1;
	if (!o->no_io && io_tracer_open(&s.io, &s.tracer)) {
		tracer_close(&s.tracer);
		return 1;
	}
	tracer_dontfork_mappings();
	s.shared = mmap(NULL, sizeof(*s.shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
	res.phases = calloc(nphases, sizeof(*res.phases));
	if (s.shared == MAP_FAILED || !res.phases) {
		fprintf(stderr, "iowhy: out of memory\n");
		io_tracer_close(s.io);
		tracer_close(&s.tracer);
		return 1;
	}
	for (int i = 0; i < nphases && !interrupted; i++) {
		struct phase_spec *ps = &phases[i];
		struct phase_result *r = &res.phases[res.nphases];

		if (ps->before && (rc = ps->before(ps->arg))) {
			failed = rc;
			break;
		}
		snprintf(r->name, sizeof(r->name), "%s", ps->name);
		snprintf(r->column, sizeof(r->column), "%.*s", (int)sizeof(r->column) - 1,
			 ps->column[0] ? ps->column : ps->name); /* a name may be longer: cut */
		r->kind = ps->kind;
		if (run_phase(&s, ps, i, r)) {
			failed = 1;
			break;
		}
		res.nphases++;
		if (ps->after && !interrupted && ps->after(ps->arg, &r->facts))
			failed = 1;
	}
	res.partial = interrupted != 0;
	fill_header(&res, tool, command, &s);
	io_tracer_close(s.io);
	tracer_close(&s.tracer);
	munmap(s.shared, sizeof(*s.shared));

	if (res.nphases) {
		/* --json -: the JSON owns stdout, the text goes to stderr */
		FILE *text = o->json_path && !strcmp(o->json_path, "-") ? stderr : stdout;

		struct report_options ro = { .detail = o->detail };

		report_text(text, &res, &ro);
		fflush(text);
		if (o->json_path && report_json(o->json_path, &res) && !failed)
			failed = 1;
	}
	rc = session_status(tool, &res, failed);
	free_results(&res);
	return rc;
}
