// SPDX-License-Identifier: GPL-2.0
/* A tiny program with known function names: test_symbols reads its ELF symbols and build id. */
#include <stdio.h>

__attribute__((noinline)) int iowhy_fixture_alpha(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int iowhy_fixture_beta(int x)
{
	return iowhy_fixture_alpha(x) ^ 0x55;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", iowhy_fixture_beta(argc));
	return 0;
}
