// SPDX-License-Identifier: GPL-2.0
/* `iowhy report JSON [-q | -v] [--text] [--html FILE]`: a saved JSON report rendered again. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "report.h"
#include "report_html.h"
#include "report_load.h"
#include "outfile.h"

static void report_usage(FILE *f)
{
	fprintf(f, "usage: iowhy report JSON [-q | -v] [--text] [--html FILE]\n"
		   "Renders a report saved with --json again: the text report (the default\n"
		   "one, -q brief or -v every phase in full) as the run printed it, and/or the\n"
		   "HTML page (--html; then --text for the text too) with the devices' latency\n"
		   "histograms and layer tables.\n");
}

int cmd_report(int argc, char **argv)
{
	const char *json = NULL, *html = NULL;
	struct report_options ro = { .detail = 0 };
	struct session_result s;
	int text = 0, rc = 0;
	char err[256];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			report_usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--brief")) {
			ro.detail = -1;
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--detail")) {
			ro.detail = 1;
		} else if (!strcmp(argv[i], "--text")) {
			text = 1;
		} else if (!strcmp(argv[i], "--html")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "iowhy report: --html needs a file\n");
				return 2;
			}
			html = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "iowhy report: unknown option %s (see iowhy report --help)\n",
				argv[i]);
			return 2;
		} else if (json) {
			fprintf(stderr, "iowhy report: one JSON report only (%s, %s)\n", json, argv[i]);
			return 2;
		} else {
			json = argv[i];
		}
	}
	if (!json) {
		report_usage(stderr);
		return 2;
	}
	if (html && outfile_check("report", "--html", html))
		return 2;
	rc = report_load_detail(json, &s, ro.detail, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "iowhy report: %s: %s\n", json, err);
		report_load_free(&s);
		return rc == -1 ? 2 : 1;
	}
	if (!html || text)
		report_text(stdout, &s, &ro);
	if (html) {
		FILE *f = outfile_open("report", "--html", html);

		if (!f || report_html_stream(f, html, &s))
			rc = 1;
	}
	report_load_free(&s);
	return rc;
}
