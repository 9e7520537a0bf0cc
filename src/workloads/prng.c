// SPDX-License-Identifier: GPL-2.0
/*
 * xoshiro256** (Blackman & Vigna), seeded through splitmix64. Fills write buffers at several
 * GB/s, and its output is incompressible: nothing iowhy writes is sparse or deduplicated.
 */
#include <string.h>

#include "prng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void prng_seed(struct prng *p, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		p->s[i] = splitmix64(&seed);
}

static inline uint64_t next(uint64_t s[4])
{
	const uint64_t result = rotl(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t prng_next(struct prng *p)
{
	return next(p->s);
}

void prng_fill(struct prng *p, void *buf, size_t n)
{
	unsigned char *out = buf;
	uint64_t s[4] = { p->s[0], p->s[1], p->s[2], p->s[3] };

	for (; n >= 8; n -= 8, out += 8) {
		uint64_t v = next(s);

		memcpy(out, &v, 8);
	}
	if (n) {
		uint64_t v = next(s);

		memcpy(out, &v, n);
	}
	memcpy(p->s, s, sizeof(s));
}
