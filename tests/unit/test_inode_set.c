// SPDX-License-Identifier: GPL-2.0
/* Unit tests: the set of inodes the tree dirtied (bpf/inode_set.h, the code the BPF side runs). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include <linux/types.h>
#include "inode_set.h"

static int cmp_u64(const void *a, const void *b)
{
	__u64 x = *(const __u64 *)a, y = *(const __u64 *)b;

	return x < y ? -1 : x > y;
}

/* Within a device no two inodes share a tag; tags are never 0 (0 marks an empty slot). */
static void test_tags_distinct(void **state)
{
	enum { N = 200000 };
	__u64 *t = malloc(N * sizeof(*t));

	(void)state;
	assert_non_null(t);
	for (int i = 0; i < N; i++)
		t[i] = inode_tag(0x700005, (i % 2) ? (__u64)i : ((__u64)i << 33) | 12);
	qsort(t, N, sizeof(*t), cmp_u64);
	for (int i = 1; i < N; i++)
		assert_true(t[i] != t[i - 1]);
	assert_true(t[0] != 0);
	assert_int_equal(inode_tag(0, 0), 1); /* the one (dev, ino) whose mix is 0 */
	/* same ino on two devices: two tags */
	assert_true(inode_tag(0x700005, 12) != inode_tag(0x700006, 12));
	free(t);
}

static void test_add_has(void **state)
{
	struct iowhy_inode_bucket b = { { 0 } };
	__u64 a = inode_tag(1, 100), c = inode_tag(1, 101);

	(void)state;
	assert_false(inode_set_has(&b, a));
	assert_int_equal(inode_set_add(&b, a), INODE_SET_ADDED);
	assert_int_equal(inode_set_add(&b, a), INODE_SET_FOUND);
	assert_true(inode_set_has(&b, a));
	assert_false(inode_set_has(&b, c));
	assert_int_equal(inode_set_add(&b, c), INODE_SET_ADDED);
	assert_true(inode_set_has(&b, c));
	assert_true(inode_set_has(&b, a));
}

/* A bucket holds 8 tags; the 9th is refused (counted as lost by the caller), the 8 stay. */
static void test_full_bucket(void **state)
{
	struct iowhy_inode_bucket b = { { 0 } };

	(void)state;
	for (__u64 i = 1; i <= IOWHY_INODE_WAYS; i++)
		assert_int_equal(inode_set_add(&b, i << 8), INODE_SET_ADDED);
	assert_int_equal(inode_set_add(&b, 99ull << 8), INODE_SET_FULL);
	assert_false(inode_set_has(&b, 99ull << 8));
	for (__u64 i = 1; i <= IOWHY_INODE_WAYS; i++) {
		assert_true(inode_set_has(&b, i << 8));
		assert_int_equal(inode_set_add(&b, i << 8), INODE_SET_FOUND);
	}
}

/* Fill a full-size set with n inodes of one file system: consecutive numbers from `first` (as ext4
 * hands them out), or, with `random`, numbers spread over 64 bits (btrfs, xfs). Returns how many
 * were refused. */
static size_t fill(struct iowhy_inode_bucket *set, size_t n, __u64 first, int random)
{
	size_t full = 0;

	for (size_t i = 0; i < n; i++) {
		__u64 ino = random ? inode_mix64(first + i) >> 4 : first + i;
		__u64 tag = inode_tag(0x700007, ino);
		struct iowhy_inode_bucket *b = &set[inode_bucket(0x700007, ino)];

		if (inode_set_add(b, tag) == INODE_SET_FULL)
			full++;
		else
			assert_true(inode_set_has(b, tag));
	}
	return full;
}

static size_t count_tags(const struct iowhy_inode_bucket *set)
{
	size_t in = 0;

	for (size_t i = 0; i < IOWHY_INODE_BUCKETS; i++)
		for (int w = 0; w < IOWHY_INODE_WAYS; w++)
			in += set[i].tag[w] != 0;
	return in;
}

static void test_load(void **state)
{
	struct iowhy_inode_bucket *set = calloc(IOWHY_INODE_BUCKETS, sizeof(*set));
	size_t full;

	(void)state;
	assert_non_null(set);
	/* consecutive inode numbers pack 8 to a bucket: 1M inodes, none refused */
	assert_int_equal(fill(set, 100000, 12, 0), 0);
	assert_int_equal(fill(set, 900000, 100012, 0), 0);
	assert_int_equal(count_tags(set), 1000000);
	/* consecutive runs share lines: inodes 16..23 are one bucket */
	assert_int_equal(inode_bucket(0x700007, 16), inode_bucket(0x700007, 23));
	assert_true(inode_bucket(0x700007, 16) != inode_bucket(0x700007, 24));
	assert_true(inode_bucket(0x700007, 16) != inode_bucket(0x700008, 16));
	/* an inode never added is not found */
	assert_false(inode_set_has(&set[inode_bucket(0x700007, 5)], inode_tag(0x700007, 5)));
	free(set);

	/* scattered inode numbers: 100,000 all kept, 1M with under 1% refused */
	set = calloc(IOWHY_INODE_BUCKETS, sizeof(*set));
	assert_non_null(set);
	assert_int_equal(fill(set, 100000, 1, 1), 0);
	full = fill(set, 900000, 100001, 1);
	assert_true(full < 10000);
	assert_int_equal(count_tags(set), 1000000 - full);
	free(set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tags_distinct),
		cmocka_unit_test(test_add_has),
		cmocka_unit_test(test_full_bucket),
		cmocka_unit_test(test_load),
	};

	return cmocka_run_group_tests_name("inode_set", tests, NULL, NULL);
}
