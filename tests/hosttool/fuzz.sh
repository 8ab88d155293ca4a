#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the dwarf_line.c libFuzzer target for $1 seconds (default 30) from the
# committed seeds; the grown corpus goes to hosttool/fuzz/corpus-run/ and
# crashes to hosttool/fuzz/artifacts/ (both git-ignored).
set -e
cd "$(dirname "$0")/../.."
secs=${1:-30}
make -s -f hosttool/hosttool.mk hosttool/fuzz/fuzz_dwarf_line
mkdir -p hosttool/fuzz/corpus-run hosttool/fuzz/artifacts
exec hosttool/fuzz/fuzz_dwarf_line -max_total_time="$secs" -timeout=10 \
	-rss_limit_mb=1024 -print_final_stats=1 \
	-artifact_prefix=hosttool/fuzz/artifacts/ \
	hosttool/fuzz/corpus-run hosttool/fuzz/corpus
