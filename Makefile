# iowhy build. Everything generated goes to $(OUT) (ignored by git).
#   make            build ./iowhy
#   make test       install missing packages, build, run unit + integration tests
#   make demo       install missing packages, build, run the loop/split/direct demo
#   make unit       unit tests only (no root, no kernel)
#   make install    install iowhy, its man page and bash completion (PREFIX, DESTDIR)
#   make uninstall  remove what make install installed
#   make lint       shellcheck on the scripts

OUT      ?= build
ARCH     := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
CLANG    ?= clang
BPFTOOL  ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
CC       ?= gcc
PKGS     := libbpf libelf zlib json-c libcrypto libarchive liburing

CFLAGS   ?= -O2 -g
# The layers, top to bottom: cli -> workloads -> engine -> collect, report -> summary -> model -> util
# (docs/ARCHITECTURE.md). Headers are included by name; names are unique across the tree.
LAYERS   := cli workloads engine collect report summary model util
INCLUDES := -I$(OUT) -Ibpf $(addprefix -Isrc/,$(LAYERS))
CFLAGS   += -Wall -Wextra -Werror -std=gnu11 -D_GNU_SOURCE $(INCLUDES)
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lbpf -lelf -lz -ljson-c -lcrypto -larchive -luring) -lm -lpthread
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH) -Ivmlinux/$(ARCH) -Ibpf -Wall -Werror

BPF_SRCS  := $(wildcard bpf/*.bpf.c)
BPF_OBJS  := $(patsubst bpf/%.bpf.c,$(OUT)/%.bpf.o,$(BPF_SRCS))
SKELS     := $(patsubst bpf/%.bpf.c,$(OUT)/%.skel.h,$(BPF_SRCS))

# Everything but main() goes into one archive that iowhy and the unit tests link.
LIB_SRCS  := $(filter-out src/cli/main.c,$(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c)))
LIB_OBJS  := $(patsubst %.c,$(OUT)/obj/%.o,$(LIB_SRCS)) $(OUT)/obj/syscall_names.o
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

.PHONY: all clean test unit integration demo deps bench install uninstall lint
all: iowhy

iowhy: $(OUT)/iowhy
	cp $< $@

$(OUT)/iowhy: $(OUT)/obj/src/cli/main.o $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(LIB): $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(OUT)/%.bpf.o: bpf/%.bpf.c bpf/*.h | $(OUT)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUT)/%.skel.h: $(OUT)/%.bpf.o
	$(BPFTOOL) gen skeleton $< > $@

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

$(OUT):
	mkdir -p $(OUT)

$(OUT)/tests/%: tests/unit/%.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $^ $(LDLIBS) -lcmocka

# The symbol test reads a tiny program with known function names (tests/unit/elf_fixture.c).
$(OUT)/tests/elf_fixture: tests/unit/elf_fixture.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -Wl,--build-id=sha1 -o $@ $<

$(OUT)/tests/test_symbols: | $(OUT)/tests/elf_fixture

# Calibration workloads with known answers (integration tests).
$(OUT)/calib: tests/calib.c | $(OUT)
	$(CC) $(CFLAGS) -pthread -o $@ $<

# A FUSE daemon that answers each WRITE after 20 ms (integration tests; libfuse3).
$(OUT)/fuse_slow: tests/fuse_slow.c | $(OUT)
	$(CC) -O2 -g -Wall -Wextra -Werror $(shell pkg-config --cflags fuse3) -o $@ $< \
		$(shell pkg-config --libs fuse3 2>/dev/null || echo -lfuse3 -lpthread)

unit: $(UNIT_BINS)
	@sh tests/unit/run.sh $(UNIT_BINS)

deps:
	@sh tests/install-deps.sh

test: deps
	$(MAKE) all $(UNIT_BINS) $(OUT)/calib $(OUT)/fuse_slow
	@bash tests/run.sh $(UNIT_BINS)

integration: all $(OUT)/calib $(OUT)/fuse_slow
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

clean:
	rm -rf $(OUT) iowhy
