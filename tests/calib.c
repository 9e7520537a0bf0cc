// SPDX-License-Identifier: GPL-2.0
/*
 * Calibration workloads with known answers, for the integration tests:
 *   calib spin MS          burn MS ms of this thread's CPU time in user space, then print its
 *                          run-queue wait as the scheduler counted it (run_delay_ns N)
 *   calib sleep MS         sleep MS ms
 *   calib getppid N        call getppid N times
 *   calib fsync FILE N     N times: write 4 KiB at the end of FILE, then fsync
 *   calib busy MS          run in user space for MS ms of wall time without a single syscall (the
 *                          clock is read through the vDSO), then print its own CPU (cpu_ns N:
 *                          getrusage, between oncpu_before_ns N and oncpu_after_ns N: schedstat
 *                          read just before and after it; oncpu_ns N and run_delay_ns N: schedstat
 *                          at its end), its context switches (switches N) and its pid (pid N)
 *   calib naps N MS        N times: sleep 1 ms, then run MS ms in user space without a syscall (as
 *                          busy); then print what busy prints
 *   calib slices N MS      N times: run MS ms in user space without a syscall, then call getppid;
 *                          then print what busy prints
 *   calib threadexec N     a second thread calls getppid N times, then execs "calib getppid N" (a
 *                          thread other than the leader execs: it takes the leader's pid)
 *   calib sysmix FILE K N M  K getppid, N fstat (the fstat syscall itself, on FILE) and M write of
 *                          256 bytes (appended to FILE, created or truncated), in 1000 rounds of
 *                          K/1000, N/1000, M/1000, each run timed by this thread's own CPU clock
 *                          (CLOCK_THREAD_CPUTIME_ID, the scheduler's sum: exact). Prints, with one
 *                          writev (no write, fstat or stdio of its own), per kind "KIND_n N" and
 *                          "KIND_cpu_ns NS" (the sum of its runs), and fstat_excess_ns and
 *                          write_excess_ns: the rounds' interquartile mean of the round's cost per
 *                          call beyond a getppid's (a burst of interrupts or a host stall in some
 *                          rounds does not move it; the clock reads' share taken out)
 *   calib iomix RFILE WFILE N M  M rounds of: N/M O_DIRECT preads of 4 KiB at random blocks of
 *                          RFILE, one write of 4 KiB appended to WFILE (created or truncated), one
 *                          fsync of WFILE; around every call it reads its own witnesses and prints,
 *                          per kind (pread64, write, fsync), KIND_n, and summed over its calls
 *                          KIND_wall_ns (CLOCK_MONOTONIC), KIND_cpu_ns (thread CPU clock),
 *                          KIND_runq_ns (schedstat run_delay), KIND_sleep_ns (wall - cpu - runq:
 *                          the time asleep), KIND_blkio_ns and KIND_blkio_count (delay accounting
 *                          over taskstats, as getdelays: needs kernel.task_delayacct=1 and root)
 *   calib touch MB         write one byte in every page of MB MiB of fresh anonymous memory (one
 *                          page fault each), then print this process's own fault count (getrusage)
 *                          and its schedstat (oncpu_ns N, run_delay_ns N)
 *   calib witness OUT [DEV...] -- CMD [ARG...]
 *                          the test's own witnesses of a traced run, put between iowhy and the
 *                          workload: runs CMD as its child (a subreaper: it reaps every
 *                          descendant), waits for all, exits with CMD's status and writes to OUT,
 *                          "KEY VALUE" a line: cpu_ns (getrusage RUSAGE_SELF + RUSAGE_CHILDREN,
 *                          user + sys: the total is exact, the split is by tick), children_cpu_ns
 *                          and its split (children_user_ns, children_sys_ns), self_cpu_ns,
 *                          self_start_cpu_ns (its own CPU when main began: its exec and what its
 *                          process ran before, iowhy's gate), task_clock_ns (perf's task-clock of
 *                          CMD's tree, inherited; -1 if it cannot be opened), elapsed_ns
 *                          (CLOCK_MONOTONIC from before the fork to the last reaping), steal_ns
 *                          (all CPUs' steal over that time, /proc/stat ticks), steal_total_ns
 *                          (since boot, at the end), switches (context switches, voluntary or
 *                          not, of it and the processes it reaped: getrusage), reaped,
 *                          reaped_oncpu_ns and reaped_run_delay_ns (schedstat of each process it
 *                          reaped, main threads only), self_run_delay_ns (its own run-queue wait,
 *                          schedstat, from its fork on), status (CMD's wait status), and for each
 *                          DEV the lines "dev_before DEV F1 ... F17" and "dev_after DEV ..."
 *                          (/sys/block/DEV/stat just before the fork and just after the last
 *                          reaping)
 *   calib ringfill MS PID ID...
 *                          the test's own reading of BPF ring buffers and of a thread's nice: every
 *                          1 ms, until thread PID is gone or a zombie (at most MS ms), the fill of
 *                          each ring-buffer map ID (producer position - consumer position, its
 *                          first two pages mapped read-only) and PID's nice (/proc/PID/stat); then
 *                          prints ring_bytes (the largest ring's size), ring_peak_bytes (the largest
 *                          fill seen), over_eighth_samples and over_eighth_ns (readings with a ring
 *                          more than an eighth full, and that time, counted as raised_ns is),
 *                          nice_first, nice_min, raised_samples and raised_ns (readings with
 *                          PID's nice below nice_first, and that time: between two readings that
 *                          differ, half of it), raised_err_ns (the other half of those: the time's
 *                          uncertainty), raises (readings that saw it raised where the one before
 *                          had not), raised_over_eighth_samples
 *                          (both at once), samples, max_gap_ns (the longest time between two
 *                          readings), elapsed_ns (from the first reading to the last); and, as
 *                          soon as the first reading is made, "started 1"
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
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
#include <sys/uio.h>
#include <sys/socket.h>
#include <linux/bpf.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <stddef.h>
#include <sys/wait.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The witnesses of this task's on-CPU time and run-queue wait: the scheduler's own sums
 * (schedstat: sum_exec_runtime, run_delay; exact, in ns). `oncpu` also prints the first. */
