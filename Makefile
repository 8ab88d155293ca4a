# SPDX-License-Identifier: GPL-2.0
#
# Line locations in Linux backtraces: the matrix, the host tool, the tests.
#
#   make matrix               build and boot all four arches, judge each
#   make ARCH=arm64 qemu-test one arch
#   make ARCH=arm64 boot      boot the kernel qemu-test built (CONFIG=on|off)
#                             with qemu/boot.py, and judge the boot
#   make prepare              unpack linux-source + series/BASE/ into $(BUILD)/src/linux
#   make series-export        write that tree's commits back into series/BASE/
#   make sync-lineloc         copy hosttool/ into the lineloc patch (one source)
#   make BASE=6.12 range-diff git range-diff of the 6.1 series and BASE's
#   make hosttool             build hosttool/lineloc (see hosttool/README.md)
#   make test                 every test: self-tests, lint, host tool, matrix
#   make bench                the benchmarks (bench-hosttool, bench-table,
#                             ARCH=... bench-link)
#   make bench-memory         per arch (ARCHES=, or ARCH= for one): size,
#                             image and boot Memory: line of three kernels,
#                             line locations off, compact, RFC layout
#   make ARCH=... test-reproducible  same line tables from a second O= folder
#   make ARCH=... bisect-check       build and boot each patch of the series
#   make build-configs        build-only configurations (KALLSYMS=n, DEBUG_INFO=n)
#   make ARCH=... test-host32 the kernel built by 32-bit host programs: same
#                             outputs as with this host's (arm64, arm, i386)
#   make test-hosttool32      the host-tool suite in an i386 Debian userland
#                             (the workflow's host-32 job, run here)
#   make fuzz                 every fuzz target, FUZZ_SECONDS each, seeds printed
#   make fuzz-runs            every fuzz target, FUZZ_RUNS inputs each, seed 1
#   make mutation-check       plant known faults in lineloc and the kernel (an
#                             arm or x86_64 kernel built and booted per kernel
#                             fault); the tests must catch each
#                             (MUTATION_KERNEL=0: host faults only)
#   make matrix-hardened      KASAN, kmemleak, lockdep, 2 CPUs (x86_64, arm, arm64;
#                             ARCH= one): 200 corrupted module variants, 1,000
#                             loads racing lookups, no report beyond a baseline boot
#   make test-hardened        a short share of it (on demand): x86_64, 24 variants, 50
#                             loads, the init and unload holds
#
# Variables: ARCH= (one arch), ARCHES= (for matrix and test; default the list
# in arch-configs/common.facts), BASE= (the kernel base: 6.1, Debian 12's
# linux-source, the default; a base has its series in series/BASE/),
# BUILD= (default build/ for 6.1, build/base-BASE for another base; CI sets
# a fixed path so that ccache hits across clones),
# DWARF=4|5 (default 5), V=1 shows the commands.

ARCH ?= x86_64
ARCHES ?= $(shell python3 matrix/cell.py arches)
CONFIG ?= on
BASE ?= 6.1
BUILD ?= $(if $(filter 6.1,$(BASE)),build,build/base-$(BASE))
V ?= 0
export BASE BUILD V DWARF ARCHES

ifeq ($(V),1)
Q :=
else
Q := @
endif

.PHONY: all matrix matrix-hardened test-hardened qemu-test boot kernel prepare series-export sync-lineloc range-diff test bench lint \
	test-judge test-decode test-hosttool-kernels test-faults test-host32 test-hosttool32 mutation-check test-reproducible bisect-check bench-link bench-table bench-memory build-configs clean help

.DEFAULT_GOAL := all
all: matrix

-include hosttool/hosttool.mk

# The hardened configurations (arch-configs/common.facts: HARDENED_CONFIGS)
# on ARCH when it is given, else on every arch that can run them.
HARDENED_ARCHES = $(if $(filter command line environment,$(origin ARCH)),$(ARCH),$(shell python3 matrix/cell.py arches hardened))
matrix-hardened: prepare
	$(Q)RESULTS_ROOT=$(BUILD)/results-hardened \
		CONFIGS="$$(python3 matrix/cell.py common HARDENED_CONFIGS)" \
		matrix/matrix.sh $(HARDENED_ARCHES)

# make test's hardened boots (common.facts: TEST_HARDENED): the baseline
# and the shortened hardened plan on one arch, results apart from the
# matrix's and matrix-hardened's.
TEST_HARDENED = $(shell python3 matrix/cell.py common TEST_HARDENED)
test-hardened: prepare hosttool/lineloc
	$(Q)RESULTS_ROOT=$(BUILD)/results-test-hardened \
		CONFIGS="$(wordlist 2,$(words $(TEST_HARDENED)),$(TEST_HARDENED))" \
		matrix/matrix.sh $(firstword $(TEST_HARDENED))

