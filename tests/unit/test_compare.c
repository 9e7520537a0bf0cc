// SPDX-License-Identifier: GPL-2.0
/* compare_reports on synthetic run and hunt reports: the headline names the device that made the
 * difference and by how much; other schema versions and mixed kinds are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"

/* A run report with one phase: wall W s, I/O wait IO s of which L2 s on loop2. */
static struct json_object *run_report(double w, double io, double l2, int schema)
{
	char buf[2048];

	snprintf(buf, sizeof(buf),
		 "{\"schema_version\": %d, \"tool\": \"rand\", \"phases\": [{\"name\": \"write\","
		 " \"wall_ns\": %.0f, \"wall\": {\"user_ns\": 1e8, \"kernel_ns\": 2e8,"
		 " \"runq_ns\": 0, \"iowait_ns\": %.0f, \"other_ns\": %.0f},"
		 " \"iowait_by_device\": [{\"name\": \"loop2\", \"ns\": %.0f},"
		 " {\"name\": \"vda\", \"ns\": %.0f}],"
		 " \"syscalls\": [{\"name\": \"pwrite64\", \"total_ns\": %.0f}]}]}",
		 schema, w * 1e9, io * 1e9, (w - io - 0.3) * 1e9, l2 * 1e9, (io - l2) * 1e9,
		 io * 1e9);
	return json_tokener_parse(buf);
}

/* A hunt report: three members, loop2's best sequential MiB/s given; a throttled verdict. */
static struct json_object *hunt_report(double loop2_mib, int throttled)
{
	char buf[4096];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "{\"schema_version\": 1, \"kind\": \"hunt\", \"members\": [");
	for (int i = 1; i <= 3; i++)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "%s{\"name\": \"loop%d\", \"seq1m\": [{\"depth\": 1, \"mib_s\": %.1f,"
			      " \"lat_us\": %.1f}], \"rand4k\": [{\"depth\": 1, \"iops\": 20000}]}",
			      i > 1 ? "," : "", i, i == 2 ? loop2_mib : 1500.0,
			      i == 2 ? 1e6 / loop2_mib : 700.0);
	snprintf(buf + n, sizeof(buf) - (size_t)n,
		 "], \"together\": null, \"verdicts\": [%s]}",
		 throttled ? "{\"kind\": \"throttled\", \"subject\": \"loop2\", \"inputs\": {}}"
			   : "");
	return json_tokener_parse(buf);
}

static void test_run_reports(void **state)
{
	struct json_object *a = run_report(4.2, 3.8, 3.5, 1), *b = run_report(0.6, 0.2, 0.1, 1);
	static struct cmp_result r;
	char err[256];

	(void)state;
	assert_non_null(a);
	assert_int_equal(compare_reports(a, b, "A", "B", &r, err, sizeof(err)), 0);
	assert_string_equal(r.kind, "run");
	assert_non_null(strstr(r.headline, "B is 7.0x faster (A 4.20 s, B 0.60 s)"));
	/* 3.4 s of the 3.6 s difference: the I/O wait on loop2 (not the whole I/O wait bucket) */
	assert_non_null(strstr(r.headline, "94% of the difference is less I/O wait on loop2 "
					   "(A 3.50 s, B 0.10 s)"));
	/* ranked by seconds of difference */
	for (int i = 1; i < r.n; i++)
		assert_true(r.items[i - 1].weight >= r.items[i].weight);
	assert_true(r.items[0].weight > 3.5);
	json_object_put(a);
	json_object_put(b);
	/* B slower */
	a = run_report(1.0, 0.2, 0.1, 1);
	b = run_report(3.0, 2.1, 0.1, 1);
	assert_int_equal(compare_reports(a, b, "A", "B", &r, err, sizeof(err)), 0);
	assert_non_null(strstr(r.headline, "B is 3.0x slower"));
	assert_non_null(strstr(r.headline, "more I/O wait on vda"));
	json_object_put(a);
	json_object_put(b);
	/* nearly the same wall, parts moving both ways: no share over 100% */
	a = run_report(1.0, 0.6, 0.5, 1);
	b = run_report(1.1, 0.1, 0.05, 1);
	assert_int_equal(compare_reports(a, b, "A", "B", &r, err, sizeof(err)), 0);
	assert_non_null(strstr(r.headline, "B is 1.1x slower"));
	assert_non_null(strstr(r.headline,
			       "parts moved both ways; the largest is more other waits"));
	json_object_put(a);
	json_object_put(b);
}

static void test_hunt_reports(void **state)
{
	struct json_object *a = hunt_report(14, 1), *b = hunt_report(1400, 0);
	static struct cmp_result r;
	char err[256];

	(void)state;
	assert_non_null(a);
	assert_int_equal(compare_reports(a, b, "A", "B", &r, err, sizeof(err)), 0);
	assert_string_equal(r.kind, "hunt");
	assert_non_null(strstr(r.headline, "loop2 seq 1M best MiB/s: A 14.0, B 1400.0 (B 100.0x"));
	assert_string_equal(r.only_a, "throttled loop2");
	assert_string_equal(r.only_b, "");
	json_object_put(a);
	json_object_put(b);
}

static void test_refusals(void **state)
{
	struct json_object *a = run_report(1, 0.5, 0.2, 1), *b2 = run_report(1, 0.5, 0.2, 2);
	struct json_object *h = hunt_report(100, 0), *junk = json_tokener_parse("{\"x\": 1}");
	static struct cmp_result r;
	char err[256];

	(void)state;
	assert_int_equal(compare_reports(a, b2, "a.json", "b.json", &r, err, sizeof(err)), -1);
	assert_string_equal(err, "b.json has schema_version 2; this iowhy reads 1");
	assert_int_equal(compare_reports(a, h, "a.json", "h.json", &r, err, sizeof(err)), -1);
	assert_string_equal(err, "a.json is a run report and h.json a hunt report");
	assert_int_equal(compare_reports(junk, a, "j.json", "a.json", &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "j.json is not an iowhy report"));
	json_object_put(a);
	json_object_put(b2);
	json_object_put(h);
	json_object_put(junk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_reports),
		cmocka_unit_test(test_hunt_reports),
		cmocka_unit_test(test_refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
