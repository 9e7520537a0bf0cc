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
 *   calib touch MB         write one byte in every page of MB MiB of fresh anonymous memory (one
 *                          page fault each), then print this process's own fault count (getrusage)
 *                          and its schedstat (oncpu_ns N, run_delay_ns N)
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>

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

int main(int argc, char **argv)
{
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
	if (argc == 3 && !strcmp(argv[1], "mapread"))
		return mapread(argv[2]);
	fprintf(stderr, "usage: calib spin MS | sleep MS | getppid N | fsync FILE N | busy MS | naps N MS | slices N MS | threadexec N | touch MB | mapread FILE | sysmix FILE K N M\n");
	return 2;
}
