/* SPDX-License-Identifier: GPL-2.0 */
/* Pseudo-random data for the workloads' files. */
#ifndef IOWHY_PRNG_H
#define IOWHY_PRNG_H

#include <stddef.h>
#include <stdint.h>

/* Fill buf with pseudo-random bytes (xoshiro256**; fast, not zeros, not compressible). */
struct prng { uint64_t s[4]; };
void prng_seed(struct prng *p, uint64_t seed);
void prng_fill(struct prng *p, void *buf, size_t n);
uint64_t prng_next(struct prng *p);

#endif
