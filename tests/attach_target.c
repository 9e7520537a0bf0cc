// SPDX-License-Identifier: GPL-2.0
/*
 * A target for the attach tests, counting what it does itself.
 *   attach_target fsync FILE OUT [BS [PAUSE_US]]
 *       loop: write BS (4 KiB; at most 1 MiB) to FILE, fsync, and sleep PAUSE_US µs (default 0);
 *       each fsync's entry and exit times (CLOCK_MONOTONIC ns) are kept (the last 2^20); on
 *       SIGUSR1 they are written to OUT ("enter exit" per line, then renamed into place).
 *   attach_target write FILE OUT N
 *       wait for SIGUSR1, then write N bytes to FILE in 64 KiB write()s, write the bytes written
 *       to OUT, and wait to be killed.
 *   attach_target sleep
 *       sleep until killed.
 *   attach_target threads
 *       three threads besides the main one: "dsleeper" vforks a child that never execs or exits,
 *       so it waits in uninterruptible sleep (D, in vfork) until killed; "ssleeper1" and
 *       "ssleeper2" sleep in pause() (S), as does the main thread. The child dies with it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_CALLS (1 << 20)

static volatile sig_atomic_t dump;

static void on_usr1(int sig)
{
	(void)sig;
	dump = 1;
}

static unsigned long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* Write text to out via a temporary name and a rename. */
static void publish(const char *out, const char *text, size_t len)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", out);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fwrite(text, 1, len, f);
	fclose(f);
	rename(tmp, out);
}

static int do_fsync(const char *file, const char *out, size_t bs, long pause_us)
{
	static unsigned long long calls[MAX_CALLS][2];
	static char buf[1 << 20];
	size_t n = 0;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return 1;
	if (bs < 1 || bs > sizeof(buf))
		return 2;
	memset(buf, 'x', sizeof(buf));
	for (;;) {
		if (write(fd, buf, bs) != (ssize_t)bs)
			return 1;
		calls[n % MAX_CALLS][0] = now();
		fsync(fd);
		calls[n % MAX_CALLS][1] = now();
		n++;
		if (pause_us > 0)
			usleep((useconds_t)pause_us);
		if (n % 256 == 0)
			lseek(fd, 0, SEEK_SET); /* the file stays small */
		if (dump) {
			size_t cap = 48 * (n < MAX_CALLS ? n : MAX_CALLS) + 64, len = 0;
			char *text = malloc(cap);

			dump = 0;
			if (!text)
				return 1;
			for (size_t i = n > MAX_CALLS ? n - MAX_CALLS : 0; i < n; i++)
				len += (size_t)snprintf(text + len, cap - len, "%llu %llu\n",
							calls[i % MAX_CALLS][0],
							calls[i % MAX_CALLS][1]);
			publish(out, text, len);
			free(text);
		}
	}
}

static int do_write(const char *file, const char *out, long long total)
{
	static char buf[65536];
	long long done = 0;
	char text[64];
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return 1;
	while (!dump)
		pause();
	memset(buf, 'w', sizeof(buf));
	while (done < total) {
		size_t want = total - done < (long long)sizeof(buf) ? (size_t)(total - done) : sizeof(buf);
		ssize_t w = write(fd, buf, want);

		if (w <= 0)
			return 1;
		done += w;
	}
	publish(out, text, (size_t)snprintf(text, sizeof(text), "%lld\n", done));
	for (;;)
		pause();
}

/* A thread in uninterruptible sleep for good: its vfork child never leaves the parent's memory. */
static void *d_sleeper(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "dsleeper");
	if (vfork() == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* the thread's end is the child's */
		for (;;)
			pause();
	}
	return NULL;
}

static void *s_sleeper(void *arg)
{
	pthread_setname_np(pthread_self(), arg);
	for (;;)
		pause();
	return NULL;
}

static int do_threads(void)
{
	pthread_t t[3];

	if (pthread_create(&t[0], NULL, d_sleeper, NULL) ||
	    pthread_create(&t[1], NULL, s_sleeper, "ssleeper1") ||
	    pthread_create(&t[2], NULL, s_sleeper, "ssleeper2"))
		return 1;
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_usr1 };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	if (argc >= 4 && argc <= 6 && !strcmp(argv[1], "fsync"))
		return do_fsync(argv[2], argv[3], argc >= 5 ? (size_t)atol(argv[4]) : 4096,
				argc == 6 ? atol(argv[5]) : 0);
	if (argc == 5 && !strcmp(argv[1], "write"))
		return do_write(argv[2], argv[3], atoll(argv[4]));
	if (argc == 2 && !strcmp(argv[1], "threads"))
		return do_threads();
	if (argc == 2 && !strcmp(argv[1], "sleep")) {
		for (;;)
			pause();
	}
	fprintf(stderr, "usage: attach_target fsync FILE OUT [BS [PAUSE_US]] | write FILE OUT N | sleep | "
			"threads\n");
	return 2;
}
