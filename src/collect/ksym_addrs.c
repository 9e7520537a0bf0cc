// SPDX-License-Identifier: GPL-2.0
/* Kernel symbol addresses without a full kallsyms parse; see ksym_addrs.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "ksym_addrs.h"
#include "probe_set.h"
#include "ksym.h"
#include "ksym.skel.h"

#define SCAN_CHUNK (64 * 1024)

/* Ask the kernel with the BPF syscall program. Returns 0 (addrs filled, 0 for unknown names), or
 * -1 when the program cannot be loaded or run here (libbpf's warning about it goes wherever the
 * loader sends them: core_probes.c keeps it quiet). */
static int lookup_bpf(const char *const *names, uint64_t *addrs, int n)
{
	struct ksym_bpf *s = ksym_bpf__open_and_load();
	int rc = s ? 0 : -1;

	for (int i = 0; s && i < n && !rc; i++) {
		struct ksym_query q;
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &q, .ctx_size_in = sizeof(q));

		memset(&q, 0, sizeof(q));
		snprintf(q.name, sizeof(q.name), "%s", names[i]);
		rc = bpf_prog_test_run_opts(bpf_program__fd(s->progs.ksym_lookup), &o) ? -1 : 0;
		/* -ENOENT: no such symbol (0); -EPERM: addresses hidden from us: not an answer */
		if (!rc && q.err && q.err != -ENOENT)
			rc = -1;
		addrs[i] = rc ? 0 : q.addr;
	}
	ksym_bpf__destroy(s);
	return rc;
}

/* One line of kallsyms ("ADDR TYPE NAME[\t[MODULE]]", no newline): the names it matches get its
 * address. Returns how many names it newly found. */
static int scan_line(const char *line, size_t len, const char *const *names, uint64_t *addrs,
		     char *found, int n)
{
	const char *end = line + len, *name, *p;
	uint64_t addr = 0;
	size_t nlen;
	int got = 0;

	for (p = line; p < end && *p != ' '; p++) {
		int c = *p, d = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;

		if (d < 0 || d > 15)
			return 0;
		addr = addr << 4 | (uint64_t)d;
	}
	if (end - p < 4 || p[2] != ' ' || !addr) /* " T name"; zeros: addresses hidden */
		return 0;
	name = p + 3;
	for (p = name; p < end && *p != '\t' && *p != ' '; p++)
		;
	nlen = (size_t)(p - name);
	for (int i = 0; i < n; i++) {
		if (found[i] || strlen(names[i]) != nlen || memcmp(names[i], name, nlen))
			continue;
		addrs[i] = addr;
		found[i] = 1;
		got++;
	}
	return got;
}

int ksym_addrs_scan(const char *path, const char *const *names, uint64_t *addrs, int n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), got = 0;
	char *buf = malloc(SCAN_CHUNK), *found = calloc(n > 0 ? n : 1, 1);
	size_t have = 0;
	ssize_t r = 0;

	for (int i = 0; i < n; i++)
		addrs[i] = 0;
	if (fd < 0 || !buf || !found) {
		if (fd >= 0)
			close(fd);
		free(buf);
		free(found);
		return -1;
	}
	while (got < n && (r = read(fd, buf + have, SCAN_CHUNK - have)) > 0) {
		char *line = buf, *nl, *stop = buf + have + r;

		while (got < n && (nl = memchr(line, '\n', (size_t)(stop - line)))) {
			got += scan_line(line, (size_t)(nl - line), names, addrs, found, n);
			line = nl + 1;
		}
		have = (size_t)(stop - line);
		if (have == SCAN_CHUNK) /* a line longer than the buffer: not kallsyms */
			break;
		memmove(buf, line, have);
	}
	if (got < n && have && r == 0) /* a last line without a newline */
		got += scan_line(buf, have, names, addrs, found, n);
	close(fd);
	free(buf);
	free(found);
	return r < 0 ? -1 : got;
}

enum ksym_way ksym_addrs(const char *const *names, uint64_t *addrs, int n)
{
	if (!probe_fallbacks_forced() && lookup_bpf(names, addrs, n) == 0)
		return KSYM_BPF;
	if (ksym_addrs_scan("/proc/kallsyms", names, addrs, n) >= 0)
		return KSYM_KALLSYMS;
	for (int i = 0; i < n; i++)
		addrs[i] = 0;
	return KSYM_NONE;
}
