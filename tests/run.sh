#!/bin/bash
# The test command (make test): every suite in turn, each closing with a line
# "<suite>: N passed, M failed"; then the totals.  A suite that ends without
# that line counts as one failure.  Suites: lint, the judge's self-test, the
# host tool, the build-only configurations, the matrix (a cell per arch of ARCHES, default all),
# the host tool on the matrix's kernels (lltest's parts that read them, run
# after the matrix so that a fresh machine runs them too),
# decode_stacktrace.sh on the matrix's logs, planted faults, arm64 built
# by 32-bit host programs (host32-kernel: 80 s warm with IA32 emulation,
# 287 s here under qemu-i386-static; 7 min cold), and the
# host-tool suite in an i386 userland (host32: the workflow's host-32 job).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
: "${BUILD:=build}"
export BUILD
logdir=$(realpath -m "$BUILD")/test-logs
mkdir -p "$logdir"

suites=(lint judge hosttool configs matrix hosttool-kernels decode faults host32-kernel host32)
arches=${ARCHES:-$(python3 matrix/cell.py arches)}
# the kernel tree (series applied) is needed by lint's checkpatch and the matrix
make --no-print-directory prepare || { echo "total: 0 passed, 1 failed"; exit 1; }
[ -n "${SUITES:-}" ] && read -ra suites <<< "$SUITES"
pass=0 fail=0 summary=()
for s in "${suites[@]}"; do
	case $s in
	lint) cmd=(tests/lint.sh) ;;
	judge) cmd=(tests/judge/run.sh) ;;
	hosttool) cmd=(make --no-print-directory test-hosttool HT_PARTS=tools) ;;
	hosttool-kernels) cmd=(make --no-print-directory test-hosttool HT_PARTS=kernels) ;;
	configs) cmd=(tests/configs/run.sh) ;;
	matrix) cmd=(make --no-print-directory matrix) ;;
	decode) cmd=(tests/decode/run.sh) ;;
	faults) cmd=(tests/faults/run.sh) ;;
	host32-kernel) cmd=(tests/host32/kernel.sh arm64) ;;
	# without the sanitizer parts (mutants, fuzz, linetab): under
	# qemu-i386-static, i386 ASan hangs or fails at random
	host32) cmd=(env HOST32_PARTS="${HOST32_PARTS-synth cli generated debian}"
		HT_QUICK="${HT_QUICK-1}" tests/host32/run.sh) ;;
	*) echo "tests/run.sh: unknown suite $s" >&2; exit 2 ;;
	esac
	echo "=== $s: ${cmd[*]}"
	t0=$(date +%s)
	"${cmd[@]}" 2>&1 | tee "$logdir/$s.log"
	rc=${PIPESTATUS[0]}
	line=$(grep -E '^[a-z0-9_-]+: [0-9]+ passed, [0-9]+ failed' "$logdir/$s.log" | tail -1)
	if [ "$s" = matrix ]; then
		# the matrix's checks are counted from its cells' results; a cell
		# without one counts as a failure
		# shellcheck disable=SC2086
		line=$(python3 matrix/cell.py count "$(realpath -m "$BUILD")/results" $arches)
	fi
	if [ -z "$line" ]; then
		line="$s: 0 passed, 1 failed"
	fi
	p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<< "$line")
	f=$(sed -E 's/.*passed, ([0-9]+) failed.*/\1/' <<< "$line")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1; line="$line (but exit status $rc)"
	fi
	pass=$((pass + p)); fail=$((fail + f))
	summary+=("$(printf '%-9s %4ds  %s' "$s" $(( $(date +%s) - t0 )) "$line")")
done
echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "total: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
