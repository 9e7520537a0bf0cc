// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's cgroup and its guard (see workload_group.h). The guard is a plain fork of iowhy
 * made before any probe is loaded; it keeps only its end of a pipe, ignores the signals a terminal
 * sends, and waits: a "done" byte means iowhy finished and cleans up itself; end of file without it
 * means iowhy died, and the guard kills everything in the cgroup and removes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "workload_group.h"

#define KILL_ROUNDS 300        /* x 10 ms: how long killing may take before giving up */

/* The cgroup v2 mount point, from /proc/self/mounts; 0 or -1. */
static int cgroup2_mount(char *out, size_t n)
{
	char dev[256], dir[512], type[64];
	FILE *f = fopen("/proc/self/mounts", "re");
	int rc = -1;

	if (!f)
		return -1;
	while (rc && fscanf(f, "%255s %511s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(type, "cgroup2") && strlen(dir) < n) {
			memcpy(out, dir, strlen(dir) + 1); /* fits: checked above */
			rc = 0;
		}
	fclose(f);
	return rc;
}

/* iowhy's own cgroup v2 path (the "0::" line of /proc/self/cgroup), appended to mnt. */
static void own_cgroup(const char *mnt, char *out, size_t n)
{
	char line[512];
	FILE *f = fopen("/proc/self/cgroup", "re");

	snprintf(out, n, "%s", mnt);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line + 3, "/"))
			snprintf(out, n, "%.200s%.300s", mnt, line + 3);
		break;
	}
	fclose(f);
}

static int write_file(const char *dir, const char *file, const char *text)
{
	char path[600];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -1;
	close(fd);
	return rc;
}

/* Call fn(pid) for every process in the cgroup; returns how many there were. */
static int each_proc(const char *dir, void (*fn)(pid_t, void *), void *arg)
{
	char path[600];
	FILE *f;
	int pid, n = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fscanf(f, "%d", &pid) == 1) {
		n++;
		if (fn)
			fn(pid, arg);
	}
	fclose(f);
	return n;
}

static void send_sig(pid_t pid, void *arg)
{
	kill(pid, *(int *)arg);
}

/* Kill everything in the cgroup until it is empty (bounded), then remove it. */
static void kill_all(const char *dir, int has_kill)
{
	int sig = SIGKILL;

	for (int k = 0; k < KILL_ROUNDS; k++) {
		if (!has_kill || write_file(dir, "cgroup.kill", "1") != 0)
			each_proc(dir, send_sig, &sig);
		if (each_proc(dir, NULL, NULL) == 0 && rmdir(dir) == 0)
			return;
		usleep(10000);
	}
}

/* The guard: never returns. */
static void guard_main(int rd, const char *dir, int has_kill)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	int null = open("/dev/null", O_RDWR);
	char b = 0;
	ssize_t n;

	sigaction(SIGINT, &ign, NULL);
	sigaction(SIGTERM, &ign, NULL);
	sigaction(SIGHUP, &ign, NULL);
	sigaction(SIGPIPE, &ign, NULL);
	prctl(PR_SET_NAME, "iowhy-guard");
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	if (dup2(rd, 3) != 3)
		_exit(1);
	syscall(SYS_close_range, 4, ~0u, 0);
	do
		n = read(3, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && b == 'd')
		_exit(0);
	kill_all(dir, has_kill);
	_exit(0);
}

static void start_guard(struct wgroup *g)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) != 0)
		return;
	fflush(NULL);
	g->guard = fork();
	if (g->guard == 0)
		guard_main(p[0], g->path, g->has_kill);
	close(p[0]);
	if (g->guard < 0) {
		close(p[1]);
		return;
	}
	g->guard_wr = p[1];
}

void wgroup_open(struct wgroup *g)
{
	char mnt[256], kill_file[600];
	struct stat st;

	memset(g, 0, sizeof(*g));
	g->guard_wr = -1;
	g->dir_fd = -1;
	if (cgroup2_mount(mnt, sizeof(mnt)) == 0) {
		own_cgroup(mnt, g->home, sizeof(g->home));
		snprintf(g->path, sizeof(g->path), "%.400s/iowhy-%d", g->home, (int)getpid());
		if (mkdir(g->path, 0755) != 0) {
			snprintf(g->home, sizeof(g->home), "%s", mnt);
			snprintf(g->path, sizeof(g->path), "%.400s/iowhy-%d", mnt, (int)getpid());
			if (mkdir(g->path, 0755) != 0)
				g->path[0] = '\0';
		}
	}
	if (!g->path[0]) {
		fprintf(stderr, "iowhy: no cgroup v2 to hold the workload: it is stopped by process "
			"group, and descendants that leave the group survive if iowhy is killed\n");
		return;
	}
	snprintf(kill_file, sizeof(kill_file), "%s/cgroup.kill", g->path);
	g->has_kill = stat(kill_file, &st) == 0;
	g->dir_fd = open(g->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC); /* made above */
	start_guard(g);
}

int wgroup_add(struct wgroup *g, pid_t pid)
{
	char buf[32];

	if (!g->path[0])
		return -1;
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	return write_file(g->path, "cgroup.procs", buf);
}

void wgroup_signal(struct wgroup *g, int sig)
{
	if (!g->path[0])
		return;
	if (sig == SIGKILL && g->has_kill && write_file(g->path, "cgroup.kill", "1") == 0)
		return;
	each_proc(g->path, send_sig, &sig);
}

int wgroup_count(struct wgroup *g)
{
	return g->path[0] ? each_proc(g->path, NULL, NULL) : 0;
}

struct move_ctx {
	const char *home;
};

static void move_home(pid_t pid, void *arg)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", (int)pid);
	write_file(((struct move_ctx *)arg)->home, "cgroup.procs", buf);
}

void wgroup_close(struct wgroup *g, int kill_rest)
{
	struct move_ctx mc = { .home = g->home };

	if (g->guard_wr >= 0 && g->guard > 0) {
		if (write(g->guard_wr, "d", 1) != 1)
			kill(g->guard, SIGKILL);
		close(g->guard_wr);
		waitpid(g->guard, NULL, 0);
		g->guard_wr = -1;
	}
	if (g->dir_fd >= 0)
		close(g->dir_fd);
	g->dir_fd = -1;
	if (!g->path[0])
		return;
	if (kill_rest) {
		kill_all(g->path, g->has_kill);
	} else {
		each_proc(g->path, move_home, &mc);
		for (int k = 0; k < 100 && rmdir(g->path) != 0 && errno == EBUSY; k++)
			usleep(10000);
	}
	g->path[0] = '\0';
}