static void print_schedstat(int oncpu)
{
	unsigned long long run, delay;
	FILE *f = fopen("/proc/thread-self/schedstat", "re");

	if (f && fscanf(f, "%llu %llu", &run, &delay) == 2) {
		if (oncpu)
			printf("oncpu_ns %llu\n", run);
		printf("run_delay_ns %llu\n", delay);
	}
	if (f)
		fclose(f);
}

static void print_run_delay(void)
{
	print_schedstat(0);
}

static int spin(long ms)
{
	volatile unsigned long x = 0;
	double end = cpu_ms() + ms;

	while (cpu_ms() < end)
		for (int i = 0; i < 100000; i++)
			x += i;
	print_run_delay();
	return 0;
}

/* calib witness: the test's own witnesses of a command's run (see the top), read by this process,
 * which shares no code with iowhy's collectors. */
static long long ts_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tv_ns(struct timeval tv)
{
	return tv.tv_sec * 1000000000LL + tv.tv_usec * 1000LL;
}

/* The steal of all CPUs so far (/proc/stat's first line, whole USER_HZ ticks), or -1. */
static long long steal_ns(void)
{
	unsigned long long v[8];
	FILE *f = fopen("/proc/stat", "re");
	int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5], &v[6], &v[7]) : 0;

	if (f)
		fclose(f);
	return n == 8 ? (long long)(v[7] * (1000000000.0 / sysconf(_SC_CLK_TCK))) : -1;
}

/* One line of /sys/block/DEV/stat, spaces squeezed, into buf (empty when unreadable). */
static void dev_stat_line(const char *dev, char *buf, size_t len)
{
	char path[256], raw[512], *p, *q;
	int fd, space = 1;
	ssize_t n;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/sys/block/%s/stat", dev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, raw, sizeof(raw) - 1);
	close(fd);
	if (n <= 0)
		return;
	raw[n] = '\0';
	for (p = raw, q = buf; *p && q < buf + len - 1; p++) {
		if (*p == ' ' || *p == '\n') {
			if (!space)
				*q++ = ' ';
			space = 1;
		} else {
			*q++ = *p;
			space = 0;
		}
	}
	while (q > buf && q[-1] == ' ')
		q--;
	*q = '\0';
}

enum { WITNESS_DEVS = 8 };

/* calib witness OUT [DEV...] -- CMD [ARG...] (see the top). OUT and its own schedstat are opened
 * before the fork, and what it reads after the last reaping goes out in one write just before
 * _exit: its CPU after that read (the write, the exit) is the only part of it not in cpu_ns. */
