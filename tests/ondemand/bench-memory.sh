#!/bin/bash
# bench-memory.sh [ARCH...]: what line locations cost in memory, per matrix
# arch (default: all of arch-configs/common.facts), side by side in one run:
# three kernels on the same configuration, each built and booted here,
#   off         the series with CONFIG_KALLSYMS_LINE_LOCATIONS off
#   compact     the series with it on (the compact line tables)
#   rfc-layout  the RFC layout, the measured baseline of issue 10: the
#               frozen series in tests/ondemand/rfc-layout/ on the pristine
#               tree, with the option on
# and for each: `size vmlinux` (text, data, bss), the image file's size
# (the arch fact IMAGE) and the boot's `Memory:` line (parsed with
# matrix/console.py's MEMORY, as the judge does); then per arch one line of
# deltas against off and the ratio (rfc-layout - off) / (compact - off).
#
# The configuration is the matrix's (tinyconfig + common.config + the
# arch's fragment) without the options the RFC tree does not have
# (CONFIG_MODULE_LINE_LOCATIONS*, turned off here for all three kernels):
# a copy of arch-configs in $BENCH_DIR/arch-configs, given as ARCH_DIR.
# Everything lives under BENCH_DIR (default /var/cache/lineloc-ci/
# bench-memory): the RFC tree (a worktree of $BUILD/src/linux at pristine,
# the frozen series applied with git am; remade when that series changes),
# the O= folders, build logs and boot records.  The kernels boot with
# tests/ondemand/memory.plan (init starts and ends the run).  A kernel that
# fails to build or boot fails the run, naming it; the other arches go on.
# A benchmark, not a test: it prints figures and asserts nothing of them.
set -euo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/../../matrix/lib.sh"
# the RFC-layout baseline is frozen on the default base
one_base bench-memory
t_start=$(date +%s)
B=$(realpath -m "${BENCH_DIR:-/var/cache/lineloc-ci/bench-memory}")
frozen=$top/tests/ondemand/rfc-layout
plan=$top/tests/ondemand/memory.plan
lineloc_build=$BUILD
lineloc_src=$SRC
read -r -a arches <<< "${*:-$ALL_ARCHES}"
git -C "$lineloc_src" rev-parse -q --verify pristine >/dev/null ||
	die "no kernel tree in $lineloc_src: make prepare"
mkdir -p "$B"

