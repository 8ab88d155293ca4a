#!/bin/bash
# Plant faults in real cells and require them red, with a reason that says
# what happened, while the other cells still run and report.  Reuses the
# matrix's kernels (no build): run after the matrix.
#   1. x86_64 with a wrong console in its arch file, in one run with another
#      arch (arm64 by default): x86_64 red ("no console output"), the other
#      still green.
#   2. x86_64 with a trigger that hangs: red, "timed out", naming the step.
#   3. the x86_64 'on' log with one location moved by a line, and the same
#      log judged as the option-off boot: both red.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
BUILD=$(realpath -m "$BUILD")
export BUILD
# one configuration is enough to plant faults in (the kernels are the matrix's)
export CONFIGS=on
# shellcheck source=tests/result.sh
. "$top/tests/result.sh"
field() { python3 "$top/matrix/cell.py" field "$@" 2>/dev/null; }
# The faults are planted in x86_64's cell; another arch (the last of
# ARCHES, default arm64) runs beside it and must stay green.
other=
for a in ${ARCHES:-$(python3 "$top/matrix/cell.py" arches)}; do
	[ "$a" != x86_64 ] && other=$a
done

out=$BUILD/faults
rm -rf "$out"; mkdir -p "$out"
for a in x86_64 $other; do
	if [ ! -f "$BUILD/$a/.config" ]; then
		bad "no $a kernel in $BUILD/$a: run the matrix first"
		finish faults
	fi
done

# 1. A wrong console.
cp -r "$top/arch-configs" "$out/arch-console"
sed -i 's/^CONSOLE=.*/CONSOLE=ttyS3/; s/^TIMEOUT=.*/TIMEOUT=30/' "$out/arch-console/x86_64.arch"
# shellcheck disable=SC2086 # $other may be empty: then x86_64 runs alone
SKIP_BUILD=1 ARCH_DIR=$out/arch-console RESULTS_ROOT=$out/console \
	"$top/matrix/matrix.sh" x86_64 $other > "$out/console.log" 2>&1
rc=$?
sed 's/^/  | /' "$out/console.log" | tail -8
r=$(field "$out/console/x86_64/result.json" reason)
check "wrong console: the run fails" [ "$rc" -ne 0 ]
check "wrong console: x86_64 red, reason '$r'" grep -q 'no console output' <<< "$r"
if [ -n "$other" ]; then
	check "wrong console: $other still ran and is green" \
		[ "$(field "$out/console/$other/result.json" green)" = true ]
fi

# 2. A trigger that hangs.
cp -r "$top/arch-configs" "$out/arch-hang"
sed -i 's/^TIMEOUT=.*/TIMEOUT=20/' "$out/arch-hang/x86_64.arch"
SKIP_BUILD=1 ARCH_DIR=$out/arch-hang RESULTS_ROOT=$out/hang PLAN=$top/qemu/plans/hang.plan \
	"$top/matrix/matrix.sh" x86_64 > "$out/hang.log" 2>&1
rc=$?
sed 's/^/  | /' "$out/hang.log" | tail -5
r=$(field "$out/hang/x86_64/result.json" reason)
check "hang: the run fails" [ "$rc" -ne 0 ]
check "hang: boot reported as timeout" [ "$(field "$out/hang/x86_64/result.json" boot)" = timeout ]
check "hang: reason '$r'" grep -q 'timed out after 20s, last init line: write /sys/kernel/debug/lltest/hang 1: start' <<< "$r"

# 3. Wrong locations in a real log: the judge must catch a located frame
#    whose line llvm-symbolizer contradicts, and any location printed with
#    the option off.
on=$BUILD/results/x86_64/on
if [ -f "$on/console.log" ] && [ -f "$on/boot.json" ]; then
	judge() { # LINES LOG OUT: the 'on' boot's records, with another console, its kernel
		# built with line locations LINES
		python3 "$top/matrix/cell.py" derive "$on/build.json" "$3.build.json" lines="$1" &&
			python3 "$top/matrix/cell.py" derive "$on/boot.json" "$3.boot.json" \
				config="$1" facts.LINES="$1" console="$2" build="$3.build.json" &&
			python3 "$top/matrix/judge.py" "$3.boot.json" --out "$3" > "$3.log" 2>&1
	}
	mkdir -p "$out/loc"
	# the control: the log as the kernel printed it passes
	judge on "$on/console.log" "$out/loc/good.json"
	r=$(grep -m1 'locations agree with llvm-symbolizer' "$out/loc/good.json.log")
	check "the real log's locations agree: '$r'" grep -q 'ok   locations agree' <<< "$r"
	r=$(grep -m1 'module frames: locations agree' "$out/loc/good.json.log")
	check "the real log's module frames agree: '${r:0:90}'" grep -q 'ok   module frames' <<< "$r"
	# one frame's line moved by one: vfs_write's, the first it prints
	sed -E '0,/vfs_write\+0x[0-9a-f]+\/0x[0-9a-f]+ \(fs\/read_write.c:[0-9]+\)/s//&X/' "$on/console.log" |
		perl -pe 's/(vfs_write\+0x[0-9a-f]+\/0x[0-9a-f]+ \(fs\/read_write\.c:)(\d+)\)X/$1.($2+1).")"/e' > "$out/loc/wrong.log"
	judge on "$out/loc/wrong.log" "$out/loc/wrong.json"
	r=$(grep -m1 'locations agree with llvm-symbolizer' "$out/loc/wrong.json.log")
	check "a located frame one line off is caught: '$r'" grep -q 'FAIL locations agree' <<< "$r"
	# one module frame's line moved by one: lltest_chain_a's, the first
	sed -E '0,/lltest_chain_a\+0x[0-9a-f]+\/0x[0-9a-f]+ \[lltest\] \([^ ()]+:[0-9]+\)/s//&X/' "$on/console.log" |
		perl -pe 's/(lltest_chain_a\+0x[0-9a-f]+\/0x[0-9a-f]+ \[lltest\] \([^ ()]+:)(\d+)\)X/$1.($2+1).")"/e' \
		> "$out/loc/modwrong.log"
	judge on "$out/loc/modwrong.log" "$out/loc/modwrong.json"
	r=$(grep -m1 'module frames: locations agree' "$out/loc/modwrong.json.log")
	check "a module frame one line off is caught: '${r:0:120}'" grep -q 'FAIL module frames' <<< "$r"
	# the probe trigger's interrupted pc printed as a return address
	# would be: the function before, at its end
	r=$(grep -m1 'probe: interrupted pc' "$out/loc/good.json.log")
	check "the real log's interrupted pc is printed as is: '$r'" grep -q '^\[x86_64\] ok ' <<< "$r"
	sed -E 's/(RIP: [0-9a-f]{4}:)lltest_(target|probed)\+0x0\/0x[0-9a-f]+/\1lltest_write+0x39\/0x39/' \
		"$on/console.log" > "$out/loc/interrupted.log"
	judge on "$out/loc/interrupted.log" "$out/loc/interrupted.json"
	r=$(grep -m1 'probe: interrupted pc' "$out/loc/interrupted.json.log")
	check "an interrupted pc printed as the function before is caught: '${r:0:90}'" grep -q 'FAIL' <<< "$r"
	judge off "$on/console.log" "$out/loc/off.json"
	r=$(grep -m1 'no vmlinux locations with the option off' "$out/loc/off.json.log")
	check "locations printed with the option off are caught: '${r:0:90}'" grep -q 'FAIL' <<< "$r"
else
	check "wrong locations: no x86_64 'on' boot to plant them in" false
fi

finish faults