static int witness(int argc, char **argv)
{
	char before[WITNESS_DEVS][256], after[WITNESS_DEVS][256], text[4096], ss[128];
	const char *out = argv[0], *devs[WITNESS_DEVS];
	char **cmd = NULL;
	long long self0 = ts_ns(CLOCK_PROCESS_CPUTIME_ID), t0, t1, steal0, steal1, tc = -1;
	long long reaped_delay = 0, reaped_oncpu = 0;
	unsigned long long self_delay = 0;
	int ndev = 0, go[2], tfd, ofd, sfd, status = 0, reaped = 0, len;
	struct perf_event_attr a;
	struct rusage rs, rc;
	ssize_t n;
	pid_t child;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			break;
		}
		if (ndev == WITNESS_DEVS) {
			fprintf(stderr, "calib witness: at most %d devices\n", WITNESS_DEVS);
			return 2;
		}
		devs[ndev++] = argv[i];
	}
	if (!cmd || !cmd[0]) {
		fprintf(stderr, "usage: calib witness OUT [DEV...] -- CMD [ARG...]\n");
		return 2;
	}
	ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	sfd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (ofd < 0 || pipe2(go, O_CLOEXEC)) {
		perror(out);
		return 2;
	}
	/* orphans come to this process: it reaps every descendant, and RUSAGE_CHILDREN has them all */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	for (int i = 0; i < ndev; i++)
		dev_stat_line(devs[i], before[i], sizeof(before[i]));
	steal0 = steal_ns();
	t0 = ts_ns(CLOCK_MONOTONIC);
	child = fork();
	if (child < 0) {
		perror("calib witness: fork");
		return 2;
	}
	if (child == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(cmd[0], cmd);
		perror(cmd[0]);
		_exit(127);
	}
	close(go[0]);
	/* perf's task-clock of the child and every descendant (inherit: an exited task's count folds
	 * into its parent's), opened before the child goes on to exec */
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.inherit = 1;
	tfd = (int)syscall(SYS_perf_event_open, &a, child, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (write(go[1], "g", 1) != 1)
		kill(child, SIGKILL);
	close(go[1]);
	for (;;) {
		siginfo_t si;
		unsigned long long run, delay;
		char path[64];
		int fd;

		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT))
			break; /* ECHILD: every descendant reaped */
		/* a zombie's schedstat (its main thread's): on-CPU and run-queue wait, exact */
		snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)si.si_pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		n = fd >= 0 ? read(fd, ss, sizeof(ss) - 1) : -1;
		if (fd >= 0)
			close(fd);
		if (n > 0) {
			ss[n] = '\0';
			if (sscanf(ss, "%llu %llu", &run, &delay) == 2) {
				reaped_oncpu += (long long)run;
				reaped_delay += (long long)delay;
			}
		}
		reaped++;
		waitpid(si.si_pid, si.si_pid == child ? &status : NULL, 0);
	}
	t1 = ts_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < ndev; i++)
		dev_stat_line(devs[i], after[i], sizeof(after[i]));
	steal1 = steal_ns();
	if (tfd < 0 || read(tfd, &tc, sizeof(tc)) != (ssize_t)sizeof(tc))
		tc = -1;
	getrusage(RUSAGE_CHILDREN, &rc);
	getrusage(RUSAGE_SELF, &rs);
	n = sfd >= 0 ? pread(sfd, ss, sizeof(ss) - 1, 0) : -1;
	if (n > 0) {
		ss[n] = '\0';
		if (sscanf(ss, "%*u %llu", &self_delay) != 1)
			self_delay = 0;
	}
	len = snprintf(text, sizeof(text),
		       "cpu_ns %lld\nchildren_cpu_ns %lld\nchildren_user_ns %lld\nchildren_sys_ns %lld\n"
		       "self_cpu_ns %lld\nself_start_cpu_ns %lld\n"
		       "task_clock_ns %lld\nelapsed_ns %lld\nsteal_ns %lld\nsteal_total_ns %lld\n"
		       "switches %ld\nreaped %d\nreaped_oncpu_ns %lld\nreaped_run_delay_ns %lld\n"
		       "self_run_delay_ns %llu\nstatus %d\n",
		       tv_ns(rs.ru_utime) + tv_ns(rs.ru_stime) + tv_ns(rc.ru_utime) + tv_ns(rc.ru_stime),
		       tv_ns(rc.ru_utime) + tv_ns(rc.ru_stime), tv_ns(rc.ru_utime), tv_ns(rc.ru_stime),
		       tv_ns(rs.ru_utime) + tv_ns(rs.ru_stime),
		       self0, tc, t1 - t0, steal0 >= 0 && steal1 >= 0 ? steal1 - steal0 : -1, steal1,
		       rc.ru_nvcsw + rc.ru_nivcsw + rs.ru_nvcsw + rs.ru_nivcsw, reaped, reaped_oncpu,
		       reaped_delay, self_delay, status);
	for (int i = 0; i < ndev && len < (int)sizeof(text); i++)
		len += snprintf(text + len, sizeof(text) - (size_t)len, "dev_before %s %s\ndev_after %s %s\n",
				devs[i], before[i], devs[i], after[i]);
	if (len >= (int)sizeof(text) || write(ofd, text, (size_t)len) != len) {
		perror(out);
		_exit(2);
	}
	if (WIFSIGNALED(status))
		_exit(128 + WTERMSIG(status));
	_exit(WEXITSTATUS(status));
}

