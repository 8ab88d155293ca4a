#!/bin/bash
# The test command (make test): every suite in turn, each closing with a line
# "<suite>: N passed, M failed, K skipped"; then the totals.  Every skip is
# a "SKIP WHAT -- WHY" line; when CI is set, a skip that tests/skips.allow
# does not name is a failure (a part that cannot run on CI's machine is a
# hole, not a pass).  A suite that ends without
# that line counts as one failure.  Suites: lint, the judge's self-test, the
# host tool, the build-only configurations, the matrix (a cell per arch of ARCHES, default all),
# the host tool on the matrix's kernels (the host-tool suite's parts that read
# them, run after the matrix so that a fresh machine runs them too), lineloc's rows
# against libdw's on those kernels and Debian's,
# decode_stacktrace.sh on the matrix's logs, planted faults, and the
# host-tool suite in an i386 userland (host32: the workflow's host-32 job).
# On demand (SUITES= names them; the workflow runs each as a job of its
# own): the hardened boots of one arch (hardened: make test-hardened, about
# 10 min cold) and arm64 built by 32-bit host programs (host32-kernel: 80 s
# warm with IA32 emulation, 287 s under qemu-i386-static; about 7 min cold).
# Cold, both took a fresh machine's two commands past 90 minutes.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
# messages, sort orders and number formats as the checks expect them
export LC_ALL=C
: "${BUILD:=build}"
export BUILD
logdir=$(realpath -m "$BUILD")/test-logs
mkdir -p "$logdir"

suites=(lint judge hosttool configs matrix hosttool-kernels libdw decode faults host32)
arches=${ARCHES:-$(python3 matrix/cell.py arches)}
# the kernel tree (series applied) is needed by lint's checkpatch and the matrix
make --no-print-directory prepare || { echo "total: 0 passed, 1 failed, 0 skipped"; exit 1; }
# the other bases' suites, SUITE@BASE: lint, configs and matrix on that
# base, on its TEST_ARCHES (arch-configs/common.facts)
for b in $(python3 matrix/cell.py common TEST_BASES); do
	suites+=("lint@$b" "configs@$b" "matrix@$b")
done
[ -n "${SUITES:-}" ] && read -ra suites <<< "$SUITES"
pass=0 fail=0 skipped=0 summary=()
# allowed SUITE WHAT: tests/skips.allow names the skip (SUITE GLOB -- REASON)
allowed() {
	local suite glob
	while read -r suite glob; do
		case $suite in ''|'#'*) continue ;; esac
		glob=${glob%% -- *}
		# shellcheck disable=SC2053 # the allowlist's patterns are globs
		[ "$suite" = "$1" ] && [[ $2 == $glob ]] && return 0
	done < tests/skips.allow
	return 1
}
for s in "${suites[@]}"; do
	# SUITE@BASE: the suite on that base, in its build folder, on its arches
	on=() base_build=$BUILD base_arches=$arches
	if [ "$s" != "${s#*@}" ]; then
		base_build=$BUILD/base-${s#*@}
		base_arches=$(BASE=${s#*@} python3 matrix/cell.py common TEST_ARCHES)
		on=(env BASE="${s#*@}" BUILD="$base_build" ARCHES="$base_arches")
	fi
	case ${s%@*} in
	lint) cmd=(make --no-print-directory lint) ;;
	judge) cmd=(make --no-print-directory test-judge) ;;
	hosttool) cmd=(make --no-print-directory test-hosttool HT_PARTS=tools) ;;
	hosttool-kernels) cmd=(make --no-print-directory test-hosttool-kernels) ;;
	libdw) cmd=(make --no-print-directory test-libdw) ;;
	configs) cmd=(tests/configs/run.sh) ;;
	# a green cell whose inputs are those of its last green run (make
	# matrix's, on a fresh machine) is reported, not run again
	matrix) cmd=(make --no-print-directory matrix MATRIX_REUSE=1) ;;
	decode) cmd=(make --no-print-directory test-decode) ;;
	faults) cmd=(make --no-print-directory test-faults) ;;
	hardened) cmd=(make --no-print-directory test-hardened) ;;
	host32-kernel) cmd=(make --no-print-directory ARCH=arm64 test-host32) ;;
	# without the sanitizer parts (mutants, fuzz, linetab): under
	# qemu-i386-static, i386 ASan hangs or fails at random
	host32) cmd=(make --no-print-directory test-hosttool32
		HOST32_PARTS="${HOST32_PARTS-synth cli generated debian}"
		HT_QUICK="${HT_QUICK-1}") ;;
	*) echo "tests/run.sh: unknown suite $s" >&2; exit 2 ;;
	esac
	echo "=== $s: ${cmd[*]}"
	t0=$(date +%s)
	"${on[@]}" "${cmd[@]}" 2>&1 | tee "$logdir/$s.log"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$logdir/$s.log" | tail -1)
	# the skips, as their SKIP lines say (a suite's inner suites' too)
	mapfile -t skips < <(sed -nE 's/^([a-z0-9_-]+: )?SKIP:? (.*)$/\2/p' "$logdir/$s.log")
	k=${#skips[@]} disallowed=0
	if [ -n "${CI:-}" ]; then
		for w in "${skips[@]}"; do
			allowed "$s" "${w%% -- *}" && continue
			echo "FAIL $s: a skip that tests/skips.allow does not name, under CI: $w"
			disallowed=$((disallowed + 1))
		done
	fi
	if [ "${s%@*}" = matrix ]; then
		# the matrix's checks are counted from its cells' results; a cell
		# without one counts as a failure
		# shellcheck disable=SC2086
		line=$(python3 matrix/cell.py count "$(realpath -m "$base_build")/results" $base_arches)
	elif [ "$s" = hardened ]; then
		# likewise, the one cell of the hardened boots
		line=$(python3 matrix/cell.py count "$(realpath -m "$BUILD")/results-test-hardened" \
			"$(python3 matrix/cell.py common TEST_HARDENED | cut -d' ' -f1)" |
			sed 's/^matrix:/hardened:/')
	fi
	if [ -z "$line" ]; then
		line="$s: 0 passed, 1 failed"
	fi
	p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<< "$line")
	f=$(sed -E 's/.*passed, ([0-9]+) failed.*/\1/' <<< "$line")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1; line="$line (but exit status $rc)"
	fi
	if [ "$disallowed" -gt 0 ]; then
		f=$((f + disallowed)); line="$line ($disallowed skips not allowed under CI)"
	fi
	pass=$((pass + p)); fail=$((fail + f)); skipped=$((skipped + k))
	summary+=("$(printf '%-9s %4ds  %s' "$s" $(( $(date +%s) - t0 )) "$line")")
done
echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "total: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
