/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing sizes and printing readable units. */
#ifndef IOWHY_UNITS_H
#define IOWHY_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Largest size any option accepts (1 TiB). */
#define SIZE_MAX_ACCEPTED (1ULL << 40)

/*
 * dd-style size: digits with an optional suffix. c=1, w=2, b=512, k/K=1024, M, G, T (powers of
 * 1024; KiB/MiB/GiB/TiB too), kB/MB/GB/TB (powers of 1000). Zero, negative, garbage and values above
 * `max` are refused: returns -1 and writes a one-line reason to err.
 */
int parse_size(const char *s, uint64_t max, uint64_t *out, char *err, size_t errlen);
/* Comma-separated list of sizes ("4k,1M"); returns the count or -1 (reason in err). */
int parse_size_list(const char *s, uint64_t max, uint64_t *out, int maxn, char *err, size_t errlen);
/* Positive whole count ("10000", "10k" is refused). */
int parse_count(const char *s, uint64_t max, uint64_t *out, char *err, size_t errlen);
/* An environment variable holding a plain decimal number no larger than `max`; else `dflt` (unset,
 * empty, anything else, or too large). */
uint64_t env_number(const char *name, uint64_t dflt, uint64_t max);
/* Duration: "500ms", "2s", "1.5s", "3m"; returns ns. */
int parse_duration(const char *s, uint64_t *out_ns, char *err, size_t errlen);

/* Readable forms. Each writes into buf and returns it. */
char *fmt_ns(char *buf, size_t n, uint64_t ns);        /* "812 ns", "310 µs", "4.21 ms", "6.10 s" */
char *fmt_bytes(char *buf, size_t n, uint64_t bytes);  /* "512 B", "10.0 KiB", "1.50 GiB" */
char *fmt_count(char *buf, size_t n, uint64_t v);      /* "10,000" */
char *fmt_rate(char *buf, size_t n, double bytes_per_s); /* "512 MiB/s" */
char *fmt_pct(char *buf, size_t n, double fraction);   /* "12.3%" */

#endif
