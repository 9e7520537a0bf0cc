// SPDX-License-Identifier: GPL-2.0
/* iowhy: where did the time go? The top-level command line: subcommand dispatch. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "bpf_features.h"
#include "cmd_compare.h"
#include "gen.h"
#include "hunt.h"
#include "storage.h"
#include "writer.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "run", cmd_run, "run any command under tracing: iowhy run [OPTIONS] -- CMD [ARGS...]" },
	{ "attach", cmd_attach, "trace what already runs: -p PID | --cgroup PATH | -a [--duration D]" },
	{ "gen", cmd_gen, "small-file workload: --strategy loop|split|direct --size S --count N" },
	{ "bigfile", cmd_bigfile, "one big file: --size S --method dd|fallocate|truncate [--bs LIST]" },
	{ "read", cmd_read, "read as fast as possible: [FILE | --size S] --bs LIST [--hash md5|crc32]" },
	{ "rand", cmd_rand, "random I/O: --bs 4k --op read|write --workers N (--ops K | --time T)" },
	{ "fsbench", cmd_fsbench, "seq/random read/write summary in MiB/s, IOPS and latency" },
	{ "tar", cmd_tar, "tar byte-range reads: --members M --member-size S --readers R [--gzip]" },
	{ "copy", cmd_copy, "copy a tree: --files N --size S --jobs LIST --mode process|inproc" },
	{ "delete", cmd_delete, "delete a tree: --files N --size S --jobs LIST --mode process|inproc" },
	{ "hunt", cmd_hunt, "read-only bottleneck hunt: PATH|DEVICE members alone, together" },
	{ "compare", cmd_compare, "two JSON reports side by side: iowhy compare A.json B.json" },
	{ "report", cmd_report, "render a saved --json report again: JSON [-q] [--text] [--html F]" },
	{ "flamegraph", cmd_flamegraph, "folded stacks to an interactive SVG: FOLDED > out.svg" },
};

static void usage(FILE *f)
{
	fprintf(f, "iowhy %s: a wall-time breakdown of storage work, measured with eBPF tracepoints.\n"
		   "usage: iowhy COMMAND [OPTIONS]   (iowhy COMMAND --help for its options)\n"
		   "       iowhy -V | --version      (versions and the kernel's BPF features)\n\n",
		IOWHY_VERSION);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

int iowhy_main(int argc, char **argv)
{
	const char *a = argc > 1 ? argv[1] : NULL;

	if (!a) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(a, "-h") || !strcmp(a, "--help") || !strcmp(a, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
		features_print_version(stdout, IOWHY_VERSION);
		return 0;
	}
	if (!strcmp(a, "__write")) /* the loop strategy's writer when there is no dd */
		return writer_main(argc - 1, argv + 1);
	if (!strcmp(a, "__gen")) /* bench/overhead.sh: a gen strategy run untraced */
		return gen_untraced_main(argc - 1, argv + 1);
	if (!strcmp(a, "__floor")) /* bench/overhead.sh: CMD under empty programs (the floor) */
		return floor_main(argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(a, commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	if (a[0] == '-')
		fprintf(stderr, "iowhy: option '%s' goes after the command: iowhy COMMAND [OPTIONS] "
			"(see iowhy --help)\n", a);
	else
		fprintf(stderr, "iowhy: unknown command '%s' (see iowhy --help)\n", a);
	return 2;
}
