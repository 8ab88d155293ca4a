#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The host-tool test suite (make test-hosttool).  Arguments select parts:
# cli generated debian matrix fuzz (default: all).  HT_QUICK=1 samples less;
# HT_FUZZ_SECONDS sets the fuzz run (default 30).  Ends with
# "hosttool: N passed, M failed".
cd "$(dirname "$0")/../.." || exit 1
exec python3 tests/hosttool/lltest.py "$@"
