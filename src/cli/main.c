// SPDX-License-Identifier: GPL-2.0
/* iowhy: where did the time go? main() only hands the command line to dispatch.c. */
#include <malloc.h>
#include "commands.h"
#include "session.h"

int main(int argc, char **argv)
{
	/* Buffers of 1 MiB and more are mapped and given back when freed. glibc's default raises
	 * that bound to the largest buffer freed so far (up to 32 MiB): once libbpf had freed its
	 * first parse of the kernel's BTF (5.5 MB), every later parse stayed in the heap, and a
	 * session's peak RSS was ~64 MiB against ~50 MiB with the bound fixed. */
	mallopt(M_MMAP_THRESHOLD, 1 << 20);
	session_note_process_start();
	return iowhy_main(argc, argv);
}
