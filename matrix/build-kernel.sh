#!/bin/bash
# build-kernel.sh ARCH [CONFIG]: configure (tinyconfig + common + arch
# fragments) and build the kernel for ARCH in $BUILD/ARCH.  Fails, naming
# them, when requested options did not survive olddefconfig.
# BOOT_CONFIG= picks a boot configuration's facts (arch-configs/
# common.facts: LINES, and KCONFIG, a fragment merged last, with
# KCONFIG.base-BASE.config after it where there is one, and built in
# $BUILD/ARCH-KCONFIG); LINELOC=on|off overrides LINES.
# KOBJ= names another O= folder; CONFIGURE_ONLY=1 stops once it is
# configured (tests/host32/kernel.sh builds there itself).
# With CONFIG, a build-only configuration (arch-configs/build-only/
# CONFIG.config merged last) is built in $BUILD/ARCH-build-only, and any
# compiler or linker warning fails it.  The build-only configurations of
# an arch share that folder: the next one recompiles only what its options
# change (they all build without debug information, so not everything).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
load_arch "$1"
cfg_name=${2:-}
OBJ=${KOBJ:-$OBJ}

# no_warnings LOG WHAT: fail, listing them, when a build log has compiler or
# linker warnings (every build of the matrix must be warning-free).
no_warnings() {
	if grep -E '(warning|error):' "$1" > "$1.warnings"; then
		sed 's/^/  /' "$1.warnings" | head -20 >&2
		die "$2: $(wc -l < "$1.warnings") warnings (log: $1)"
	fi
}
if [ -n "$cfg_name" ]; then
	cfg_file=${ARCH_DIR:-$top/arch-configs}/build-only/$cfg_name.config
	[ -f "$cfg_file" ] || die "no build-only configuration $cfg_file"
	OBJ=$BUILD/$ARCH_NAME-build-only
fi

export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
mkdir -p "$OBJ" "$RESULTS"

frag=$OBJ/lineloc.config
{
	cat "${ARCH_DIR:-$top/arch-configs}/common.config"
	# what the kernel base names differently (scripts/base.sh: BASE)
	cat "${ARCH_DIR:-$top/arch-configs}/base-$BASE.config" ||
		die "no arch-configs/base-$BASE.config"
	printf '%s' "$ARCH_FRAGMENT"
	case "${DWARF:-5}" in
	5) echo "CONFIG_DEBUG_INFO_DWARF5=y" ;;
	4) echo "CONFIG_DEBUG_INFO_DWARF4=y" ;;
	*) die "DWARF=${DWARF} (only 4 or 5)" ;;
	esac
	if [ -n "$KCONFIG" ]; then
		cat "${ARCH_DIR:-$top/arch-configs}/$KCONFIG.config"
		# and what that fragment needs on this kernel base, if anything
		b=${ARCH_DIR:-$top/arch-configs}/$KCONFIG.base-$BASE.config
		if [ -f "$b" ]; then cat "$b"; fi
	fi
	[ -n "${EXTRA_CONFIG:-}" ] && cat "$EXTRA_CONFIG"
	[ -n "$cfg_name" ] && cat "$cfg_file"
} > "$frag"
# The options to check: every requested one, or a build-only
# configuration's own (what depends on the options it turns off goes too).
want=$frag
[ -n "$cfg_name" ] && want=$cfg_file

stamp=$( { cat "$frag"; git -C "$SRC" rev-parse HEAD 2>/dev/null; } | sha1sum | cut -d' ' -f1)
if [ ! -f "$OBJ/.config" ] || [ "$(cat "$OBJ/.lineloc-config" 2>/dev/null)" != "$stamp" ]; then
	log "configuring: tinyconfig + common.config + $ARCH_NAME.arch (DWARF ${DWARF:-5})"
	# every option named must exist in this tree's Kconfig: a "=n" line
	# for a symbol the tree does not have would pass the check below
	# silently (a renamed option on another kernel base)
	known=$(kconfig_symbols "$SRC")
	[ -n "$known" ] || die "cannot list the Kconfig symbols of $SRC"
	unknown=$(grep -oE '^CONFIG_[A-Za-z0-9_]+=' "$want" | tr -d = | sort -u | comm -23 - <(echo "$known"))
	[ -z "$unknown" ] || die "requested options that no Kconfig of $SRC defines: ${unknown//$'\n'/ }"
	kmake -s tinyconfig >/dev/null
	# in the build folder: merge_config.sh makes its temporary files in
	# the current one, which a killed run would leave in the clone
	(cd "$OBJ" && vrun "$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$frag" >/dev/null)
	kmake -s olddefconfig >/dev/null
	missing=
	while IFS= read -r line; do
		case "$line" in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*} val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$OBJ/.config" && missing+=" $line(got $(grep "^$opt=" "$OBJ/.config"))"
		else
			grep -qx "$line" "$OBJ/.config" || missing+=" $line"
		fi
	done < "$want"
	[ -z "$missing" ] || die "requested options missing from the final .config:$missing"
	echo "$stamp" > "$OBJ/.lineloc-config"
