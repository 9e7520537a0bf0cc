// SPDX-License-Identifier: GPL-2.0
/* Probe states and the missing-probe list; see probe_status.h. */
#include <stdio.h>
#include <string.h>
#include "probe_status.h"

static const struct {
	const char *code, *text;
} states[] = {
	[PROBE_WANTED] = { "wanted", "not attached" },
	[PROBE_ATTACHED] = { "attached", "attached" },
	[PROBE_ABSENT] = { "absent", "not in this kernel" },
	[PROBE_SKIPPED] = { "skipped", "skipped by IOWHY_SKIP_PROBES" },
	[PROBE_LOAD_FAILED] = { "load_failed", "failed to load" },
	[PROBE_ATTACH_FAILED] = { "attach_failed", "failed to attach" },
};

const char *probe_state_code(enum probe_state s)
{
	return (unsigned)s < sizeof(states) / sizeof(states[0]) ? states[s].code : "unknown";
}

const char *probe_state_text(enum probe_state s)
{
	return (unsigned)s < sizeof(states) / sizeof(states[0]) ? states[s].text : "unknown";
}

int missing_probes_add(struct missing_probes *m, const char *name, enum probe_state why, int err)
{
	struct missing_probe *p;

	for (unsigned i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].name, name))
			return 0; /* two programs on one tracepoint: listed once */
	if (m->n >= MISSING_PROBES_MAX)
		return -1;
	p = &m->v[m->n++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->why = why;
	p->err = err;
	return 0;
}

int missing_probes_append(struct missing_probes *dst, const struct missing_probes *src)
{
	for (unsigned i = 0; i < src->n; i++)
		if (missing_probes_add(dst, src->v[i].name, src->v[i].why, src->v[i].err))
			return -1;
	return 0;
}

/* Length of the category ("nfs" of "nfs:nfs_initiate_write"); 0 without one. */
static size_t category_len(const char *name)
{
	const char *c = strchr(name, ':');

	return c ? (size_t)(c - name) : 0;
}

/* How many entries from i on are absent probes of the same category as entry i. */
static unsigned absent_run(const struct missing_probes *m, unsigned i)
{
	size_t cl = category_len(m->v[i].name);
	unsigned j = i;

	while (j < m->n && m->v[j].why == PROBE_ABSENT && cl &&
	       category_len(m->v[j].name) == cl && !strncmp(m->v[j].name, m->v[i].name, cl))
		j++;
	return j - i;
}

char *missing_probes_text(const struct missing_probes *m, char *buf, size_t n)
{
	size_t len = 0;

	if (!n)
		return buf;
	buf[0] = 0;
	for (unsigned i = 0; i < m->n && len < n;) {
		const struct missing_probe *p = &m->v[i];
		unsigned run = absent_run(m, i);
		char why[128] = "";

		if (run >= 3) { /* a whole subsystem this kernel lacks: "nfs:* (6 tracepoints)" */
			len += snprintf(buf + len, n - len, "%s%.*s:* (%u tracepoints)", i ? ", " : "",
					(int)category_len(p->name), p->name, run);
			i += run;
			continue;
		}
		if (p->why != PROBE_ABSENT && p->err)
			snprintf(why, sizeof(why), " (%s: %s)", probe_state_text(p->why),
				 strerror(p->err));
		else if (p->why != PROBE_ABSENT)
			snprintf(why, sizeof(why), " (%s)", probe_state_text(p->why));
		len += snprintf(buf + len, n - len, "%s%s%s", i ? ", " : "", p->name, why);
		i++;
	}
	return buf;
}
