/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Libraries that only one workload uses, opened when that workload starts instead of at every
 * start of iowhy: libarchive (iowhy tar builds its archive with it) and libcrypto (iowhy read
 * --hash md5). Linked, the two cost each command ~10 ms of dynamic loading on a PVM guest
 * (libarchive brings libxml2, ICU and libstdc++ with it), before any probe loads
 * (docs/PERFORMANCE.md).
 */
#ifndef IOWHY_LAZY_LIBS_H
#define IOWHY_LAZY_LIBS_H

#include <archive.h>
#include <archive_entry.h>
#include <openssl/evp.h>

/* The libarchive calls iowhy tar makes, typed by libarchive's own declarations. */
struct archive_api {
	__typeof__(archive_write_new) *write_new;
	__typeof__(archive_write_set_format_ustar) *write_set_format_ustar;
	__typeof__(archive_write_add_filter_gzip) *write_add_filter_gzip;
	__typeof__(archive_write_open_fd) *write_open_fd;
	__typeof__(archive_write_header) *write_header;
	__typeof__(archive_write_data) *write_data;
	__typeof__(archive_write_close) *write_close;
	__typeof__(archive_write_free) *write_free;
	__typeof__(archive_error_string) *error_string;
	__typeof__(archive_entry_new) *entry_new;
	__typeof__(archive_entry_free) *entry_free;
	__typeof__(archive_entry_set_pathname) *entry_set_pathname;
	__typeof__(archive_entry_set_size) *entry_set_size;
	__typeof__(archive_entry_set_filetype) *entry_set_filetype;
	__typeof__(archive_entry_set_perm) *entry_set_perm;
	__typeof__(archive_entry_set_mtime) *entry_set_mtime;
};

/* The libcrypto calls of an MD5 digest. */
struct md5_api {
	__typeof__(EVP_MD_CTX_new) *ctx_new;
	__typeof__(EVP_MD_CTX_free) *ctx_free;
	__typeof__(EVP_md5) *md5;
	__typeof__(EVP_DigestInit_ex) *init;
	__typeof__(EVP_DigestUpdate) *update;
	__typeof__(EVP_DigestFinal_ex) *final;
};

/* The library opened (once; later calls return the same table), or NULL after one line on stderr
 * saying which library or symbol is missing, prefixed with `tool`. */
const struct archive_api *archive_api(const char *tool);
const struct md5_api *md5_api(const char *tool);

#endif
