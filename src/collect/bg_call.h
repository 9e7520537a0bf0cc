/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One call run in a thread of its own while the caller goes on, e.g. loading one BPF object while
 * the caller loads another (libbpf objects are independent; the verifier runs in the calling
 * thread, so two loads use two CPUs). The thread blocks every signal: handlers run in the caller.
 *
 *   struct bg_call c;
 *   bg_call_start(&c, fn, arg);     runs fn(arg) in a thread (in the caller if none can be made)
 *   ... other work ...
 *   rc = bg_call_wait(&c);          fn's return value
 */
#ifndef IOWHY_BG_CALL_H
#define IOWHY_BG_CALL_H

#include <pthread.h>

struct bg_call {
	pthread_t thread;
	int running;         /* a thread was made and not joined yet */
	int (*fn)(void *arg);
	void *arg;
	int rc;
};

/* Start fn(arg) in a thread; when no thread can be made, fn runs here and now. */
void bg_call_start(struct bg_call *c, int (*fn)(void *arg), void *arg);
/* Wait for the call to finish; its return value (0 for a call never started). */
int bg_call_wait(struct bg_call *c);

#endif