static int do_fsync(const char *path, long n)
{
	char buf[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);

	memset(buf, 'x', sizeof(buf));
	if (fd < 0) {
		perror(path);
		return 1;
	}
	for (long i = 0; i < n; i++) {
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) || fsync(fd)) {
			perror(path);
			return 1;
		}
	}
	return close(fd) ? 1 : 0;
}

/* This task's sum_exec_runtime from an open schedstat file (one pread: no fopen, malloc or fault in
 * between), or 0. */
static unsigned long long schedstat_oncpu(int fd)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}

/* Run in user space for MS ms of wall time, reading the clock through the vDSO: no syscall. */
static void spin_wall(long ms)
{
	struct timespec ts;
	volatile unsigned long x = 0;
	double end;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	end = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 + ms;
	do {
		for (int i = 0; i < 100000; i++)
			x += i;
		clock_gettime(CLOCK_MONOTONIC, &ts);
	} while (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6 < end);
}

/* The witness of this task's own CPU: user+sys (getrusage: exact; the split is by tick), bracketed
 * by the scheduler's sum read from `fd` (its schedstat) just before (maybe up to a tick stale) and
 * just after (getrusage brought it up to date); then its switches, pid and schedstat. */
static void print_own_cpu(int fd)
{
	struct rusage ru;
	unsigned long long before, after;

	before = fd >= 0 ? schedstat_oncpu(fd) : 0;
	getrusage(RUSAGE_SELF, &ru);
	after = fd >= 0 ? schedstat_oncpu(fd) : 0;
	printf("cpu_ns %lld\n", (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
				 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL);
	printf("oncpu_before_ns %llu\noncpu_after_ns %llu\n", before, after);
	printf("switches %ld\npid %d\n", ru.ru_nvcsw + ru.ru_nivcsw, getpid());
	print_schedstat(1);
}

static int busy(long ms)
{
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);

	spin_wall(ms);
	print_own_cpu(fd); /* its only syscalls */
	if (fd >= 0)
		close(fd);
	return 0;
}

/* N times: sleep 1 ms, then run MS ms in user space without a syscall. Each stint on a CPU begins
 * with a wakeup and ends with a syscall, not with a preemption. */
static int naps(long n, long ms)
{
	struct timespec nap = { 0, 1000000 };
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);

	for (long i = 0; i < n; i++) {
		nanosleep(&nap, NULL);
		spin_wall(ms);
	}
	print_own_cpu(fd);
	if (fd >= 0)
		close(fd);
	return 0;
}

/* N times: run MS ms in user space without a syscall, then call getppid. A stint on a CPU that
 * begins after a preemption can end in a syscall rather than a switch-out. */
static int slices(long n, long ms)
{
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);

	for (long i = 0; i < n; i++) {
		spin_wall(ms);
		syscall(SYS_getppid);
	}
	print_own_cpu(fd);
	if (fd >= 0)
		close(fd);
	return 0;
}

static char *self_n;

static void *thread_exec(void *arg)
{
	long n = atol(self_n);

	(void)arg;
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	execl("/proc/self/exe", "calib", "getppid", self_n, (char *)NULL);
	perror("exec");
	exit(1);
}

static int threadexec(char *n)
{
	pthread_t th;

	self_n = n;
	if (pthread_create(&th, NULL, thread_exec, NULL))
		return 1;
	sleep(30); /* the exec ends this thread (and the process image) */
	return 1;
}

static int touch(long mb)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)mb << 20;
	volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct rusage ru;

	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise((void *)p, len, MADV_NOHUGEPAGE); /* one fault per 4 KiB page, not per 2 MiB */
	for (size_t off = 0; off < len; off += page)
		p[off] = 1;
	getrusage(RUSAGE_SELF, &ru);
	printf("faults %ld\n", ru.ru_minflt + ru.ru_majflt);
	print_schedstat(1);
	return 0;
}

/* Read every page of FILE through a read-only mapping, no readahead: a major fault per page, each a
 * sleep in D in no syscall (so with no file descriptor to name its disk). Prints the faults. */
static int mapread(const char *file)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	volatile const char *p;
	unsigned sum = 0;
	struct rusage ru;
	struct stat st;

	if (fd < 0 || fstat(fd, &st) || !st.st_size) {
		perror(file);
		return 1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise((void *)p, (size_t)st.st_size, MADV_RANDOM);
	for (off_t off = 0; off < st.st_size; off += page)
		sum += p[off];
	getrusage(RUSAGE_SELF, &ru);
	printf("majflt %ld (%u)\n", ru.ru_majflt, sum & 1);
	return 0;
}