help:
	@sed -n '3,/^$$/p' Makefile

prepare:
	$(Q)scripts/prepare-tree.sh $(BUILD)/src/linux

matrix: prepare hosttool/lineloc
	$(Q)matrix/matrix.sh $(ARCHES)

qemu-test: prepare hosttool/lineloc
	$(Q)matrix/matrix.sh $(ARCH)

# One configuration of one cell, its results in $(BUILD)/boot/ARCH/CONFIG
# (the matrix's are left alone); the kernel and the test module are built
# first, incrementally when qemu-test built them.
boot: prepare hosttool/lineloc
	$(Q)RESULTS_ROOT=$(BUILD)/boot CONFIGS=$(CONFIG) matrix/run-arch.sh $(ARCH)

kernel: prepare
	$(Q)matrix/build-kernel.sh $(ARCH)

series-export:
	$(Q)scripts/series-export.sh $(BUILD)/src/linux

sync-lineloc: prepare
	$(Q)scripts/sync-lineloc.sh $(BUILD)/src/linux

# the series of BASE= against the default base's, patch by patch
range-diff:
	$(Q)$(MAKE) --no-print-directory BASE=6.1 BUILD=build prepare
	$(Q)$(MAKE) --no-print-directory prepare
	$(Q)scripts/range-diff.sh

test:
	$(Q)tests/run.sh

# What the suites that read the matrix's kernels, modules and console logs
# need: a cell's merged result, made by running that cell when it is
# missing (make matrix runs every cell again; it is phony, these are files).
# A red cell is still a result: the suite reads what it has and says what
# is missing.
cell_result = $(BUILD)/results/$(1)/result.json
CELLS := $(foreach a,$(ARCHES),$(call cell_result,$(a)))
$(BUILD)/results/%/result.json: | prepare hosttool/lineloc
	-$(Q)matrix/run-arch.sh $*

# The faults suite plants faults in x86_64's cell beside one other arch
# (the last of ARCHES), reusing their kernels.
FAULT_ARCHES := x86_64 $(lastword $(filter-out x86_64,$(ARCHES)))

# the libdw oracle reads each cell's vmlinux (its rule: hosttool/hosttool.mk)
test-libdw: $(CELLS)

test-decode: $(CELLS)
	$(Q)tests/decode/run.sh

test-hosttool-kernels: hosttool/lineloc hosttool/lineloc-i686 $(HT_BE) $(CELLS)
	$(Q)tests/hosttool/run.sh kernels

test-judge:
	$(Q)tests/judge/run.sh

test-reproducible: prepare
	$(Q)tests/ondemand/reproducible.sh $(ARCH)

build-configs: prepare
	$(Q)BUILD_ONLY_ALL=1 tests/configs/run.sh

bisect-check: prepare
	$(Q)tests/ondemand/bisect-check.sh $(ARCH)

bench-link: prepare
	$(Q)tests/ondemand/bench-link.sh $(ARCH)

test-host32: prepare
	$(Q)tests/host32/kernel.sh $(ARCH)

test-hosttool32:
	$(Q)tests/host32/run.sh

# Planted faults the tests must catch (tests/mutation/faults.py), in a
# scratch copy: MUTATION_DIR= (default /var/cache/lineloc-ci/mutation/src);
# MUTATION_FAULTS= picks some (tests/mutation/run.py --list lists them).
# Kernel faults go into a worktree of $(BUILD)/src/linux (MUTATION_KERNEL_TREE=,
# default /var/cache/lineloc-ci/mutation/linux) built in MUTATION_KBUILD=
# (default /var/cache/lineloc-ci/mutation/kbuild); MUTATION_KERNEL=0 skips them
mutation-check: $(if $(filter 0,$(MUTATION_KERNEL)),,prepare)
	$(Q)python3 tests/mutation/run.py $(MUTATION_FAULTS)

test-faults: $(foreach a,$(FAULT_ARCHES),$(call cell_result,$(a)))
	$(Q)tests/faults/run.sh

lint: prepare
	$(Q)tests/lint.sh

bench-table: prepare
	$(Q)tests/ondemand/bench-table.sh

# Three kernels per arch built and booted side by side (not part of make
# bench: two cold kernel builds an arch); ARCH= on the command line picks
# one arch, else ARCHES; BENCH_DIR= (default /var/cache/lineloc-ci/bench-memory)
bench-memory: prepare
	$(Q)tests/ondemand/bench-memory.sh $(if $(filter command line environment,$(origin ARCH)),$(ARCH),$(ARCHES))

bench: bench-hosttool bench-link bench-table

clean: clean-hosttool
	rm -rf $(BUILD)

