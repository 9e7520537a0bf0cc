// SPDX-License-Identifier: GPL-2.0
/* A call in a thread of its own; see bg_call.h. */
#include <signal.h>
#include <string.h>
#include "bg_call.h"

/* The thread: the call (it is made with every signal blocked: they are the caller's). */
static void *bg_main(void *arg)
{
	struct bg_call *c = arg;

	c->rc = c->fn(c->arg);
	return NULL;
}

void bg_call_start(struct bg_call *c, int (*fn)(void *arg), void *arg)
{
	sigset_t all, old;

	memset(c, 0, sizeof(*c));
	c->fn = fn;
	c->arg = arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old); /* the thread inherits this mask */
	if (pthread_create(&c->thread, NULL, bg_main, c) == 0)
		c->running = 1;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!c->running)
		c->rc = fn(arg);
}

int bg_call_wait(struct bg_call *c)
{
	if (c->running) {
		pthread_join(c->thread, NULL);
		c->running = 0;
	}
	return c->rc;
}