static long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The mean of v[0..n) without its lowest and highest n * trim (sorts it). */
static double trimmed(double *v, int n, double trim)
{
	int lo = (int)(n * trim), hi = n - lo;
	double sum = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	for (int i = lo; i < hi; i++)
		sum += v[i];
	return sum / (hi - lo);
}

/* K getppid, N fstat, M write, in 1000 rounds of K/1000, N/1000, M/1000 (see the top). The
 * syscalls are made with syscall(2) where glibc would make another (its fstat is newfstatat). */
static int sysmix(const char *path, long k, long n, long m)
{
	enum { ROUNDS = 1000 };
	const double trim = 0.25; /* the interquartile mean */
	static double fx[ROUNDS], wx[ROUNDS], e[ROUNDS];
	char buf[256], out[1024];
	struct stat st;
	struct iovec iov;
	long long tg = 0, tf = 0, tw = 0, t, dg, df, dw;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), len;
	double em;

	if (fd < 0 || k < ROUNDS || n < ROUNDS || m < ROUNDS) {
		fprintf(stderr, "calib sysmix: %s: K, N and M must be at least %d\n", path, ROUNDS);
		return 1;
	}
	memset(buf, 'x', sizeof(buf));
	for (long r = 0; r < ROUNDS; r++) {
		long kr = k * (r + 1) / ROUNDS - k * r / ROUNDS, nr = n * (r + 1) / ROUNDS - n * r / ROUNDS;
		long mr = m * (r + 1) / ROUNDS - m * r / ROUNDS;

		t = thread_cpu_ns();
		for (long i = 0; i < kr; i++)
			syscall(SYS_getppid);
		dg = thread_cpu_ns() - t;
		t = thread_cpu_ns();
		for (long i = 0; i < nr; i++)
			if (syscall(SYS_fstat, fd, &st))
				return 1;
		df = thread_cpu_ns() - t;
		t = thread_cpu_ns();
		for (long i = 0; i < mr; i++)
			if (syscall(SYS_write, fd, buf, sizeof(buf)) != (long)sizeof(buf))
				return 1;
		dw = thread_cpu_ns() - t;
		t = thread_cpu_ns();
		e[r] = (double)(thread_cpu_ns() - t);
		tg += dg;
		tf += df;
		tw += dw;
		/* this round's cost per call beyond a getppid's, less the clock reads' share */
		fx[r] = (double)df / nr - (double)dg / kr;
		wx[r] = (double)dw / mr - (double)dg / kr;
		e[r] = e[r] / mr - e[r] / kr;
	}
	em = trimmed(e, ROUNDS, trim);
	len = snprintf(out, sizeof(out),
		       "getppid_n %ld\ngetppid_cpu_ns %lld\nfstat_n %ld\nfstat_cpu_ns %lld\n"
		       "write_n %ld\nwrite_cpu_ns %lld\nfstat_excess_ns %.1f\nwrite_excess_ns %.1f\n",
		       k, tg, n, tf, m, tw, trimmed(fx, ROUNDS, trim), trimmed(wx, ROUNDS, trim) - em);
	iov.iov_base = out;
	iov.iov_len = (size_t)len;
	return writev(1, &iov, 1) == len ? 0 : 1;
}

/* calib iomix: taskstats (delay accounting) of this thread, asked over generic netlink as
 * getdelays does: blkio_delay_total (ns) and blkio_count. */
struct ts_sock {
	int fd;
	__u16 family;
};

struct nlmsg {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char buf[1024];
};

static int nl_send(int fd, __u16 type, __u8 cmd, __u16 attr, const void *data, __u16 len)
{
	struct nlmsg m;
	struct nlattr *na;

	memset(&m, 0, sizeof(m));
	m.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m.n.nlmsg_type = type;
	m.n.nlmsg_flags = NLM_F_REQUEST;
	m.n.nlmsg_pid = 0;
	m.g.cmd = cmd;
	m.g.version = 1;
	na = (struct nlattr *)((char *)&m + m.n.nlmsg_len);
	na->nla_type = attr;
	na->nla_len = (__u16)(NLA_HDRLEN + len);
	memcpy((char *)na + NLA_HDRLEN, data, len);
	m.n.nlmsg_len += NLA_ALIGN(na->nla_len);
	return send(fd, &m, m.n.nlmsg_len, 0) == (ssize_t)m.n.nlmsg_len ? 0 : -1;
}

