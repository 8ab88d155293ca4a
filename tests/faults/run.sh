#!/bin/bash
# Plant faults in real cells and require them red, with a reason that says
# what happened, while the other cells still run and report.  Reuses the
# matrix's kernels (no build): run after the matrix.
#   1. x86_64 with a wrong console in its arch file, in one run with arm64:
#      x86_64 red ("no console output"), arm64 still green.
#   2. x86_64 with a trigger that hangs: red, "timed out", naming the step.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
BUILD=$(realpath -m "$BUILD")
export BUILD
# one variant is enough to plant faults in (the kernels are the matrix's)
export VARIANTS=on
pass=0 fail=0
check() { # WHAT COND...
	local what=$1; shift
	if "$@"; then pass=$((pass + 1)); echo "ok   $what"; else fail=$((fail + 1)); echo "FAIL $what"; fi
}
field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$@" 2>/dev/null; }

out=$BUILD/faults
rm -rf "$out"; mkdir -p "$out"
for a in x86_64 arm64; do
	if [ ! -f "$BUILD/$a/.config" ]; then
		echo "FAIL no $a kernel in $BUILD/$a: run the matrix first"
		echo "faults: 0 passed, 1 failed"
		exit 1
	fi
done

# 1. A wrong console.
cp -r "$top/arch-configs" "$out/arch-console"
sed -i 's/^CONSOLE=.*/CONSOLE=ttyS3/; s/^TIMEOUT=.*/TIMEOUT=30/' "$out/arch-console/x86_64.arch"
SKIP_BUILD=1 ARCH_DIR=$out/arch-console RESULTS_ROOT=$out/console \
	"$top/matrix/matrix.sh" x86_64 arm64 > "$out/console.log" 2>&1
rc=$?
sed 's/^/  | /' "$out/console.log" | tail -8
r=$(field "$out/console/x86_64/result.json" reason)
check "wrong console: the run fails" [ "$rc" -ne 0 ]
check "wrong console: x86_64 red, reason '$r'" grep -q 'no console output' <<< "$r"
check "wrong console: arm64 still ran and is green" \
	[ "$(field "$out/console/arm64/result.json" tests_passed)" = "$(field "$out/console/arm64/result.json" tests_total)" ] 

# 2. A trigger that hangs.
cp -r "$top/arch-configs" "$out/arch-hang"
sed -i 's/^TIMEOUT=.*/TIMEOUT=20/' "$out/arch-hang/x86_64.arch"
SKIP_BUILD=1 ARCH_DIR=$out/arch-hang RESULTS_ROOT=$out/hang PLAN=$top/tests/plans/hang.plan \
	"$top/matrix/matrix.sh" x86_64 > "$out/hang.log" 2>&1
rc=$?
sed 's/^/  | /' "$out/hang.log" | tail -5
r=$(field "$out/hang/x86_64/result.json" reason)
check "hang: the run fails" [ "$rc" -ne 0 ]
check "hang: boot reported as timeout" [ "$(field "$out/hang/x86_64/result.json" boot)" = timeout ]
check "hang: reason '$r'" grep -q 'timed out after 20s, last init line: write /sys/kernel/debug/lltest/hang 1: start' <<< "$r"

echo "faults: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
