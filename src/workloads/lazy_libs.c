// SPDX-License-Identifier: GPL-2.0
/*
 * libarchive and libcrypto opened at the first use by the workload that needs them (lazy_libs.h).
 * The file names are the libraries' sonames as the build found them (the Makefile reads them off
 * the linker's libarchive.so and libcrypto.so), so the library loaded is the one the headers
 * describe.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#include "lazy_libs.h"

#ifndef LIBARCHIVE_SONAME
#define LIBARCHIVE_SONAME "libarchive.so.13"
#endif
#ifndef LIBCRYPTO_SONAME
#define LIBCRYPTO_SONAME "libcrypto.so.3"
#endif

struct sym {
	const char *name;
	void **slot;
};

/* Open `file` and fill every slot of syms; 0, or -1 after one line on stderr. */
static int open_lib(const char *tool, const char *file, const struct sym *syms, size_t n)
{
	void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		fprintf(stderr, "iowhy %s: cannot load %s: %s\n", tool, file, dlerror());
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		*syms[i].slot = dlsym(h, syms[i].name);
		if (!*syms[i].slot) {
			fprintf(stderr, "iowhy %s: %s has no %s\n", tool, file, syms[i].name);
			dlclose(h);
			return -1;
		}
	}
	return 0; /* kept open for the process's life */
}

/* open_lib once for the process: 1 when the library is there, 0 (said once) when not. */
static int open_once(int *state, const char *tool, const char *file, const struct sym *syms, size_t n)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&lock);
	if (!*state)
		*state = open_lib(tool, file, syms, n) ? -1 : 1;
	pthread_mutex_unlock(&lock);
	return *state > 0;
}

#define SYM(api, field, name) { #name, (void **)&(api).field }
#define NSYMS(a) (sizeof(a) / sizeof((a)[0]))

static struct archive_api archive;
static int archive_state; /* 0 not tried, 1 loaded, -1 failed */
static struct md5_api md5;
static int md5_state;

const struct archive_api *archive_api(const char *tool)
{
	static const struct sym syms[] = {
		SYM(archive, write_new, archive_write_new),
		SYM(archive, write_set_format_ustar, archive_write_set_format_ustar),
		SYM(archive, write_add_filter_gzip, archive_write_add_filter_gzip),
		SYM(archive, write_open_fd, archive_write_open_fd),
		SYM(archive, write_header, archive_write_header),
		SYM(archive, write_data, archive_write_data),
		SYM(archive, write_close, archive_write_close),
		SYM(archive, write_free, archive_write_free),
		SYM(archive, error_string, archive_error_string),
		SYM(archive, entry_new, archive_entry_new),
		SYM(archive, entry_free, archive_entry_free),
		SYM(archive, entry_set_pathname, archive_entry_set_pathname),
		SYM(archive, entry_set_size, archive_entry_set_size),
		SYM(archive, entry_set_filetype, archive_entry_set_filetype),
		SYM(archive, entry_set_perm, archive_entry_set_perm),
		SYM(archive, entry_set_mtime, archive_entry_set_mtime),
	};

	return open_once(&archive_state, tool, LIBARCHIVE_SONAME, syms, NSYMS(syms)) ? &archive : NULL;
}

const struct md5_api *md5_api(const char *tool)
{
	static const struct sym syms[] = {
		SYM(md5, ctx_new, EVP_MD_CTX_new),
		SYM(md5, ctx_free, EVP_MD_CTX_free),
		SYM(md5, md5, EVP_md5),
		SYM(md5, init, EVP_DigestInit_ex),
		SYM(md5, update, EVP_DigestUpdate),
		SYM(md5, final, EVP_DigestFinal_ex),
	};

	return open_once(&md5_state, tool, LIBCRYPTO_SONAME, syms, NSYMS(syms)) ? &md5 : NULL;
}
