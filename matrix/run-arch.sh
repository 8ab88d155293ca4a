#!/bin/bash
# run-arch.sh ARCH: one matrix cell.  For each boot configuration (CONFIGS,
# default the arch facts' BOOT_CONFIGS: the series with
# CONFIG_KALLSYMS_LINE_LOCATIONS off, then on), the stages one after the
# other, each writing its own record in $RESULTS/<config>/:
#   build  matrix/build.sh: kernel, test module, its variants, initramfs,
#          the build checks (build.json)
#   boot   qemu/boot.py boots what build.json names (boot.json, console.log)
#   judge  matrix/judge.py: the configuration's result (result.json), from
#          whatever the stages before it left: a stage that failed is a
#          failed check, and the checks judged before it stay
# then merge (matrix/merge.py): the cell's $RESULTS/result.json, the
# configurations' checks and the checks between them.  Exits 0 only for a
# green cell.
set -uo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/lib.sh"
load_arch "$1"

mkdir -p "$RESULTS"
rm -f "$RESULTS/result.json" "$RESULTS/console.log" "$RESULTS/inputs.key"
t0=$(date +%s)
# what this run's result will stand for (matrix.sh, MATRIX_REUSE=1), read
# before anything is built
key=$(inputs_key "$ARCH_NAME")

built=
results=()
for v in ${CONFIGS:-$BOOT_CONFIGS}; do
	load_arch "$ARCH_NAME" "$v"
	R=$RESULTS/$v
	rm -rf "$R"; mkdir -p "$R"
	# configurations that differ only in how they boot share one kernel
	k=1
	[ "$built" = "$OBJ ${LINELOC:-$LINES} $ARCH_FRAGMENT" ] && k=0
	KERNEL=$k "$top/matrix/build.sh" "$ARCH_NAME" "$v" && built="$OBJ ${LINELOC:-$LINES} $ARCH_FRAGMENT"
	boot=()
	if [ "$(python3 "$top/matrix/cell.py" field "$R/build.json" ok)" = true ]; then
		"$top/qemu/boot.py" --build "$R/build.json" --out-dir "$R" || log "FAIL $v (boot): set-up"
		cp "$R/console.log" "$RESULTS/console.log" 2>/dev/null
		boot=(--boot "$R/boot.json")
	fi
	python3 "$top/matrix/judge.py" --build "$R/build.json" "${boot[@]}" --out "$R/result.json"
	results+=("$R/result.json")
done

python3 "$top/matrix/merge.py" --seconds $(( $(date +%s) - t0 )) --out "$RESULTS/result.json" \
	"${results[@]}" || exit 1
# a green run: its result stands for these inputs
[ -z "$key" ] || echo "$key" > "$RESULTS/inputs.key"