/* The first attribute of type `type` in [p, p + len), or NULL. */
static struct nlattr *nl_find(char *p, int len, __u16 type)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr *na = (struct nlattr *)p;

		if (na->nla_len < NLA_HDRLEN || na->nla_len > len)
			return NULL;
		if ((na->nla_type & NLA_TYPE_MASK) == type)
			return na;
		len -= NLA_ALIGN(na->nla_len);
		p += NLA_ALIGN(na->nla_len);
	}
	return NULL;
}

/* A reply's attributes: their start and length, or -1 (an error reply, a short one). */
static int nl_recv(int fd, struct nlmsg *m, char **attrs)
{
	ssize_t n = recv(fd, m, sizeof(*m), 0);

	if (n < (ssize_t)NLMSG_LENGTH(GENL_HDRLEN) || !NLMSG_OK(&m->n, (size_t)n) ||
	    m->n.nlmsg_type == NLMSG_ERROR)
		return -1;
	*attrs = (char *)m + NLMSG_LENGTH(GENL_HDRLEN);
	return (int)(m->n.nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN));
}

static int ts_open(struct ts_sock *s)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	struct nlmsg m;
	struct nlattr *na;
	char *attrs;
	int len;

	s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (s->fd < 0 || bind(s->fd, (struct sockaddr *)&a, sizeof(a)) ||
	    nl_send(s->fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		    TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME)))
		return -1;
	len = nl_recv(s->fd, &m, &attrs);
	na = len > 0 ? nl_find(attrs, len, CTRL_ATTR_FAMILY_ID) : NULL;
	if (!na)
		return -1;
	s->family = *(__u16 *)((char *)na + NLA_HDRLEN);
	return 0;
}

/* This thread's blkio delay (ns) and count, or -1. */
static int ts_blkio(struct ts_sock *s, unsigned long long *delay, unsigned long long *count)
{
	__u32 tid = (__u32)syscall(SYS_gettid);
	struct taskstats st;
	struct nlmsg m;
	struct nlattr *na;
	char *attrs;
	int len;

	if (nl_send(s->fd, s->family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_PID, &tid, sizeof(tid)))
		return -1;
	len = nl_recv(s->fd, &m, &attrs);
	na = len > 0 ? nl_find(attrs, len, TASKSTATS_TYPE_AGGR_PID) : NULL;
	if (na)
		na = nl_find((char *)na + NLA_HDRLEN, na->nla_len - NLA_HDRLEN, TASKSTATS_TYPE_STATS);
	if (!na || na->nla_len - NLA_HDRLEN < (int)offsetof(struct taskstats, blkio_delay_total) + 8)
		return -1;
	memcpy(&st, (char *)na + NLA_HDRLEN,
	       sizeof(st) < (size_t)(na->nla_len - NLA_HDRLEN) ? sizeof(st) : (size_t)(na->nla_len - NLA_HDRLEN));
	*delay = st.blkio_delay_total;
	*count = st.blkio_count;
	return 0;
}

/* One reading of this thread's witnesses. */
struct io_mark {
	long long mono, cpu;
	unsigned long long run_delay, blkio, blkio_n;
};

/* A kind of call's sums over its calls: wall, on-CPU, run-queue wait, blkio delay and count. */
struct io_kind {
	const char *name;
	long n;
	long long wall, cpu, runq, blkio, blkio_n;
};


static long long ts_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int schedstat_run_delay(int fd, unsigned long long *rd)
{
	char buf[128];
	ssize_t r = pread(fd, buf, sizeof(buf) - 1, 0);

	if (r <= 0)
		return -1;
	buf[r] = '\0';
	return sscanf(buf, "%*u %llu", rd) == 1 ? 0 : -1;
}

/* One reading of this thread's witnesses: the clocks between two equal readings of its run-queue
 * wait (a preemption in between would put a wait in one window and not in the other: read again). */
static int io_read_mark(int schedstat_fd, struct ts_sock *ts, struct io_mark *m)
{
	unsigned long long rd2;

	if (ts_blkio(ts, &m->blkio, &m->blkio_n))
		return -1;
	for (int tries = 0; tries < 100; tries++) {
		if (schedstat_run_delay(schedstat_fd, &m->run_delay))
			return -1;
		m->cpu = thread_cpu_ns();
		m->mono = ts_mono_ns();
		if (schedstat_run_delay(schedstat_fd, &rd2))
			return -1;
		if (rd2 == m->run_delay)
			return 0;
	}
	return -1;
}

static void io_add(struct io_kind *k, const struct io_mark *a, const struct io_mark *b)
{
	k->n++;
	k->wall += b->mono - a->mono;
	k->cpu += b->cpu - a->cpu;
	k->runq += (long long)(b->run_delay - a->run_delay);
	k->blkio += (long long)(b->blkio - a->blkio);
	k->blkio_n += (long long)(b->blkio_n - a->blkio_n);
}

