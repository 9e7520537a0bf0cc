/* SPDX-License-Identifier: GPL-2.0 */
/* Syscall names (for this architecture) and the groups kernel time is shown in. */
#ifndef IOWHY_SYSCALLS_H
#define IOWHY_SYSCALLS_H

#include <stdbool.h>
#include "model.h"

/* Name of syscall `nr`, or "sys_<nr>" for unknown numbers (static buffer per call site not needed:
 * returns a pointer into a table that lives for the program's lifetime). */
const char *syscall_name(unsigned nr);
/* Number of the named syscall on this architecture, -1 if it has none. */
int syscall_nr(const char *name);
/* Group of kernel time spent inside `nr` (MODEL_NR_NONE: SG_OTHER). */
enum sys_group syscall_group(unsigned nr);
/* Short name of a group: "process", "file data", ... */
const char *sys_group_name(enum sys_group g);
/* Key used in JSON: "process", "file_data", "file_metadata", "memory", "sync", "other". */
const char *sys_group_key(enum sys_group g);
/* True for syscalls the dynamic loader makes before main (see model.c: start-up). */
bool syscall_is_loader(unsigned nr);

/* True for calls whose positive return value counts bytes moved (read, write, pread64, ...). */
bool syscall_returns_bytes(unsigned nr);

/* True for calls whose first argument is a file descriptor (read, write, fsync, ...). */
bool syscall_first_arg_fd(unsigned nr);

/* True for the network group: socket syscalls (connect, sendmsg, recvfrom, ...). */
bool syscall_is_network(unsigned nr);

/* Generated at build time (build/syscall_names.c). */
extern const char *const iowhy_syscall_names[];
extern const unsigned iowhy_syscall_names_len;

#endif