fi
[ "${CONFIGURE_ONLY:-0}" = 1 ] && exit 0

if [ -n "$cfg_name" ]; then
	log "building kernel, build-only configuration $cfg_name"
	start=$(date +%s)
	blog=$RESULTS/build-$cfg_name.log
	kmake_argv -j"$(nproc)" all
	logged "$blog" "${KMAKE[@]}" || {
		tail -30 "$blog" >&2
		die "kernel build ($cfg_name) failed (log: $blog)"
	}
	log "kernel built in $(( $(date +%s) - start )) s"
	no_warnings "$blog" "$cfg_name"
	log "$cfg_name: no warnings"
	exit 0
fi

# The line locations: CONFIG_KALLSYMS_LINE_LOCATIONS off ("stock": the patched tree
# with the option off) or on, toggled in the one O= folder so that kbuild
# rebuilds only what depends on it.
# (Off also covers a tree without the option: bisect-check boots those.)
# With them on, the chains of inlined calls (CONFIG_KALLSYMS_LINE_INLINES)
# as the INLINES fact says, where the tree has the option.
lines=${LINELOC:-$LINES}
inlines=${INLINES:-off}
case $lines in
on|off) ;;
*) die "LINELOC=$lines (on or off)" ;;
esac
[ "$lines" = on ] || inlines=off
grep -qx 'config KALLSYMS_LINE_INLINES' "$SRC/init/Kconfig" || inlines=off
is_on() { grep -qx "CONFIG_$1=y" "$OBJ/.config"; }
state() { if is_on "$1"; then echo on; else echo off; fi; }
if [ "$(state KALLSYMS_LINE_LOCATIONS)" != "$lines" ] ||
   [ "$(state KALLSYMS_LINE_INLINES)" != "$inlines" ]; then
	vrun "$SRC/scripts/config" --file "$OBJ/.config" \
		"--$( [ "$lines" = on ] && echo enable || echo disable)" KALLSYMS_LINE_LOCATIONS \
		"--$( [ "$inlines" = on ] && echo enable || echo disable)" KALLSYMS_LINE_INLINES
	kmake -s olddefconfig >/dev/null
	for o in KALLSYMS_LINE_LOCATIONS:$lines KALLSYMS_LINE_INLINES:$inlines; do
		[ "$(state "${o%%:*}")" = "${o#*:}" ] ||
			die "cannot turn CONFIG_${o%%:*} ${o#*:} (see $OBJ/.config)"
	done
fi

what=$lines
[ "$inlines" = off ] || what="$lines, with inlined calls"
log "building kernel, line locations $what ($UNWINDER unwinder)"
start=$(date +%s)
kmake_argv -j"$(nproc)" all
logged "$RESULTS/build-$lines.log" "${KMAKE[@]}" || {
	tail -30 "$RESULTS/build-$lines.log" >&2
	die "kernel build failed (log: $RESULTS/build-$lines.log)"
}
[ -f "$OBJ/$IMAGE" ] || die "build produced no $IMAGE"
log "kernel built in $(( $(date +%s) - start )) s"
# The tree builds warning-free with the option off and on, as the
# build-only configurations must.
no_warnings "$RESULTS/build-$lines.log" "line locations $lines"
# Keep this kernel's artifacts aside: the other one rebuilds in place.
out=$OBJ/kernel-$lines
mkdir -p "$out"
cp "$OBJ/vmlinux" "$OBJ/System.map" "$OBJ/.config" "$out/"
cp "$OBJ/$IMAGE" "$out/image"
