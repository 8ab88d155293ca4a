#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the dwarf_line.c libFuzzer target from the committed seeds.
#
#   fuzz.sh            deterministic: HT_FUZZ_RUNS inputs (default 2000000,
#                      about 25 s here) from seed HT_FUZZ_SEED (default 1);
#                      the same inputs on every run and every machine.  The
#                      corpus it grows is thrown away.
#   fuzz.sh SECONDS    timed run (make fuzz-hosttool, HT_FUZZ_SECONDS):
#                      random seed; the corpus grows in
#                      hosttool/fuzz/corpus-run/ (git-ignored).
#
# Crashes go to hosttool/fuzz/artifacts/ (git-ignored) either way.
set -e
cd "$(dirname "$0")/../.."
make -s -f hosttool/hosttool.mk hosttool/fuzz/fuzz_dwarf_line
mkdir -p hosttool/fuzz/artifacts
fuzz() {
	hosttool/fuzz/fuzz_dwarf_line -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=hosttool/fuzz/artifacts/ \
		"$@"
}
if [ -n "$1" ]; then
	mkdir -p hosttool/fuzz/corpus-run
	echo "fuzz: timed run of $1 s, random seed"
	fuzz -max_total_time="$1" hosttool/fuzz/corpus-run \
		hosttool/fuzz/corpus
	exit
fi
runs=${HT_FUZZ_RUNS:-2000000}
seed=${HT_FUZZ_SEED:-1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lineloc-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "fuzz: $runs runs, seed $seed (HT_FUZZ_RUNS, HT_FUZZ_SEED)"
# Deterministic: no comparison operands in the mutations (some are pointers,
# which ASLR moves) and no timed re-reading of the output corpus.
fuzz -runs="$runs" -seed="$seed" -use_cmp=0 -reload=0 "$tmp" \
	hosttool/fuzz/corpus
