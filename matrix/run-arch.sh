#!/bin/bash
# run-arch.sh ARCH: for each variant (VARIANTS, default "off on": the series
# with CONFIG_KALLSYMS_LINE_LOCATIONS off, then on), build the kernel, the
# test module and the initramfs, boot in QEMU and judge the console log;
# then compare the variants.  Writes $RESULTS/<variant>/{console.log,
# result.json}, $RESULTS/console.log (the last variant's) and
# $RESULTS/result.json (all checks); exits 0 only for a green cell.
set -uo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/lib.sh"
load_arch "$1"

mkdir -p "$RESULTS"
rm -f "$RESULTS/result.json" "$RESULTS/console.log"
t0=$(date +%s)
stage_fail() { # STAGE REASON
	python3 "$top/matrix/judge.py" --arch "$ARCH_NAME" --fail "$1" --reason "$2" \
		--seconds $(( $(date +%s) - t0 )) --out "$RESULTS/result.json"
	log "FAIL ($1): $2"
	exit 1
}

plan=${PLAN:-$top/tests/plans/lltest.plan}
variants=${VARIANTS:-off on}
results=()
for v in $variants; do
	R=$RESULTS/$v
	rm -rf "$R"; mkdir -p "$R"
	if [ "${SKIP_BUILD:-0}" != 1 ]; then
		LINELOC=$v "$top/matrix/build-kernel.sh" "$ARCH_NAME" ||
			stage_fail build "kernel build ($v) failed (see $RESULTS/build-$v.log)"
	fi
	K=$OBJ/variant-$v
	[ -f "$K/image" ] || stage_fail build "no kernel image in $K"

	# The test module, built out of tree (M=) against this kernel.
	mod=$OBJ/lltest
	rm -rf "$mod"; mkdir -p "$mod"
	cp "$top"/tests/module/* "$mod/"
	log "$v: building test module"
	kmake M="$mod" modules > "$R/module.log" 2>&1 ||
		stage_fail build "test module build failed (see $R/module.log)"
	cp "$mod/lltest.ko" "$K/lltest.ko"

	# The initramfs: our static init, the module and the plan.
	"${CROSS_COMPILE}gcc" -static -Os -Wall -Wextra -Werror -std=gnu11 \
		-o "$OBJ/lltest-init" "$top/tests/init/init.c" > "$R/init.log" 2>&1 ||
		stage_fail build "init build failed (see $R/init.log)"
	cat > "$K/initramfs.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
dir /proc 0755 0 0
dir /sys 0755 0 0
file /init $OBJ/lltest-init 0755 0 0
file /lltest.ko $K/lltest.ko 0644 0 0
file /plan $plan 0644 0 0
LIST
	"$OBJ/usr/gen_init_cpio" "$K/initramfs.list" > "$K/initramfs.cpio" ||
		stage_fail build "gen_init_cpio failed"

	# Boot.  -no-reboot turns the init's final restart into QEMU's exit;
	# panic=-1 does the same for a panic, which the judge then reports (the
	# success marker, not QEMU's exit status, decides).
	cmd=("$QEMU" -M "$QEMU_MACHINE" ${QEMU_CPU:+-cpu "$QEMU_CPU"} -m "$MEMORY"
		-display none -monitor none -serial "file:$R/console.log" -net none
		-no-reboot -kernel "$K/image" -initrd "$K/initramfs.cpio"
		-append "console=$CONSOLE panic=-1 nokaslr loglevel=8 ${APPEND:-}")
	# shell-quoted, so that the saved command replays exactly
	printf '%q ' "${cmd[@]}" > "$R/qemu.cmd"
	echo >> "$R/qemu.cmd"
	command -v "$QEMU" >/dev/null || stage_fail boot "$QEMU not found (scripts/install-deps.sh installs it)"
	log "$v: booting in $QEMU (timeout ${TIMEOUT}s)"
	[ "${V:-0}" = 1 ] && echo "+ $(cat "$R/qemu.cmd")" >&2
	tb=$(date +%s)
	timeout -k 5 "$TIMEOUT" "${cmd[@]}" < /dev/null > "$R/qemu.out" 2>&1
	qrc=$?
	log "$v: QEMU exited $qrc after $(( $(date +%s) - tb )) s"
	cp "$R/console.log" "$RESULTS/console.log"

	python3 "$top/matrix/judge.py" --arch "$ARCH_NAME" --variant "$v" \
		--console "$R/console.log" --qemu-rc "$qrc" --timeout "$TIMEOUT" \
		--plan "$plan" --module "$K/lltest.ko" --vmlinux "$K/vmlinux" \
		--strip "$SRC/" --strip "$(realpath "$SRC")/" --strip "$OBJ/" \
		--addr2line "${CROSS_COMPILE}addr2line" --nm "${CROSS_COMPILE}nm" \
		--warn-pc "$WARN_PC" --interrupted-pc "$INTERRUPTED_PC" ${THUMB:+--thumb} ${FIRST_FRAME_PC:+--first-frame-pc} \
		--seconds $(( $(date +%s) - tb )) --out "$R/result.json"
	results+=("$R/result.json")
done

python3 "$top/matrix/judge.py" --arch "$ARCH_NAME" --merge "${results[@]}" \
	--seconds $(( $(date +%s) - t0 )) --out "$RESULTS/result.json"
