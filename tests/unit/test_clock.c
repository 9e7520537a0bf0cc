// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests: util/clock.h. tick_ns() is the kernel's 1/HZ, the factor the BPF objects convert
 * jiffies with; the witness is CONFIG_HZ in the kernel's own config, where it can be read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include "clock.h"

/* CONFIG_HZ from /proc/config.gz (or /boot/config-RELEASE), 0 if neither can be read. */
static unsigned config_hz(void)
{
	FILE *f = popen("(zcat /proc/config.gz || cat /boot/config-$(uname -r)) 2>/dev/null", "r");
	char line[256];
	unsigned hz = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CONFIG_HZ=%u", &hz) == 1)
			break;
	pclose(f);
	return hz;
}

static void test_tick_is_hz(void **st)
{
	unsigned hz = config_hz();
	uint64_t t = tick_ns();

	(void)st;
	/* the kernel's TICK_NSEC, rounded as the kernel rounds it */
	if (!hz)
		skip();
	assert_int_equal(t, (1000000000ull + hz / 2) / hz);
}

static void test_tick_is_a_tick(void **st)
{
	uint64_t t = tick_ns();

	(void)st;
	/* HZ is 100 to 1000 on every kernel iowhy runs on */
	assert_true(t >= 1000000 && t <= 10000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_is_hz),
		cmocka_unit_test(test_tick_is_a_tick),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
