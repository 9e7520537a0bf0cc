// SPDX-License-Identifier: GPL-2.0
/* iowhy: where did the time go? main() only hands the command line to dispatch.c. */
#include "commands.h"

int main(int argc, char **argv)
{
	return iowhy_main(argc, argv);
}
