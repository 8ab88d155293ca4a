#!/bin/bash
# run-arch.sh ARCH: one matrix cell.  For each boot configuration (VARIANTS,
# default the arch facts' BOOT_CONFIGS: the series with
# CONFIG_KALLSYMS_LINE_LOCATIONS off, then on): build the kernel and the
# test module, boot them (qemu/boot.py writes the configuration's record,
# $RESULTS/<config>/cell.json), judge the record (result.json); then merge
# the configurations' results into $RESULTS/result.json, with the checks
# between them.  A stage that fails (build, test module, variants, boot set-up)
# is that configuration's result; the other configurations still run, and
# the merged result keeps every check they passed.  Exits 0 only for a green
# cell.
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
# stage_fail CONFIG STAGE REASON: the configuration's result (in its own
# folder, which run_config emptied first); run_config then returns 1
stage_fail() {
	python3 "$top/matrix/cell.py" fail "$RESULTS/$1/result.json" "$ARCH_NAME" "$1" "$2" "$3" \
		$(( $(date +%s) - t0 ))
	log "FAIL $1 ($2): $3"
}

# run_config CONFIG: build, boot and judge one boot configuration
built=
run_config() {
	local v=$1 plan R K mod d fl vm dwarf
	# this configuration's facts: LINES, KCONFIG (and so OBJ), BOOT_PLAN, ...
	load_arch "$ARCH_NAME" "$v"
	plan=${PLAN:-$top/qemu/plans/$BOOT_PLAN.plan}
	R=$RESULTS/$v
	rm -rf "$R"; mkdir -p "$R"
	python3 "$top/matrix/cell.py" supports "$ARCH_NAME" "$v" || {
		stage_fail "$v" build "$ARCH_NAME cannot run $v: it needs $NEEDS, the arch has ${CAPS:-none}"; return 1; }
	# configurations that differ only in how they boot share one build
	if [ "${SKIP_BUILD:-0}" != 1 ] && [ "$built" != "$OBJ $LINES $ARCH_FRAGMENT" ]; then
		BOOT_CONFIG=$v LINELOC=$LINES "$top/matrix/build-kernel.sh" "$ARCH_NAME" || {
			stage_fail "$v" build "kernel build ($v) failed (see $RESULTS/build-$LINES.log)"; return 1; }
		built="$OBJ $LINES $ARCH_FRAGMENT"
	fi
	K=$OBJ/variant-$LINES
	[ -f "$K/image" ] || { stage_fail "$v" build "no kernel image in $K"; return 1; }

	# The test module, built out of tree (M=) against this kernel.
	mod=$OBJ/lltest
	rm -rf "$mod"; mkdir -p "$mod"
	cp "$top"/tests/module/* "$mod/"
	log "$v: building test module"
	kmake M="$mod" modules > "$R/module.log" 2>&1 || {
		stage_fail "$v" build "test module build failed (see $R/module.log)"; return 1; }
	cp "$mod/lltest.ko" "$mod/lltest_race.ko" "$K/"
	# The module again with each line-table version of the arch fact
	# MODULE_DWARF (the configuration's): gccN written by gcc itself, gasN
	# by gas (-gdwarf-2 gives version 3; arm's gcc never passes a version
	# to gas).
	dwarf=()
	for d in $MODULE_DWARF; do
		case $d in
		gcc[2-5]) fl="-gdwarf-${d#gcc} -gno-as-loc-support" ;;
		gas3) fl="-gdwarf-2" ;;
		gas[45]) fl="-gdwarf-${d#gas} -Wa,--gdwarf-${d#gas}" ;;
		*) stage_fail "$v" build "MODULE_DWARF: $d is not gcc2..gcc5 or gas3..gas5"; return 1 ;;
		esac
		vm=$OBJ/lltest-$d
		rm -rf "$vm"; mkdir -p "$vm"
		cp "$top"/tests/module/* "$vm/"
		kmake M="$vm" KCFLAGS="$fl" modules >> "$R/module.log" 2>&1 || {
			stage_fail "$v" build "test module ($d) build failed (see $R/module.log)"; return 1; }
		dwarf+=("$d=$vm/lltest.ko")
	done
	# Its load-time variants: stripped to the line table, and corrupted.
	python3 "$top/qemu/variants.py" --ko "$K/lltest.ko" --objcopy "${CROSS_COMPILE}objcopy" \
		--out "$K/variants" --seed "${VARIANT_SEED:-1}" --count "$MODULE_VARIANTS" \
		--dwarf "${dwarf[@]}" \
		> "$R/variants.log" 2>&1 || {
		stage_fail "$v" build "module variants failed (see $R/variants.log)"; return 1; }

	"$top/qemu/boot.py" --arch "$ARCH_NAME" --config "$v" --kernel-dir "$K" --obj "$OBJ" \
		--src "$SRC" --plan "$plan" --module "$K/lltest.ko" --out-dir "$R" || {
		stage_fail "$v" boot "the boot could not be set up"; return 1; }
	cp "$R/console.log" "$RESULTS/console.log"
	python3 "$top/matrix/judge.py" "$R/cell.json"
}

results=()
for v in ${VARIANTS:-$BOOT_CONFIGS}; do
	run_config "$v"
	results+=("$RESULTS/$v/result.json")
done

python3 "$top/matrix/judge.py" --merge "${results[@]}" --seconds $(( $(date +%s) - t0 )) \
	--out "$RESULTS/result.json" || exit 1
# a green run: its result stands for these inputs
[ -z "$key" ] || echo "$key" > "$RESULTS/inputs.key"
