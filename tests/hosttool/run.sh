#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The host-tool test suite (make test-hosttool): tests/hosttool/hostsuite.py,
# one module a part in tests/hosttool/suite/.  Arguments select parts
# (hostsuite.py --help lists them; default: all) or groups of them (kernels,
# tools).  HT_QUICK=1 samples less.  Every run gives the same answer:
# generated objects are reproducible, the mutants come from HT_MUTANT_SEED
# (default 5; "random" explores), the fuzz part makes HT_FUZZ_RUNS runs from
# HT_FUZZ_SEED unless HT_FUZZ_SECONDS asks for a timed run.  Ends with
# "hosttool: N passed, M failed".
cd "$(dirname "$0")/../.." || exit 1
exec python3 tests/hosttool/hostsuite.py "$@"
