// SPDX-License-Identifier: GPL-2.0
/* The one-line progress of the built-in workloads (see progress.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "progress.h"
#include "clock.h"
#include "units.h"

#define EVERY_NS 500000000ull   /* redraw at most this often */

static int quiet;
static struct progress_line *current;

void progress_set_quiet(int q)
{
	quiet = q;
}

/* The delay before the first line: IOWHY_PROGRESS_DELAY ms, default 500. */
static uint64_t first_delay_ns(void)
{
	return env_number("IOWHY_PROGRESS_DELAY", EVERY_NS / 1000000ull, 1000000000ull) * 1000000ull;
}

/* done or total in the unit: sizes for bytes, counts otherwise. */
static char *amount(char *buf, size_t n, const char *unit, uint64_t v)
{
	return strcmp(unit, "B") ? fmt_count(buf, n, v) : fmt_bytes(buf, n, v);
}

size_t progress_format(char *buf, size_t n, const char *what, const char *unit, uint64_t done,
		       uint64_t total, uint64_t elapsed_ns)
{
	double secs = (double)elapsed_ns / 1e9, rate = secs > 0 ? (double)done / secs : 0;
	char d[32], t[32], r[32], e[32];
	int bytes = !strcmp(unit, "B");
	size_t len;

	amount(d, sizeof(d), unit, done);
	if (bytes)
		fmt_rate(r, sizeof(r), rate);
	else
		snprintf(r, sizeof(r), "%s/s", fmt_count(t, sizeof(t), (uint64_t)(rate + 0.5)));
	if (total)
		len = (size_t)snprintf(buf, n, "%s: %s/%s%s%s (%.1f%%), %s", what, d,
				       amount(t, sizeof(t), unit, total), bytes ? "" : " ",
				       bytes ? "" : unit, 100.0 * (double)done / (double)total, r);
	else
		len = (size_t)snprintf(buf, n, "%s: %s%s%s, %s", what, d, bytes ? "" : " ",
				       bytes ? "" : unit, r);
	if (len >= n)
		return n ? n - 1 : 0;
	if (total && done < total && rate > 0)
		len += (size_t)snprintf(buf + len, n - len, ", ETA %s",
					fmt_ns(e, sizeof(e), (uint64_t)((double)(total - done) /
									rate * 1e9)));
	else
		len += (size_t)snprintf(buf + len, n - len, ", %s",
					fmt_ns(e, sizeof(e), elapsed_ns));
	return len < n ? len : n - 1;
}

void progress_start(struct progress_line *p, const char *what, uint64_t total, const char *unit)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->what, sizeof(p->what), "%s", what);
	p->unit = unit ? unit : "B";
	p->total = total;
	p->on = !quiet && isatty(STDERR_FILENO);
	p->start_ns = now_ns();
	p->next_ns = p->start_ns + first_delay_ns();
	current = p;
}

void progress_update(struct progress_line *p, uint64_t done)
{
	char line[160];
	uint64_t now;

	p->done = done;
	if (!p->on || (p->tick++ & 63) != 0)
		return;
	now = now_ns();
	if (now < p->next_ns)
		return;
	p->next_ns = now + EVERY_NS;
	p->shown = 1;
	progress_format(line, sizeof(line), p->what, p->unit, done, p->total, now - p->start_ns);
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
}

void progress_count(uint64_t n)
{
	if (current)
		progress_update(current, current->done + n);
}

void progress_end(struct progress_line *p)
{
	if (current == p)
		current = NULL;
	if (p->shown)
		fprintf(stderr, "\r\033[K");
	p->shown = 0;
}