# The configuration: arch-configs without the options the RFC tree lacks.
rm -rf "$B/arch-configs.new"
cp -r "$top/arch-configs" "$B/arch-configs.new"
for f in "$B/arch-configs.new/common.config" "$B"/arch-configs.new/*.arch; do
	sed -i -E '/^CONFIG_MODULE_LINE_LOCATIONS(_[A-Z_]+)?=/d' "$f"
done
cat >> "$B/arch-configs.new/common.config" <<'EOF'
# bench-memory.sh: options the RFC layout's tree does not have, off in all
# three kernels so that they share one configuration
CONFIG_MODULE_LINE_LOCATIONS=n
CONFIG_MODULE_LINE_LOCATIONS_KUNIT_TEST=n
EOF
rm -rf "$B/arch-configs"
mv "$B/arch-configs.new" "$B/arch-configs"
export ARCH_DIR=$B/arch-configs

# The RFC tree: pristine + the frozen series, remade when either changes.
rfc_build=$B/rfc
rfc_src=$rfc_build/src/linux
mapfile -t rfc_patches < <(grep -vE '^[[:space:]]*(#|$)' "$frozen/series" | sed "s|^|$frozen/|")
stamp=$( { git -C "$lineloc_src" rev-parse pristine; cat "${rfc_patches[@]}"; } | sha1sum | cut -d' ' -f1)
if [ "$(cat "$rfc_build/src/stamp" 2>/dev/null)" != "$stamp" ] ||
	! git -C "$rfc_src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	log "making the RFC layout's tree in $rfc_src (${#rfc_patches[@]} patches on pristine)"
	git -C "$lineloc_src" worktree remove --force "$rfc_src" 2>/dev/null || true
	rm -rf "$rfc_src" "$rfc_build/src/stamp"
	git -C "$lineloc_src" worktree prune
	mkdir -p "$rfc_build/src"
	git -C "$lineloc_src" worktree add -q --detach "$rfc_src" pristine
	git -C "$rfc_src" -c user.name=bench -c user.email=bench@invalid am -q "${rfc_patches[@]}" ||
		die "the frozen RFC series ($frozen) does not apply to pristine"
	echo "$stamp" > "$rfc_build/src/stamp"
fi

# build KIND ARCH: build one kernel, print the folder holding vmlinux and image
build() {
	local kind=$1 a=$2 v=on
	[ "$kind" = off ] && v=off
	if [ "$kind" = rfc-layout ]; then
		BUILD=$rfc_build RESULTS_ROOT=$B/results/rfc-layout LINELOC=$v \
			nice -n 10 "$top/matrix/build-kernel.sh" "$a" >&2 || return 1
		echo "$rfc_build/$a/kernel-$v"
	else
		BUILD=$lineloc_build KOBJ=$B/lineloc/$a RESULTS_ROOT=$B/results/lineloc LINELOC=$v \
			nice -n 10 "$top/matrix/build-kernel.sh" "$a" >&2 || return 1
		echo "$B/lineloc/$a/kernel-$v"
	fi
}

# measure ARCH KIND KDIR SRC: boot it, print "text data bss image
# available total code rwdata rodata init" (bytes, then KiB as printed)
measure() {
	local a=$1 kind=$2 k=$3 src=$4 out=$B/boot/$1/$2 cfg=on
	[ "$kind" = off ] && cfg=off
	nice -n 10 "$top/qemu/boot.py" --arch "$a" --config "$cfg" --kernel-dir "$k" \
		--obj "$(dirname "$k")" --src "$src" --plan "$plan" --module '' \
		--out-dir "$out" >&2 || return 1
	python3 - "$out/boot.json" "$k" "$CROSS_COMPILE" "$top/matrix" <<'PY'
import json, os, subprocess, sys
sys.path.insert(0, sys.argv[4])
import console  # noqa: E402
rec = json.load(open(sys.argv[1]))
log = open(rec['console'], errors='replace').read()
why = ('timed out after %d s' % rec['timeout'] if rec['timed_out'] else
       rec['missing'] + ' missing' if rec['missing'] else
       'no "lltest-init: ALL DONE"' if 'lltest-init: ALL DONE' not in log else '')
m = console.MEMORY.search(log)
if not why and not m:
    why = 'no Memory: line'
if why:
    sys.exit('%s (console: %s)' % (why, rec['console']))
size = subprocess.run([sys.argv[3] + 'size', os.path.join(sys.argv[2], 'vmlinux')],
                      capture_output=True, text=True, check=True).stdout.splitlines()[1].split()
print(*size[:3], os.path.getsize(os.path.join(sys.argv[2], 'image')), *m.groups())
PY
}

kinds=(off compact rfc-layout)
failed=()
for a in "${arches[@]}"; do
	load_arch "$a"
	declare -A fig=()
	ok=1
	for kind in "${kinds[@]}"; do
		if ! k=$(build "$kind" "$a"); then
			failed+=("$a $kind: kernel build failed (logs: $B/results/*/$a/)")
			ok=0; break
		fi
		src=$lineloc_src
		[ "$kind" = rfc-layout ] && src=$rfc_src
		if ! fig[$kind]=$(measure "$a" "$kind" "$k" "$src"); then
			failed+=("$a $kind: boot failed (see $B/boot/$a/$kind/)")
			ok=0; break
		fi
	done
	[ "$ok" = 1 ] || { log "error: ${failed[-1]}" >&2; continue; }
	for kind in "${kinds[@]}"; do
		read -r tx da bs im av to co rw ro in <<< "${fig[$kind]}"
		printf 'bench-memory: %s %s: text %d data %d bss %d; image %d; Memory: %dK/%dK available (%dK kernel code, %dK rwdata, %dK rodata, %dK init)\n' \
			"$a" "$kind" "$tx" "$da" "$bs" "$im" "$av" "$to" "$co" "$rw" "$ro" "$in"
	done
	python3 - "$a" "${fig[off]}" "${fig[compact]}" "${fig[rfc-layout]}" <<'PY'
import sys
a = sys.argv[1]
k = [list(map(int, s.split())) for s in sys.argv[2:]]
# (name, unit, value from text data bss image available total code rwdata rodata init)
what = [('vmlinux text+data', 'B', lambda f: f[0] + f[1]),
        ('image', 'B', lambda f: f[3]),
        ('rodata at boot', 'K', lambda f: f[8]),
        ('reserved at boot', 'K', lambda f: f[5] - f[4])]
parts = []
for name, unit, get in what:
    off, comp, rfc = (get(f) for f in k)
    d = lambda v: '%+d %s (%+.1f %%)' % (v - off, unit, 100.0 * (v - off) / off)
    ratio = '%.2f' % ((rfc - off) / (comp - off)) if comp != off else 'n/a'
    parts.append('%s off %d %s, compact %s, rfc-layout %s, rfc/compact %s'
                 % (name, off, unit, d(comp), d(rfc), ratio))
print('bench-memory: %s: %s' % (a, '; '.join(parts)))
PY
done
log "bench-memory: $(( $(date +%s) - t_start )) s"
if [ ${#failed[@]} -gt 0 ]; then
	printf 'bench-memory: FAILED: %s\n' "${failed[@]}" >&2
	exit 1
fi
