// SPDX-License-Identifier: GPL-2.0
/* bench/bpf_primitives.sh's loader: times null syscalls (getppid) under each mode of
 * primitives.bpf.c, on 1 thread and then on one thread per online CPU at once. Prints ns per
 * operation: (best time of the mode - best time of mode 0) / calls / 50. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "primitives.skel.h"

#define MODES 11
static const char *const names[MODES] = {
	"(program returning at once)", "clock read (bpf_ktime_get_ns)", "probe read (BPF_CORE_READ)",
	"plain load (typed pointer)", "ring buffer reserve + submit", "hash lookup",
	"hash update + delete", "LRU hash update + delete", "task storage get",
	"spin lock + unlock (shared)", "atomic add (shared)",
};

static int calls = 100000;

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static void *loop(void *arg)
{
	double *ns = arg, t0 = now_ns();

	for (int i = 0; i < calls; i++)
		syscall(SYS_getppid);
	*ns = now_ns() - t0;
	return NULL;
}

/* nthreads loops at once; the slowest thread's time */
static double run(int nthreads)
{
	pthread_t th[256];
	double ns[256], worst = 0;

	for (int i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, loop, &ns[i]);
	for (int i = 0; i < nthreads; i++) {
		pthread_join(th[i], NULL);
		if (ns[i] > worst)
			worst = ns[i];
	}
	return worst;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 7, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct primitives_bpf *s = primitives_bpf__open();

	if (ncpu > 256)
		ncpu = 256;
	if (!s)
		return 1;
	s->rodata->tgid = getpid();
	if (primitives_bpf__load(s) || primitives_bpf__attach(s)) {
		fprintf(stderr, "bpf_primitives: cannot load or attach the program\n");
		primitives_bpf__destroy(s);
		return 1;
	}
	for (int nth = 1; nth <= ncpu; nth = nth == ncpu ? ncpu + 1 : ncpu) {
		double best[MODES];

		for (int m = 0; m < MODES; m++)
			best[m] = 1e300;
		for (int r = 0; r < reps; r++) /* modes interleaved: a host that drifts hits all */
			for (int m = 0; m < MODES; m++) {
				double t;

				s->bss->mode = m;
				t = run(nth);
				if (t < best[m])
					best[m] = t;
			}
		printf("%d thread%s (one a CPU, at once), best of %d, %d getppid each:\n", nth,
		       nth > 1 ? "s" : "", reps, calls);
		printf("  %-32s %7.1f ns a call\n", "getppid with the program", best[0] / calls);
		for (int m = 1; m < MODES; m++)
			printf("  %-32s %7.1f ns\n", names[m], (best[m] - best[0]) / calls / 50);
	}
	primitives_bpf__destroy(s);
	return 0;
}
