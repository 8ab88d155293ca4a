#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the fuzz targets (make fuzz, make fuzz-runs), one after the other.
#
#   run.sh --runs N [TARGET...]     N inputs each from seed FUZZ_SEED
#                                   (default 1): the same inputs on every
#                                   run and machine; the corpus it grows is
#                                   thrown away
#   run.sh --seconds S [TARGET...]  S seconds each from a random seed,
#                                   printed (FUZZ_SEED picks one); the
#                                   corpus grows in corpus_TARGET-run/
#
# TARGETs (default all): dwarf_line (the line-program decoder), linetab
# (the compact table decoder and encoder), modlines (the module loader's
# path: relocation resolver, decoder, encoder), lineloc (lineloc's ELF
# reader and everything after it).  Each prints one line with its seed,
# inputs run, coverage and findings; the last line is
# "fuzz: T targets, E inputs, F findings".  A finding is saved under
# hosttool/fuzz/artifacts/ and makes the exit status 1.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
mode=${1:-} n=${2:-}
case $mode in
--runs|--seconds) [[ $n =~ ^[0-9]+$ ]] || { echo "run.sh: $mode needs a number" >&2; exit 2; } ;;
*) echo "usage: run.sh --runs N | --seconds S [TARGET...]" >&2; exit 2 ;;
esac
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(dwarf_line linetab modlines lineloc)
mkdir -p hosttool/fuzz/artifacts
total=0 found=0 ran=0
for t in "${targets[@]}"; do
	bin=hosttool/fuzz/fuzz_$t
	seeds=hosttool/fuzz/corpus_$t
	[ "$t" = dwarf_line ] && seeds=hosttool/fuzz/corpus
	if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
		echo "run.sh: no target $t ($bin, $seeds)" >&2
		exit 2
	fi
	extra=()
	if [ "$mode" = --runs ]; then
		seed=${FUZZ_SEED:-1}
		grow=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$t.XXXXXX")
		# no comparison operands (some are pointers, which ASLR moves)
		# and no timed re-reading of the corpus: the same inputs each run
		extra=(-runs="$n" -use_cmp=0 -reload=0)
		what="$n runs"
	else
		seed=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
		grow=hosttool/fuzz/corpus_$t-run
		mkdir -p "$grow"
		extra=(-max_total_time="$n" -max_len=16384)
		what="$n s"
	fi
	echo "== fuzz $t: $what, seed $seed"
	log=$(mktemp "${TMPDIR:-/tmp}/fuzz-$t.log.XXXXXX")
	"$bin" "${extra[@]}" -seed="$seed" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=hosttool/fuzz/artifacts/ \
		"$grow" "$seeds" > "$log" 2>&1
	rc=$?
	[ "$mode" = --runs ] && rm -rf "$grow"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -Eo '(cov: [0-9]+ ft: [0-9]+ corp: [0-9]+)' "$log" | tail -1)
	art=$(sed -n 's/.*Test unit written to //p' "$log" | tail -1)
	if [ $rc -ne 0 ] || [ -n "$art" ] || grep -q '^SUMMARY: ' "$log"; then
		found=$((found + 1))
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -3 | sed 's/^/   /'
		echo "fuzz $t: seed $seed: ${execs:-?} inputs, ${cov:-no coverage line}, FINDING ${art:-(exit status $rc)}"
	else
		echo "fuzz $t: seed $seed: ${execs:-?} inputs, $cov, no finding"
	fi
	rm -f "$log"
	total=$((total + ${execs:-0}))
	ran=$((ran + 1))
done
echo "fuzz: $ran targets, $total inputs, $found findings"
[ "$found" -eq 0 ]
