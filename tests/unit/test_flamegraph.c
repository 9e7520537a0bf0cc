// SPDX-License-Identifier: GPL-2.0
/* Unit tests: flame graphs from folded stacks (src/report/flamegraph.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "flamegraph.h"

/* Render f to a malloc'ed string. */
static char *render(const struct flame *f, int standalone, size_t *drawn)
{
	struct flame_style st = { .title = "t", .standalone = standalone };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	*drawn = flame_svg(m, f, &st);
	fclose(m);
	return buf;
}

static struct flame *from_text(const char *text)
{
	struct flame *f = flame_new();
	char err[128] = "";
	FILE *in = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	assert_non_null(in);
	assert_int_equal(flame_read(f, in, err, sizeof(err)), 0);
	fclose(in);
	return f;
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The <rect> width of the frame whose tooltip starts with `name (`. */
static double width_of(const char *svg, const char *name)
{
	char key[128];
	const char *p;
	double w = -1;

	snprintf(key, sizeof(key), "<title>%s (", name);
	p = strstr(svg, key);
	assert_non_null(p);
	p = strstr(p, "width=\"");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "width=\"%lf\"", &w), 1);
	return w;
}

/* Frames are distinct stack prefixes, merged across lines; widths are exact sample shares. */
static void test_frames_and_widths(void **state)
{
	struct flame *f = from_text("main;a;b 3\nmain;a;c 1\n\nmain;d 4\nmain;a;b 2\nidle 10\n");
	size_t drawn;
	char *svg;

	(void)state;
	assert_int_equal(flame_samples(f), 20);
	/* main, main;a, main;a;b, main;a;c, main;d, idle */
	assert_int_equal(flame_frames(f), 6);
	svg = render(f, 1, &drawn);
	assert_int_equal(drawn, 6);
	assert_int_equal(count_of(svg, "<g class=\"f\""), 6);
	assert_int_equal(count_of(svg, "<g class=\"f root\""), 1);
	/* 1180 px of drawing width: main 10/20, a 6/20, b 5/20, c 1/20, d 4/20, idle 10/20 */
	assert_float_equal(width_of(svg, "all"), 1180.0, 1e-3);
	assert_float_equal(width_of(svg, "main"), 590.0, 1e-3);
	assert_float_equal(width_of(svg, "a"), 354.0, 1e-3);
	assert_float_equal(width_of(svg, "b"), 295.0, 1e-3);
	assert_float_equal(width_of(svg, "c"), 59.0, 1e-3);
	assert_float_equal(width_of(svg, "d"), 236.0, 1e-3);
	assert_float_equal(width_of(svg, "idle"), 590.0, 1e-3);
	/* children in name order: idle left of main; inside main, a then d */
	assert_true(strstr(svg, "data-x=\"0\" data-n=\"10\" data-d=\"1\"><title>idle") != NULL);
	assert_true(strstr(svg, "data-x=\"10\" data-n=\"10\" data-d=\"1\"><title>main") != NULL);
	assert_true(strstr(svg, "data-x=\"16\" data-n=\"4\" data-d=\"2\"><title>d") != NULL);
	/* standalone: an XML document with its own script */
	assert_true(!strncmp(svg, "<?xml", 5));
	assert_non_null(strstr(svg, "<![CDATA["));
	free(svg);
	svg = render(f, 0, &drawn);
	assert_null(strstr(svg, "<?xml"));
	assert_null(strstr(svg, "<script"));
	free(svg);
	flame_free(f);
}

/* Frame names are untrusted: every XML special character is escaped, control bytes replaced. */
static void test_hostile_names(void **state)
{
	struct flame *f = from_text("<script>alert(1)</script>;a&b;\"q\";it's;x\x01y 2\n");
	size_t drawn;
	char *svg;

	(void)state;
	svg = render(f, 1, &drawn);
	assert_int_equal(drawn, 5);
	assert_null(strstr(svg, "<script>alert"));
	assert_non_null(strstr(svg, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(svg, "<title>a&amp;b ("));
	assert_non_null(strstr(svg, "<title>&quot;q&quot; ("));
	assert_non_null(strstr(svg, "<title>it&#39;s ("));
	assert_non_null(strstr(svg, "<title>x?y ("));
	assert_null(strstr(svg, "\x01"));
	free(svg);
	flame_free(f);
}

/* Malformed lines are refused with the line number and a reason; nothing else is. */
static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"a;b\n", "a;b x\n", "a;b 1.5\n", "a;;b 3\n", ";a 3\n", "a; 3\n", " 3\n", "3\n",
		"a;b 99999999999999999999999\n", "a;b3\n",
	};
	char err[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct flame *f = flame_new();
		char text[128];
		FILE *in;

		snprintf(text, sizeof(text), "ok;frame 1\n%s", bad[i]);
		in = fmemopen(text, strlen(text), "r");
		err[0] = 0;
		assert_int_equal(flame_read(f, in, err, sizeof(err)), -1);
		assert_true(!strncmp(err, "line 2: ", 8));
		fclose(in);
		flame_free(f);
	}
	/* blanks and a zero count are fine; frames may contain spaces */
	{
		struct flame *f = from_text("  \nfoo bar;baz qux 0\nfoo bar;baz 7\t\r\n");

		assert_int_equal(flame_samples(f), 7);
		assert_int_equal(flame_frames(f), 2);
		flame_free(f);
	}
}

/* Frames narrower than FLAME_MIN_PX are left out and counted; zoom data stays exact. */
static void test_cutoff(void **state)
{
	struct flame *f = from_text("big 1000000\ntiny;t 1\n");
	size_t drawn;
	char *svg;

	(void)state;
	assert_int_equal(flame_frames(f), 3);
	svg = render(f, 1, &drawn);
	assert_int_equal(drawn, 1);
	assert_non_null(strstr(svg, "data-omitted=\"2\""));
	assert_non_null(strstr(svg, "2 frames narrower than"));
	free(svg);
	flame_free(f);
}

static void test_add_stack(void **state)
{
	const char *s1[] = { "a", "b" }, *s2[] = { "a" };
	struct flame *f = flame_new();
	size_t drawn;
	char *svg;

	(void)state;
	assert_int_equal(flame_add_stack(f, s1, 2, 3), 0);
	assert_int_equal(flame_add_stack(f, s2, 1, 1), 0);
	assert_int_equal(flame_samples(f), 4);
	assert_int_equal(flame_frames(f), 2);
	svg = render(f, 0, &drawn);
	assert_float_equal(width_of(svg, "b"), 885.0, 1e-3);
	free(svg);
	flame_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frames_and_widths),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_cutoff),
		cmocka_unit_test(test_add_stack),
	};

	return cmocka_run_group_tests_name("flamegraph", tests, NULL, NULL);
}
