#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench-hosttool: see bench.py.  BENCH_REPEAT=N sets the repeats.
cd "$(dirname "$0")/../.." || exit 1
exec python3 tests/hosttool/bench.py "$@"