/* calib iomix RFILE WFILE N M (see the top) */
static int iomix(const char *rpath, const char *wpath, long n, long m)
{
	struct io_kind kinds[3] = { { .name = "pread64" }, { .name = "write" }, { .name = "fsync" } };
	int rfd = open(rpath, O_RDONLY | O_DIRECT | O_CLOEXEC);
	int wfd = open(wpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int sfd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	unsigned long long seed = 88172645463325252ULL;
	struct io_mark a, b;
	struct ts_sock ts;
	struct stat st;
	long blocks;
	void *buf;

	if (rfd < 0 || wfd < 0 || sfd < 0 || fstat(rfd, &st) || st.st_size < 4096 ||
	    posix_memalign(&buf, 4096, 4096)) {
		perror("calib iomix");
		return 1;
	}
	if (ts_open(&ts) || io_read_mark(sfd, &ts, &a)) {
		fprintf(stderr, "calib iomix: no taskstats (delay accounting)\n");
		return 1;
	}
	memset(buf, 'x', 4096);
	blocks = st.st_size / 4096;
	/* M rounds: N/M reads at random blocks of RFILE, then one write of 4 KiB and one fsync */
	for (long r = 0; r < m; r++) {
		for (long i = n * r / m; i < n * (r + 1) / m; i++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			if (io_read_mark(sfd, &ts, &a) ||
			    pread(rfd, buf, 4096, (off_t)(seed % (unsigned long long)blocks) * 4096) != 4096 ||
			    io_read_mark(sfd, &ts, &b))
				goto fail;
			io_add(&kinds[0], &a, &b);
		}
		if (io_read_mark(sfd, &ts, &a) || write(wfd, buf, 4096) != 4096 ||
		    io_read_mark(sfd, &ts, &b))
			goto fail;
		io_add(&kinds[1], &a, &b);
		if (io_read_mark(sfd, &ts, &a) || fsync(wfd) || io_read_mark(sfd, &ts, &b))
			goto fail;
		io_add(&kinds[2], &a, &b);
	}
	for (int i = 0; i < 3; i++) {
		const struct io_kind *k = &kinds[i];

		printf("%s_n %ld\n%s_wall_ns %lld\n%s_cpu_ns %lld\n%s_runq_ns %lld\n", k->name, k->n,
		       k->name, k->wall, k->name, k->cpu, k->name, k->runq);
		printf("%s_sleep_ns %lld\n%s_blkio_ns %lld\n%s_blkio_count %lld\n", k->name,
		       k->wall - k->cpu - k->runq, k->name, k->blkio, k->name, k->blkio_n);
	}
	return 0;
fail:
	perror("calib iomix");
	return 1;
}

/* The nice of thread tid (/proc/TID/stat's 19th field), or 99 if it is gone or a zombie. */
static int thread_nice(int tid)
{
	char path[64], buf[1024], *p, state;
	int nice, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 99;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 99;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	/* after the comm: state (3), then fields 4..18, then nice (19) */
	if (!p || sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %d",
			 &state, &nice) != 2 || state == 'Z' || state == 'X')
		return 99;
	return nice;
}

enum { RINGFILL_MAX = 64 };

