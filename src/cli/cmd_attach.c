// SPDX-License-Identifier: GPL-2.0
/* `iowhy attach -p PID[,PID...] | --cgroup PATH | -a [--duration D]`: trace what already runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "attach.h"
#include "units.h"
#include "outfile.h"

static const char attach_usage[] =
	"usage: iowhy attach (-p PID[,PID...] | --cgroup PATH | -a) [OPTIONS]\n"
	"Traces processes that already run (all their threads and what they start), a cgroup's\n"
	"tasks, or the whole machine, for --duration or until Ctrl-C, and breaks the window's wall\n"
	"time down as run does (with -a and --cgroup: per process too). The report goes to stdout\n"
	"or -o FILE. A -p target that exits ends the window.\n";

enum { AT_O_CGROUP = 256, AT_O_DURATION, AT_O_LITE, AT_O_SLOW, AT_O_PROM };

static const struct opt_def attach_opt_defs[] = {
	{ "pid", 'p', "PID[,PID...]", "these processes (one group), their threads and children" },
	{ "cgroup", AT_O_CGROUP, "PATH", "every task in this cgroup directory (v2 or v1) and joiners" },
	{ "all", 'a', NULL, "the whole machine, every process but iowhy, listed per process" },
	{ "duration", AT_O_DURATION, "D", "stop after D (e.g. 10s, 2m); default: until Ctrl-C" },
	{ "lite", AT_O_LITE, NULL, "no syscall probes (lowest overhead): no syscall counts" },
	{ "slow", AT_O_SLOW, "MS", "list every syscall of MS ms or more, with where its time went" },
	{ "prometheus", AT_O_PROM, "FILE", "node_exporter textfile, rewritten every interval (15s)" },
	{ NULL, 0, NULL, NULL },
};

/* -p's list: PID[,PID...], each a positive number. 0, or -1 after a line. */
static int parse_pids(struct attach_opts *o, const char *v)
{
	const char *p = v;

	while (*p) {
		char *end;
		long n = strtol(p, &end, 10);

		if (end == p || n <= 0 || n > 0x3fffffff || (*end && *end != ',')) {
			fprintf(stderr, "iowhy attach: -p %s: not a list of process ids (see iowhy attach "
				"--help)\n", v);
			return -1;
		}
		if (o->t.npids == ATTACH_MAX_PIDS) {
			fprintf(stderr, "iowhy attach: -p: at most %d processes\n", ATTACH_MAX_PIDS);
			return -1;
		}
		o->t.pids[o->t.npids++] = (pid_t)n;
		p = *end ? end + 1 : end;
		if (*end && !*p) {
			fprintf(stderr, "iowhy attach: -p %s: not a list of process ids (see iowhy attach "
				"--help)\n", v);
			return -1;
		}
	}
	return 0;
}

/* A second target form is refused: one kind per session. 0, or -1 after a line. */
static int set_kind(struct attach_opts *o, enum attach_kind k)
{
	if (o->t.kind && o->t.kind != k) {
		fprintf(stderr, "iowhy attach: give one of -p, --cgroup and -a (see iowhy attach "
			"--help)\n");
		return -1;
	}
	o->t.kind = k;
	return 0;
}

static int attach_handle(void *ctx, int key, const char *v)
{
	struct attach_opts *o = ctx;
	char err[128];

	switch (key) {
	case 'p':
		return set_kind(o, ATTACH_PIDS) ? -1 : parse_pids(o, v);
	case AT_O_CGROUP:
		o->t.cgroup = v;
		return set_kind(o, ATTACH_CGROUP);
	case 'a':
		return set_kind(o, ATTACH_ALL);
	case AT_O_DURATION:
		if (parse_duration(v, &o->t.duration_ns, err, sizeof(err)) || !o->t.duration_ns) {
			fprintf(stderr, "iowhy attach: --duration %s: %s (see iowhy attach --help)\n", v,
				o->t.duration_ns ? err : "must be more than 0");
			return -1;
		}
		return 0;
	case AT_O_LITE:
		o->t.lite = 1;
		return 0;
	case AT_O_SLOW: {
		char *end;
		double ms = strtod(v, &end);

		if (end == v || *end || !(ms > 0) || ms > 3600e3) {
			fprintf(stderr, "iowhy attach: --slow %s: a number of milliseconds above 0 (see "
				"iowhy attach --help)\n", v);
			return -1;
		}
		o->co.slow_ns = (uint64_t)(ms * 1e6);
		return 0;
	}
	case AT_O_PROM:
		if (outfile_check("attach", "--prometheus", v))
			return -1;
		o->co.prometheus = v;
		return 0;
	default:
		return 0;
	}
}

const struct cmd_def attach_cmd = {
	.name = "attach",
	.usage = attach_usage,
	.opts = attach_opt_defs,
	.common = CO_JSON | CO_TEXT | CO_NOIO | CO_DETAIL | CO_INTERVAL | CO_SAMPLE | CO_TIMELINE,
	.operand = OPERAND_NONE,
	.handle = attach_handle,
};

int attach_parse(int argc, char **argv, struct attach_opts *o)
{
	int rc;

	memset(o, 0, sizeof(*o));
	rc = opts_parse(&attach_cmd, argc, argv, &o->co, o, NULL);
	if (rc)
		return rc;
	if (!o->t.kind)
		return opts_usage_error("attach", "no target: give -p PID, --cgroup PATH or -a");
	if (o->t.lite && o->co.slow_ns)
		return opts_usage_error("attach", "--slow needs the syscall probes that --lite leaves "
					"out");
	if (o->co.prometheus && !o->co.interval_ns)
		o->co.interval_ns = 15000000000ull;
	return 0;
}

int cmd_attach(int argc, char **argv)
{
	static struct attach_opts o; /* the target stays referenced by the phase */
	char command[512];
	int rc = attach_parse(argc, argv, &o);

	if (rc)
		return rc == 1 ? 0 : rc;
	join_args(command, sizeof(command), argc - 1, argv + 1);
	return attach_main(&o.t, &o.co, command);
}
