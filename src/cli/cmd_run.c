// SPDX-License-Identifier: GPL-2.0
/* `iowhy run [--json FILE] [--sync DIR] [--no-io] -- CMD [ARGS...]`: any command under tracing. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "commands.h"
#include "session.h"
#include "flush.h"

static void run_usage(FILE *f)
{
	fprintf(f, "usage: iowhy run [--json FILE] [--sync DIR] [--no-io] [-u USER] -- CMD [ARGS...]\n"
		   "Runs CMD under tracing and breaks its wall time down. Exits with CMD's status.\n"
		   "  --sync DIR       after CMD, a flush phase: syncfs() on DIR's file system\n"
		   "  -u, --user USER  run CMD as USER (uid, gid, groups, HOME/USER/LOGNAME), as strace -u;\n"
		   "                   iowhy itself stays root\n%s",
		common_opts_help);
}

int cmd_run(int argc, char **argv)
{
	struct common_opts o;
	struct phase_spec ph[2];
	char *sync_dir = NULL, command[512];
	const char *user = NULL;
	int i, n = 0;

	common_opts_init(&o);
	for (i = 1; i < argc; i++) {
		int c;

		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (argv[i][0] != '-')
			break;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			run_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--sync")) {
			struct stat st;

			if (i + 1 >= argc) {
				fprintf(stderr, "iowhy run: --sync needs a directory\n");
				return 2;
			}
			sync_dir = argv[++i];
			if (stat(sync_dir, &st) || !S_ISDIR(st.st_mode)) {
				fprintf(stderr, "iowhy run: --sync %s: not a directory\n", sync_dir);
				return 2;
			}
			continue;
		}
		if (!strcmp(argv[i], "-u") || !strcmp(argv[i], "--user")) {
			if (i + 1 >= argc || !argv[i + 1][0]) {
				fprintf(stderr, "iowhy run: %s needs a user name\n", argv[i]);
				return 2;
			}
			user = argv[++i];
			continue;
		}
		c = common_opt(argc, argv, &i, &o);
		if (c < 0)
			return 2;
		if (!c) {
			fprintf(stderr, "iowhy run: unknown option %s (see iowhy run --help)\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "iowhy run: no command given (usage: iowhy run [OPTIONS] -- CMD [ARGS...])\n");
		return 2;
	}
	join_args(command, sizeof(command), argc - i, argv + i);
	memset(ph, 0, sizeof(ph));
	snprintf(ph[0].name, sizeof(ph[0].name), "run");
	snprintf(ph[0].column, sizeof(ph[0].column), "run");
	ph[0].kind = PHASE_WORK;
	ph[0].argv = argv + i;
	ph[0].user = user;
	n = 1;
	if (sync_dir)
		flush_phase(&ph[n++], "run", sync_dir);
	return session_main("run", command, ph, n, &o);
}