/* calib ringfill MS PID ID... (see the top) */
static int ringfill(int argc, char **argv)
{
	long ms = atol(argv[0]), pg = sysconf(_SC_PAGESIZE), samples = 0, over = 0, raised = 0;
	long raised_over = 0, raises = 0;
	long long t0, prev, raised_ns = 0, raised_err = 0, over_ns = 0, gap = 0;
	int pid = atoi(argv[1]), n = 0, first, nmin, prev_raised = 0, prev_over = 0;
	volatile unsigned long *cons[RINGFILL_MAX], *prod[RINGFILL_MAX];
	unsigned long long size[RINGFILL_MAX], peak = 0, maxsize = 0;
	struct timespec tick = { 0, 1000000 };

	for (int i = 2; i < argc && n < RINGFILL_MAX; i++) {
		union bpf_attr a;
		struct bpf_map_info info;
		void *m;
		int fd;

		memset(&a, 0, sizeof(a));
		a.map_id = (unsigned)atol(argv[i]);
		fd = (int)syscall(SYS_bpf, BPF_MAP_GET_FD_BY_ID, &a, sizeof(a));
		if (fd < 0) {
			fprintf(stderr, "calib ringfill: map %s: %s\n", argv[i], strerror(errno));
			return 1;
		}
		memset(&info, 0, sizeof(info));
		memset(&a, 0, sizeof(a));
		a.info.bpf_fd = (unsigned)fd;
		a.info.info_len = sizeof(info);
		a.info.info = (unsigned long)&info;
		if (syscall(SYS_bpf, BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a)) || info.type != BPF_MAP_TYPE_RINGBUF) {
			fprintf(stderr, "calib ringfill: map %s is not a ring buffer\n", argv[i]);
			return 1;
		}
		/* page 0: the consumer position; page 1: the producer position */
		m = mmap(NULL, (size_t)(2 * pg), PROT_READ, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			fprintf(stderr, "calib ringfill: map %s: mmap: %s\n", argv[i], strerror(errno));
			return 1;
		}
		cons[n] = (volatile unsigned long *)m;
		prod[n] = (volatile unsigned long *)((char *)m + pg);
		size[n] = info.max_entries;
		if (size[n] > maxsize)
			maxsize = size[n];
		n++;
	}
	first = nmin = thread_nice(pid);
	t0 = prev = ts_ns(CLOCK_MONOTONIC);
	for (long t = 0; t < ms; t++) {
		int nice = thread_nice(pid), o = 0;
		long long now = ts_ns(CLOCK_MONOTONIC);

		if (nice == 99)
			break;
		for (int i = 0; i < n; i++) {
			unsigned long long fill = *prod[i] - *cons[i];

			if (fill > peak)
				peak = fill;
			if (fill > size[i] / 8)
				o = 1;
		}
		/* the time since the last reading: to the state both readings saw, half to each when
		 * they differ (the change lies in between: half the time is its uncertainty) */
		if (samples) {
			long long dt = now - prev;
			int r = nice < first;

			raised_ns += prev_raised && r ? dt : prev_raised != r ? dt / 2 : 0;
			raised_err += prev_raised != r ? dt / 2 : 0;
			over_ns += prev_over && o ? dt : prev_over != o ? dt / 2 : 0;
			if (dt > gap)
				gap = dt;
		}
		raises += nice < first && !prev_raised;
		prev_raised = nice < first;
		prev_over = o;
		prev = now;
		samples++;
		over += o;
		if (nice < nmin)
			nmin = nice;
		raised += nice < first;
		raised_over += o && nice < first;
		if (samples == 1) {
			printf("started 1\n"); /* for the test: the first reading is made */
			fflush(stdout);
		}
		nanosleep(&tick, NULL);
	}
	printf("ring_bytes %llu\nring_peak_bytes %llu\nover_eighth_samples %ld\nover_eighth_ns %lld\n"
	       "nice_first %d\nnice_min %d\nraised_samples %ld\nraised_ns %lld\nraised_err_ns %lld\n"
	       "raises %ld\nraised_over_eighth_samples %ld\nsamples %ld\nmax_gap_ns %lld\n"
	       "elapsed_ns %lld\n",
	       maxsize, peak, over, over_ns, first, nmin, raised, raised_ns, raised_err, raises,
	       raised_over, samples, gap, prev - t0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "witness"))
		return witness(argc - 2, argv + 2);
	if (argc == 3 && !strcmp(argv[1], "spin"))
		return spin(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "sleep")) {
		long ms = atol(argv[2]);
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
		return nanosleep(&ts, NULL) ? 1 : 0;
	}
	if (argc == 3 && !strcmp(argv[1], "getppid")) {
		long n = atol(argv[2]);
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid); /* not cached by libc */
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "busy"))
		return busy(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "threadexec"))
		return threadexec(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "touch"))
		return touch(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "slices"))
		return slices(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "naps"))
		return naps(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "fsync"))
		return do_fsync(argv[2], atol(argv[3]));
	if (argc == 6 && !strcmp(argv[1], "sysmix"))
		return sysmix(argv[2], atol(argv[3]), atol(argv[4]), atol(argv[5]));
	if (argc == 6 && !strcmp(argv[1], "iomix"))
		return iomix(argv[2], argv[3], atol(argv[4]), atol(argv[5]));
	if (argc == 3 && !strcmp(argv[1], "mapread"))
		return mapread(argv[2]);
	if (argc >= 5 && !strcmp(argv[1], "ringfill"))
		return ringfill(argc - 2, argv + 2);
	fprintf(stderr, "usage: calib spin MS | sleep MS | getppid N | fsync FILE N | busy MS | naps N MS | slices N MS | threadexec N | touch MB | mapread FILE | sysmix FILE K N M | iomix RFILE WFILE N M\n");
	fprintf(stderr, "       calib witness OUT [DEV...] -- CMD [ARG...]\n");
	fprintf(stderr, "       calib ringfill MS PID MAP_ID...\n");
	return 2;
}
