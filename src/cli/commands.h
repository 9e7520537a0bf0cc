/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands main() dispatches to. Each returns iowhy's exit status. */
#ifndef IOWHY_CLI_H
#define IOWHY_CLI_H

#include <stddef.h>
#include "options.h"
#include "attach.h"

/* `iowhy ARGS...`: the whole command line, dispatched to a subcommand; the exit status. */
int iowhy_main(int argc, char **argv);

/* What `iowhy run` was asked to do. */
struct run_opts {
	struct common_opts co;
	const char *sync_dir;   /* --sync DIR: a flush phase after each run */
	const char *user;       /* -u USER: the command runs as USER; iowhy stays root */
	char **argv;            /* the command and its arguments */
	int argc;
};

/* Parse `run` arguments (argv[0] is "run"): options.h's 0, 1 or 2. */
int run_parse(int argc, char **argv, struct run_opts *o);
extern const struct cmd_def run_cmd;

int cmd_run(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);    /* cmd_flamegraph.c */
int cmd_report(int argc, char **argv);        /* cmd_report.c */

/* What `iowhy attach` was asked to do. */
struct attach_opts {
	struct common_opts co;
	struct attach_target t;
};

/* Parse `attach` arguments (argv[0] is "attach"): options.h's 0, 1 or 2. */
int attach_parse(int argc, char **argv, struct attach_opts *o);
extern const struct cmd_def attach_cmd;
int cmd_attach(int argc, char **argv);
/* `iowhy __floor [--core|--syscalls] CMD...`: CMD under empty programs (bench/overhead.sh). */
int floor_main(int argc, char **argv);
/* Join argv into one shell-like line (arguments with spaces are quoted). */
void join_args(char *buf, size_t n, int argc, char **argv);

#endif
