// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper: a module's BTF made from the kernel's own types, for test_core_btf. Writes to OUT
 * a BTF split over /sys/kernel/btf/vmlinux (as /sys/kernel/btf/MODULE files are) holding a copy
 * of the first struct of each NAME (its members by name, type, offset and bitfield size); the
 * members keep vmlinux's type ids, which a split BTF shares.
 *
 *   mk_split_btf OUT NAME...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	struct btf *base, *mod;
	const void *raw;
	__u32 size;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: mk_split_btf OUT NAME...\n");
		return 2;
	}
	base = btf__parse("/sys/kernel/btf/vmlinux", NULL);
	mod = base ? btf__new_empty_split(base) : NULL;
	if (!mod) {
		fprintf(stderr, "mk_split_btf: no kernel BTF\n");
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		int id = btf__find_by_name_kind(base, argv[i], BTF_KIND_STRUCT), err;
		const struct btf_type *t = id > 0 ? btf__type_by_id(base, id) : NULL;

		/* (member by member: libbpf 1.1's btf__add_type into a split BTF crashes) */
		unsigned vlen = t ? btf_vlen(t) : 0;

		err = t ? btf__add_struct(mod, argv[i], t->size) < 0 : 1;
		for (unsigned m = 0; !err && m < vlen; m++) {
			const struct btf_member *mb;

			t = btf__type_by_id(base, id);
			mb = &btf_members(t)[m];

			err = btf__add_field(mod, btf__name_by_offset(base, mb->name_off), mb->type,
					     btf_member_bit_offset(t, m),
					     btf_member_bitfield_size(t, m)) < 0;
		}
		if (err) {
			fprintf(stderr, "mk_split_btf: struct %s: not copied\n", argv[i]);
			return 1;
		}
	}
	raw = btf__raw_data(mod, &size);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (!raw || fd < 0 || write(fd, raw, size) != (ssize_t)size || close(fd)) {
		fprintf(stderr, "mk_split_btf: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	btf__free(mod);
	btf__free(base);
	return 0;
}
