# SPDX-License-Identifier: GPL-2.0
#
# hosttool/lineloc: the .debug_line reader (issue 4).  Included by the
# top-level Makefile; also works alone: make -f hosttool/hosttool.mk TARGET
# Paths are relative to the top of the repository.

HT_HOSTCC	?= gcc
HT_I686_CC	?= i686-linux-gnu-gcc
HT_S390X_CC	?= s390x-linux-gnu-gcc
HT_FUZZ_CC	?= clang-14
# lib/ (the kernel's lib/lineloc/) and include/ (its include/linux/lineloc/):
# shared with the kernel and the fuzzers, kernel C that includes nothing
# host-side; kbuild/include/: the kernel helpers they use, for host builds;
# kbuild/: what the kernel build runs (scripts/lineloc/), on lib/; the
# user-facing lineloc (main.c and the others of hosttool/files.tool) on top.
HT_INC		:= -Ihosttool/kbuild/include -Ihosttool/include -Ihosttool/lib \
		   -Ihosttool/kbuild
HT_HDRS		:= $(wildcard hosttool/include/linux/lineloc/*.h \
		     hosttool/kbuild/include/*/*.h hosttool/lib/*.h)
HT_CFLAGS	:= -std=c11 -Wall -Wextra -Werror -O2 -D_FILE_OFFSET_BITS=64 $(HT_INC)
# hosttool/files lists the kernel's copy, one path a line (lib/ and kbuild/,
# in the tree's scripts/lineloc/): also read by scripts/sync-lineloc.sh,
# tests/series-check.py and tests/hosttool/suite/common.py.  hosttool/files.tool
# lists the user tool's own files.  kbuild/lineloc.c is the kernel build's
# main(), main.c the user tool's.
HT_FILES	:= $(addprefix hosttool/,$(shell awk '!/^\#/ { print $$1 }' hosttool/files hosttool/files.tool))
HT_SRCS		:= $(filter-out hosttool/kbuild/lineloc.c,$(filter %.c,$(HT_FILES)))
HT_DEPS		:= $(HT_FILES) $(HT_HDRS) hosttool/files hosttool/files.tool \
		   hosttool/hosttool.mk
# the kernel build's lineloc: kbuild/ and the parts of lib/ it runs (the
# objects of the tree's scripts/lineloc/Makefile)
HT_KB_SRCS	:= $(filter hosttool/kbuild/%.c,$(HT_FILES)) \
		   hosttool/lib/dwarf_line.c hosttool/lib/linetab_enc.c \
		   hosttool/lib/modlines.c hosttool/lib/dwarf_reloc.c \
		   hosttool/lib/linetab_dec.c
HT_FUZZ		:= hosttool/fuzz/fuzz_dwarf_line
# hosttool/linetab: compact line tables (issue 10); the decoder is shared
# with the kernel, the encoder with the module loader later.
HT_LT_LIB	:= hosttool/lib/linetab_enc.c hosttool/lib/linetab_dec.c \
		   hosttool/kbuild/util.c
HT_LT_DEPS	:= $(HT_LT_LIB) $(HT_HDRS) hosttool/hosttool.mk
HT_FUZZ_LT	:= hosttool/fuzz/fuzz_linetab
# The module loader's path: relocations, line programs, both tables.
HT_FUZZ_ML	:= hosttool/fuzz/fuzz_modlines
HT_ML_SRCS	:= hosttool/lib/dwarf_reloc.c hosttool/lib/modlines.c \
		   hosttool/lib/dwarf_line.c $(HT_LT_LIB)
HT_ML_DEPS	:= $(HT_ML_SRCS) $(HT_LT_DEPS)

# lineloc whole, from its ELF reader on (fuzz_lineloc.c includes the
# program's sources; the decoders link as they are).  Its static data is
# reset between inputs, without ASan's redzones around it.
HT_FUZZ_LL	:= hosttool/fuzz/fuzz_lineloc
HT_LL_SRCS	:= hosttool/lib/dwarf_line.c hosttool/lib/dwarf_reloc.c \
		   hosttool/lib/modlines.c hosttool/lib/linetab_dec.c
# Every fuzz target, by the name hosttool/fuzz/run.sh takes.
HT_FUZZ_ALL	:= $(HT_FUZZ) $(HT_FUZZ_LT) $(HT_FUZZ_ML) $(HT_FUZZ_LL)

# Static zlib for the i686 and s390x builds: Debian's zlib1g-dev of that
# arch, unpacked into the cache by scripts/install-deps.sh (or installed
# through multiarch, which the compiler then finds itself).  Without it the
# binary is built without zlib and refuses SHF_COMPRESSED sections with a
# clear error; the tests say which.
HT_CACHE	?= $(or $(LINELOC_CACHE),$(HOME)/.cache/lineloc)
# ht_zlib CC,DEBARCH,TRIPLET: the flags that link that arch's static zlib
ht_zlib = $(if $(wildcard $(HT_CACHE)/zlib/$(2)/usr/lib/$(3)/libz.a),\
	-DHAVE_ZLIB -I$(HT_CACHE)/zlib/$(2)/usr/include \
	-L$(HT_CACHE)/zlib/$(2)/usr/lib/$(3) -lz,\
	$(if $(filter /%,$(shell $(1) -print-file-name=libz.a 2>/dev/null)),\
	-DHAVE_ZLIB -lz))
HT_I686_ZLIB	:= $(call ht_zlib,$(HT_I686_CC),i386,i386-linux-gnu)
HT_S390X_ZLIB	:= $(call ht_zlib,$(HT_S390X_CC),s390x,s390x-linux-gnu)

.PHONY: hosttool hosttool-i686 hosttool-s390x test-hosttool bench-hosttool fuzz-hosttool \
	test-libdw bench-libdw clean-hosttool test-linetab fuzz-linetab fuzz-modlines fuzz-modlines-runs \
	fuzz fuzz-runs fuzz-targets

hosttool: hosttool/lineloc hosttool/linetab hosttool/lineloc-kbuild

# The kernel build's lineloc (scripts/lineloc/lineloc in the tree), built
# here from the same files: what link-vmlinux.sh runs.
hosttool/lineloc-kbuild: $(HT_DEPS)
	$(HT_HOSTCC) $(HT_CFLAGS) -o $@ $(HT_KB_SRCS)

hosttool/lineloc: $(HT_DEPS)
	$(HT_HOSTCC) $(HT_CFLAGS) -DHAVE_ZLIB -o $@ $(HT_SRCS) -lz

hosttool-i686: hosttool/lineloc-i686

# A big-endian host: s390x, static, run under qemu-s390x-static (the one
# big-endian arch of bookworm's main archive).
hosttool-s390x: hosttool/lineloc-s390x

hosttool/lineloc-s390x: $(HT_DEPS)
	$(HT_S390X_CC) $(HT_CFLAGS) -static -o $@ $(HT_SRCS) $(HT_S390X_ZLIB)

hosttool/lineloc-i686: $(HT_DEPS)
	$(HT_I686_CC) $(HT_CFLAGS) -static -o $@ $(HT_SRCS) $(HT_I686_ZLIB)

# Every fuzz target is built without libFuzzer's stack-depth feature: under
# ASan it follows the stack's alignment (ASLR, the environment's size), and
# the -runs/-seed runs would not be the same inputs every time (measured on
# fuzz_linetab: two runs of seed 1 that differed in the environment's size
# grew different corpora).
$(HT_FUZZ): hosttool/fuzz/fuzz_dwarf_line.c hosttool/lib/dwarf_line.c \
		$(HT_HDRS) hosttool/hosttool.mk
	$(HT_FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-coverage=stack-depth \
		-fno-sanitize-recover=undefined $(HT_INC) -o $@ \
		hosttool/fuzz/fuzz_dwarf_line.c hosttool/lib/dwarf_line.c

hosttool/linetab: hosttool/linetab_tool.c $(HT_LT_DEPS)
	$(HT_HOSTCC) $(HT_CFLAGS) -o $@ hosttool/linetab_tool.c $(HT_LT_LIB)

$(HT_FUZZ_LT): hosttool/fuzz/fuzz_linetab.c $(HT_LT_DEPS)
	$(HT_FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-coverage=stack-depth \
		-fno-sanitize-recover=undefined $(HT_INC) -o $@ \
		hosttool/fuzz/fuzz_linetab.c $(HT_LT_LIB)

test-linetab: hosttool/linetab hosttool/lineloc
	tests/hosttool/linetab.sh

# Deterministic: HT_LT_FUZZ_RUNS inputs (default 200000) from seed 1,
# starting from the committed seeds; the corpus it grows is thrown away.
fuzz-linetab: $(HT_FUZZ_LT)
	mkdir -p hosttool/fuzz/artifacts
	tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/linetab-fuzz.XXXXXX") && \
	trap 'rm -rf "$$tmp"' EXIT && \
	$(HT_FUZZ_LT) -runs=$${HT_LT_FUZZ_RUNS:-200000} -seed=1 -use_cmp=0 \
		-reload=0 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=hosttool/fuzz/artifacts/ \
		"$$tmp" hosttool/fuzz/corpus_linetab

# Without the stack-depth feature, as every fuzz target (above).
$(HT_FUZZ_ML): hosttool/fuzz/fuzz_modlines.c $(HT_ML_DEPS)
	$(HT_FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-coverage=stack-depth \
		-fno-sanitize-recover=undefined $(HT_INC) -o $@ \
		hosttool/fuzz/fuzz_modlines.c $(HT_ML_SRCS)

# Deterministic: HT_ML_FUZZ_RUNS inputs (default 200000) from seed
# HT_ML_FUZZ_SEED (default 1), starting from the committed seeds; the
# corpus it grows is thrown away.
fuzz-modlines-runs: $(HT_FUZZ_ML)
	mkdir -p hosttool/fuzz/artifacts
	tmp=$$(mktemp -d "$${TMPDIR:-/tmp}/modlines-fuzz.XXXXXX") && \
	trap 'rm -rf "$$tmp"' EXIT && \
	echo "fuzz-modlines: $${HT_ML_FUZZ_RUNS:-200000} runs, seed $${HT_ML_FUZZ_SEED:-1}" && \
	$(HT_FUZZ_ML) -runs=$${HT_ML_FUZZ_RUNS:-200000} \
		-seed=$${HT_ML_FUZZ_SEED:-1} -use_cmp=0 -reload=0 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=hosttool/fuzz/artifacts/ \
		"$$tmp" hosttool/fuzz/corpus_modlines

# Timed: HT_FUZZ_SECONDS (or FUZZ_SECONDS, default 600) from a random seed
# that is printed first (HT_ML_FUZZ_SEED picks one), inputs up to
# HT_ML_FUZZ_MAX_LEN bytes (16384); the corpus grows in
# hosttool/fuzz/corpus_modlines-run/ (git-ignored).
fuzz-modlines: $(HT_FUZZ_ML)
	mkdir -p hosttool/fuzz/artifacts hosttool/fuzz/corpus_modlines-run
	seed=$${HT_ML_FUZZ_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} && \
	secs=$${HT_FUZZ_SECONDS:-$${FUZZ_SECONDS:-600}} && \
	echo "fuzz-modlines: timed run of $$secs s, seed $$seed" && \
	$(HT_FUZZ_ML) -max_total_time=$$secs -seed=$$seed -timeout=10 \
		-max_len=$${HT_ML_FUZZ_MAX_LEN:-16384} -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=hosttool/fuzz/artifacts/ \
		hosttool/fuzz/corpus_modlines-run hosttool/fuzz/corpus_modlines

$(HT_FUZZ_LL): hosttool/fuzz/fuzz_lineloc.c $(HT_DEPS)
	$(HT_FUZZ_CC) -std=c11 -g -O1 -Wall -Wextra -Werror -DHAVE_ZLIB \
		-fsanitize=fuzzer,address,undefined \
		-fno-sanitize-coverage=stack-depth -mllvm -asan-globals=0 \
		-fno-sanitize-recover=undefined $(HT_INC) -o $@ \
		hosttool/fuzz/fuzz_lineloc.c $(HT_LL_SRCS) -lz

fuzz-targets: $(HT_FUZZ_ALL)

# Every target: timed, FUZZ_SECONDS each (default 300) from a printed
# random seed (FUZZ_SEED picks one); or fuzz-runs: FUZZ_RUNS inputs each
# from seed 1, the same inputs on every run.  FUZZ_TARGETS= picks some.
fuzz: fuzz-targets
	hosttool/fuzz/run.sh --seconds $${FUZZ_SECONDS:-300} $(FUZZ_TARGETS)

fuzz-runs: fuzz-targets
	hosttool/fuzz/run.sh --runs $${FUZZ_RUNS:-100000} $(FUZZ_TARGETS)

# The big-endian build where its cross compiler is (an amd64 host; an i386
# host has none, and the suite says it skipped the part).
HT_BE		:= $(if $(shell command -v $(HT_S390X_CC) 2>/dev/null),hosttool/lineloc-s390x)

# HT_PARTS= picks the parts or groups (kernels, tools; default: all) of the
# host-tool suite, tests/hosttool/hostsuite.py.
# The parts that read the matrix's kernels need its cells (CELLS, from the
# top Makefile: each made when missing).
HT_KERNEL_PARTS	:= kernels matrix bigendian
HT_CELLS	= $(if $(or $(filter $(HT_KERNEL_PARTS),$(HT_PARTS)),$(if $(HT_PARTS),,all)),$(CELLS))
test-hosttool: hosttool/lineloc hosttool/lineloc-kbuild hosttool/lineloc-i686 $(HT_BE) $(HT_CELLS)
	tests/hosttool/run.sh $(HT_PARTS)

bench-hosttool: hosttool/lineloc hosttool/lineloc-i686
	tests/hosttool/bench.sh

# A third oracle and a benchmark: the rows lineloc keeps, read through
# elfutils' libdw (libdw-dev; tests/libdw/dwrows.c, none of lineloc's code).
tests/libdw/dwrows: tests/libdw/dwrows.c hosttool/hosttool.mk
	$(HT_HOSTCC) $(HT_CFLAGS) -o $@ tests/libdw/dwrows.c -ldw -lelf

# The matrix's kernels (ARCHES; those not built are skipped) and Debian's.
test-libdw: hosttool/lineloc tests/libdw/dwrows
	tests/libdw/compare.sh

bench-libdw: hosttool/lineloc tests/libdw/dwrows
	/usr/bin/python3 tests/libdw/bench.py

fuzz-hosttool: $(HT_FUZZ)
	tests/hosttool/fuzz.sh $${HT_FUZZ_SECONDS:-$${FUZZ_SECONDS:-600}}

clean-hosttool:
	rm -f hosttool/lineloc hosttool/lineloc-i686 hosttool/lineloc-s390x $(HT_FUZZ) \
		hosttool/linetab $(HT_FUZZ_LT) $(HT_FUZZ_ML) $(HT_FUZZ_LL) \
		tests/libdw/dwrows
	rm -rf hosttool/fuzz/corpus-run hosttool/fuzz/corpus_*-run \
		hosttool/fuzz/artifacts
