// SPDX-License-Identifier: GPL-2.0
/* `iowhy flamegraph [--title T] [--width PX] FOLDED > out.svg`: folded stacks to an SVG. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "flamegraph.h"
#include "units.h"

static void flame_usage(FILE *f)
{
	fprintf(f, "usage: iowhy flamegraph [--title TEXT] [--width PX] FOLDED > out.svg\n"
		   "Draws folded stacks ('frame;frame;frame COUNT' per line, FlameGraph's format; '-'\n"
		   "reads stdin) as an interactive SVG: click a frame to zoom, Search or Ctrl-F to\n"
		   "highlight frames by a regular expression.\n");
}

int cmd_flamegraph(int argc, char **argv)
{
	struct flame_style st = { .title = "Flame graph", .standalone = 1 };
	const char *path = NULL;
	char err[256];
	struct flame *f;
	FILE *in;
	int rc;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			flame_usage(stdout);
			return 0;
		}
		if ((!strcmp(argv[i], "--title") || !strcmp(argv[i], "--width")) && i + 1 >= argc) {
			fprintf(stderr, "iowhy flamegraph: %s needs a value\n", argv[i]);
			return 2;
		}
		if (!strcmp(argv[i], "--title")) {
			st.title = argv[++i];
		} else if (!strcmp(argv[i], "--width")) {
			uint64_t w;

			if (parse_count(argv[++i], 100000, &w, err, sizeof(err)) || w < 200) {
				fprintf(stderr, "iowhy flamegraph: --width %s: 200 to 100000 px\n",
					argv[i]);
				return 2;
			}
			st.width = (double)w;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "iowhy flamegraph: unknown option %s\n", argv[i]);
			return 2;
		} else if (path) {
			fprintf(stderr, "iowhy flamegraph: one folded file only (%s, %s)\n", path,
				argv[i]);
			return 2;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		flame_usage(stderr);
		return 2;
	}
	in = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!in) {
		fprintf(stderr, "iowhy flamegraph: %s: %s\n", path, strerror(errno));
		return 2;
	}
	f = flame_new();
	rc = f ? flame_read(f, in, err, sizeof(err)) : -2;
	if (in != stdin)
		fclose(in);
	if (rc == 0 && !flame_samples(f)) {
		snprintf(err, sizeof(err), "no samples (no line with a count above 0)");
		rc = -1;
	}
	if (rc) {
		fprintf(stderr, "iowhy flamegraph: %s: %s\n", path, f ? err : "out of memory");
		flame_free(f);
		return rc == -1 ? 2 : 1;
	}
	flame_svg(stdout, f, &st);
	flame_free(f);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "iowhy flamegraph: cannot write the SVG: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
