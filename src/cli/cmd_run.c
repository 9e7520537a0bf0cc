// SPDX-License-Identifier: GPL-2.0
/* `iowhy run [OPTIONS] [--] CMD [ARGS...]`: any command under tracing. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "commands.h"
#include "common.h"
#include "flush.h"

static const char run_usage[] =
	"usage: iowhy run [OPTIONS] [--] CMD [ARGS...]\n"
	"Runs CMD under tracing and breaks its wall time down. Exits with CMD's status.\n"
	"CMD's stdout and stderr are left as CMD writes them: the report goes to stderr, or to\n"
	"-o FILE; --json FILE writes the JSON report (not to stdout: that is CMD's).\n";

enum { RUN_O_SYNC = 256 };

static const struct opt_def run_opt_defs[] = {
	{ "sync", RUN_O_SYNC, "DIR", "after CMD, a flush phase: syncfs() on DIR's file system" },
	{ "user", 'u', "USER", "run CMD as USER (uid, gid, groups, HOME/USER/LOGNAME), as strace -u" },
	{ NULL, 0, NULL, NULL },
};

/* run's own options: 0, or -1 after a one-line message. */
static int run_handle(void *ctx, int key, const char *v)
{
	struct run_opts *o = ctx;
	struct stat st;

	if (key == 'u') {
		o->user = v;
		return 0;
	}
	if (key != RUN_O_SYNC)
		return 0;
	if (stat(v, &st) || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "iowhy run: --sync %s: not a directory\n", v);
		return -1;
	}
	o->sync_dir = v;
	return 0;
}

/* --dir is not here: run makes no scratch directory (CMD runs where iowhy is started). */
const struct cmd_def run_cmd = {
	.name = "run",
	.usage = run_usage,
	.opts = run_opt_defs,
	.common = CO_ALL & ~CO_DIR,
	.operand = OPERAND_CMD,
	.handle = run_handle,
};

int run_parse(int argc, char **argv, struct run_opts *o)
{
	int rc, cmd;

	memset(o, 0, sizeof(*o));
	rc = opts_parse(&run_cmd, argc, argv, &o->co, o, &cmd);
	if (rc)
		return rc;
	if (o->co.json_path && !strcmp(o->co.json_path, "-"))
		return opts_usage_error("run", "--json - would mix the JSON into CMD's stdout; "
					"give a file");
	if (!cmd)
		return opts_usage_error("run", "no command given (usage: iowhy run [OPTIONS] -- CMD "
					"[ARGS...])");
	o->argv = argv + cmd;
	o->argc = argc - cmd;
	return 0;
}

/* Before each run: drop the page cache with --drop-caches. */
static int run_before(void *arg)
{
	wl_maybe_drop("run", arg);
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static struct wl_plan plan; /* large: not on the stack */
	struct run_opts o;
	char command[512];
	int rc = run_parse(argc, argv, &o);

	if (rc)
		return rc == 1 ? 0 : rc;
	if ((rc = wl_plan_check("run", o.co.repeat * (o.sync_dir ? 2 : 1))) != 0)
		return rc;
	join_args(command, sizeof(command), o.argc, o.argv);
	memset(&plan, 0, sizeof(plan));
	for (int rep = 1; rep <= o.co.repeat; rep++) {
		struct phase_spec *ph = wl_plan_add(&plan, "run", rep, o.co.repeat, PHASE_WORK, NULL,
						    NULL);
		char name[sizeof(ph->name)];

		ph->argv = o.argv;
		ph->user = o.user;
		ph->before = run_before;
		ph->arg = &o.co;
		if (o.sync_dir) {
			ph = wl_plan_add(&plan, "run", rep, o.co.repeat, PHASE_FLUSH, NULL, NULL);
			memcpy(name, ph->name, sizeof(name)); /* "run#2/flush": unique per run */
			flush_phase(ph, "run", (char *)o.sync_dir);
			memcpy(ph->name, name, sizeof(name));
		}
	}
	return session_main("run", command, plan.ph, plan.n, &o.co);
}
