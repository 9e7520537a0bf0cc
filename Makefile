# iowhy build. Everything generated goes to $(OUT) (ignored by git).
#   make            build ./iowhy
#   make test       install missing packages, build, run the harness and integration tests and
#                   `sanitize` (its build and unit tests beside the others: tests/run.sh)
#   make demo       install missing packages, build, run the loop/split/direct demo
#   make unit       unit tests only (no kernel needed: the few that load a BPF program skip without root)
#   make install    install iowhy, its man page and bash completion (PREFIX, DESTDIR)
#   make uninstall  remove what make install installed
#   make lint       shellcheck on the scripts
#   make sanitize   ASan+UBSan build in build-san/, unit tests + a set of integration tests under it
#                   (sanitize-build, sanitize-unit, sanitize-integration: its three steps)
#   make fuzz       libFuzzer targets (clang) in build-fuzz/, each run FUZZ_SECONDS (30) seconds

OUT      ?= build
ARCH     := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
CLANG    ?= clang
BPFTOOL  ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
CC       ?= gcc
PKGS     := libbpf libelf zlib json-c liburing

CFLAGS   ?= -O2 -g
# The layers, top to bottom: cli -> workloads -> engine -> collect, report -> summary -> model -> util
# (docs/ARCHITECTURE.md). Headers are included by name; names are unique across the tree.
LAYERS   := cli workloads engine collect report summary model util
INCLUDES := -I$(OUT) -Ibpf $(addprefix -Isrc/,$(LAYERS))
# Always added, also when CFLAGS comes from the command line (`make CFLAGS=-O1` keeps the includes).
override CFLAGS += -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE $(INCLUDES)
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lbpf -lelf -lz -ljson-c -luring) -lm -lpthread
# libarchive (iowhy tar) and libcrypto (iowhy read --hash md5) are not linked: the workload that
# uses one opens it (src/workloads/lazy_libs.c) by the soname of the library the linker finds.
soname = $(shell readelf -d "$$($(CC) -print-file-name=$(1))" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
LAZY_SONAMES := $(foreach l,LIBARCHIVE:libarchive.so LIBCRYPTO:libcrypto.so,\
	$(if $(call soname,$(lastword $(subst :, ,$(l)))),-D$(firstword $(subst :, ,$(l)))_SONAME='"$(call soname,$(lastword $(subst :, ,$(l))))"'))
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Ivmlinux/$(ARCH) -Ibpf -Wall -Werror

BPF_SRCS  := $(wildcard bpf/*.bpf.c)
BPF_OBJS  := $(patsubst bpf/%.bpf.c,$(OUT)/%.bpf.o,$(BPF_SRCS))
SKELS     := $(patsubst bpf/%.bpf.c,$(OUT)/%.skel.h,$(BPF_SRCS)) $(OUT)/io_trusted.skel.h

# Everything but main() goes into one archive that iowhy and the unit tests link.
LIB_SRCS  := $(filter-out src/cli/main.c,$(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c)))
LIB_OBJS  := $(patsubst %.c,$(OUT)/obj/%.o,$(LIB_SRCS)) $(OUT)/obj/syscall_names.o \
	     $(OUT)/obj/core_roots.o
LIB       := $(OUT)/libiowhy.a

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(OUT)/tests/%,$(UNIT_SRCS))

# Installation (GNU conventions): make install PREFIX=/usr DESTDIR=/tmp/pkg
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
COMPDIR  ?= $(PREFIX)/share/bash-completion/completions
INSTALL  ?= install

# Every shell script (the integration tests are bash fragments sourced by run.sh: -s bash).
# SC2010 (ls | grep) is left out: the tests list their own temp directories, whose names iowhy made.
SH_SCRIPTS := $(wildcard tests/*.sh tests/unit/*.sh tests/integration/*.sh bench/*.sh) \
	      src/model/gen_syscall_names.sh completion/iowhy.bash
SHELLCHECK ?= shellcheck
SHELLCHECK_FLAGS := -s bash -S warning -e SC2010

.PHONY: all clean test unit integration demo deps bench install uninstall lint sanitize fuzz \
	sanitize-build sanitize-unit sanitize-integration
all: iowhy

iowhy: $(OUT)/iowhy
	cp $< $@.tmp && mv -f $@.tmp $@

$(OUT)/iowhy: $(OUT)/obj/src/cli/main.o $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(LIB): $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(OUT)/%.bpf.o: bpf/%.bpf.c bpf/*.h | $(OUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# The I/O object once more without the bpf_rdonly_cast kfunc, for kernels before 6.2 (io_probes.c).
$(OUT)/io_trusted.bpf.o: bpf/io.bpf.c bpf/*.h | $(OUT)
	$(CLANG) $(BPF_CFLAGS) -DIO_TRUSTED_ARGS -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< > $@

# The root types of the objects' CO-RE relocations (src/collect/core_btf.c cuts the kernel's BTF
# down to them), read from the objects' .BTF.ext by a build tool. Plain flags: it runs here.
$(OUT)/gen_core_roots: tools/gen_core_roots.c | $(OUT)
	$(CC) -O2 -g -Wall -Wextra -Werror -o $@ $< $(LDLIBS)

$(OUT)/core_roots.c: $(OUT)/gen_core_roots $(BPF_OBJS) $(OUT)/io_trusted.bpf.o
	$(OUT)/gen_core_roots $(BPF_OBJS) $(OUT)/io_trusted.bpf.o > $@.tmp && mv $@.tmp $@

$(OUT)/obj/core_roots.o: $(OUT)/core_roots.c src/collect/core_btf.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# Syscall number → name table for this architecture, from the kernel headers.
$(OUT)/syscall_names.c: src/model/gen_syscall_names.sh | $(OUT)
	sh $< $(CC) > $@

$(OUT)/obj/syscall_names.o: $(OUT)/syscall_names.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(OUT)/obj/%.o: %.c $(wildcard src/*/*.h bpf/*.h) | $(OUT)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(LIB_OBJS) $(OUT)/obj/src/cli/main.o: $(SKELS)

$(OUT)/obj/src/workloads/lazy_libs.o: override CFLAGS += $(LAZY_SONAMES)

$(OUT):
	mkdir -p $(OUT)

$(OUT)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $^ $(LDLIBS) -lcrypto -lcmocka

# The symbol test reads a tiny program with known function names (tests/unit/elf_fixture.c).
$(OUT)/tests/elf_fixture: tests/unit/elf_fixture.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -Wl,--build-id=sha1 -o $@ $<

$(OUT)/tests/test_symbols: | $(OUT)/tests/elf_fixture

# Calibration workloads with known answers (integration tests).
$(OUT)/calib: tests/calib.c | $(OUT)
	$(CC) $(CFLAGS) -fno-omit-frame-pointer -pthread -o $@ $<

# A module's BTF made of the kernel's own types (test_core_btf).
$(OUT)/mk_split_btf: tests/mk_split_btf.c | $(OUT)
	$(CC) -O2 -g -Wall -Wextra -Werror -o $@ $< $(LDLIBS)

# The consumer's cost per event on a simulated fio stream, no kernel (bench/consumer_replay.c).
$(OUT)/consumer_replay: bench/consumer_replay.c $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# A FUSE daemon that answers each WRITE after 20 ms (integration tests; libfuse3).
$(OUT)/fuse_slow: tests/fuse_slow.c tests/fuse_test.h | $(OUT)
	$(CC) -O2 -g -Wall -Wextra -Werror $(shell pkg-config --cflags fuse3) -o $@ $< \
		$(shell pkg-config --libs fuse3 2>/dev/null || echo -lfuse3 -lpthread)

# The builds that `test`, `unit` and `sanitize` start run one job per CPU, unless make was given -j.
JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

unit:
	$(MAKE) $(JOBS) $(UNIT_BINS)
	@sh tests/unit/run.sh $(UNIT_BINS)

deps:
	@sh tests/install-deps.sh

# (the unit tests run once, under ASan+UBSan in `sanitize`; plain only with IOWHY_NO_SANITIZE=1)
test: deps
	$(MAKE) $(JOBS) all $(if $(IOWHY_NO_SANITIZE),$(UNIT_BINS)) $(OUT)/calib $(OUT)/fuse_slow $(OUT)/mk_split_btf
	@bash tests/run.sh $(if $(IOWHY_NO_SANITIZE),$(UNIT_BINS))

integration: all $(OUT)/calib $(OUT)/fuse_slow $(OUT)/mk_split_btf
	@bash tests/integration/run.sh

demo: deps
	$(MAKE) all
	./iowhy gen --strategy loop,split,direct --size 10k --count 10000 --sync

bench: all
	bash bench/overhead.sh

install: $(OUT)/iowhy
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR)
	$(INSTALL) -m 0755 $(OUT)/iowhy $(DESTDIR)$(BINDIR)/iowhy
	$(INSTALL) -m 0644 man/iowhy.1 $(DESTDIR)$(MANDIR)/man1/iowhy.1
	$(INSTALL) -m 0644 completion/iowhy.bash $(DESTDIR)$(COMPDIR)/iowhy

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/iowhy $(DESTDIR)$(MANDIR)/man1/iowhy.1 $(DESTDIR)$(COMPDIR)/iowhy

lint:
	$(SHELLCHECK) $(SHELLCHECK_FLAGS) $(SH_SCRIPTS)

# AddressSanitizer + UndefinedBehaviorSanitizer: a separate build (SAN_OUT), the unit tests, then the
# integration tests in SAN_TESTS with that iowhy (root; the others are skipped without it).
SAN_OUT   ?= build-san
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_TESTS ?= test_errors test_wl_errors test_calib_sleep test_calib_user test_thread_exec \
	     test_io_direct test_io_fsync test_wl_copy test_wl_tar test_ctrlc
# libFuzzer targets (fuzz/fuzz_*.c, clang): the library built with coverage + ASan + UBSan in
# FUZZ_OUT, each target run FUZZ_SECONDS on a scratch copy of its seed corpus (fuzz/corpus/NAME:
# committed seeds are only read). docs/FUZZING.md has the findings.
FUZZ_OUT     ?= build-fuzz
FUZZ_SECONDS ?= 30
FUZZ_FLAGS   := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SRCS    := $(wildcard fuzz/fuzz_*.c)
FUZZ_BINS    := $(patsubst fuzz/%.c,$(FUZZ_OUT)/%,$(FUZZ_SRCS))
fuzz: deps
	$(MAKE) OUT=$(FUZZ_OUT) CC=$(CLANG) CFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" $(FUZZ_BINS)
	@for t in $(FUZZ_BINS); do n=$$(basename $$t); echo "== $$n ($(FUZZ_SECONDS) s)"; \
		rm -rf $(FUZZ_OUT)/corpus/$$n && mkdir -p $(FUZZ_OUT)/corpus/$$n fuzz/corpus/$$n && \
		$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -close_fd_mask=3 \
			-artifact_prefix=$(FUZZ_OUT)/ \
			$(FUZZ_OUT)/corpus/$$n fuzz/corpus/$$n 2>$(FUZZ_OUT)/$$n.log; rc=$$?; \
		grep -E '^stat::number_of_executed_units|^stat::peak_rss' $(FUZZ_OUT)/$$n.log; \
		if [ $$rc -ne 0 ]; then tail -n 40 $(FUZZ_OUT)/$$n.log; echo "$$n: FINDING (log $(FUZZ_OUT)/$$n.log)"; \
			exit 1; fi; done

$(FUZZ_OUT)/fuzz_%: fuzz/fuzz_%.c $(LIB)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# The calibration helper stays uninstrumented: the sanitizer runtime's own syscalls (getppid, mmap)
# would count as the workload's.
# The BPF objects, their skeletons and the other generated sources do not depend on CFLAGS: those
# $(OUT) has are taken (their times kept: make still remakes any older than its sources).
SAN_REUSE = $(wildcard $(OUT)/*.bpf.o $(OUT)/*.skel.h $(OUT)/gen_core_roots $(OUT)/core_roots.c \
	$(OUT)/syscall_names.c)
# sanitize = sanitize-build, sanitize-unit, sanitize-integration (`make test` runs the first two
# beside the integration tests, tests/run.sh)
sanitize: deps
	$(MAKE) --no-print-directory sanitize-build
	$(MAKE) --no-print-directory sanitize-unit
	$(MAKE) --no-print-directory sanitize-integration
sanitize-build:
	$(if $(SAN_REUSE),mkdir -p $(SAN_OUT) && cp -pu $(SAN_REUSE) $(SAN_OUT)/)
	$(MAKE) $(JOBS) OUT=$(SAN_OUT) CFLAGS="$(SAN_FLAGS)" $(SAN_OUT)/iowhy \
		$(patsubst $(OUT)/%,$(SAN_OUT)/%,$(UNIT_BINS))
	$(MAKE) $(OUT)/calib
sanitize-unit: sanitize-build
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		sh tests/unit/run.sh $(patsubst $(OUT)/%,$(SAN_OUT)/%,$(UNIT_BINS))
sanitize-integration: sanitize-build
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 OUT=$(SAN_OUT) \
		IOWHY=$(CURDIR)/$(SAN_OUT)/iowhy CALIB=$(CURDIR)/$(OUT)/calib \
		bash tests/integration/run.sh $(SAN_TESTS)

clean:
	rm -rf $(OUT) $(SAN_OUT) $(FUZZ_OUT) iowhy
