#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hosttool/linetab, the compact line table (make test-linetab):
#  1. a small fixed generated row set (sequences, gaps, several rows at one
#     address, repeated path:line, line 0, more files than the MTF list,
#     large line and address steps): --table-check at several block sizes;
#  2. if Debian's 6.1 vmlinux is in the lineloc cache: its rows, at the
#     default block size, --table-size, --table-check and --latency.
# Prints the numbers; exits non-zero on the first failure.
set -e
cd "$(dirname "$0")/../.."
make -s -f hosttool/hosttool.mk hosttool/linetab hosttool/lineloc
tmp=$(mktemp -d "${TMPDIR:-/tmp}/table-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp/rows.txt" <<'EOF'
import random, sys
rnd = random.Random(10)
files = ['kernel/sched/core.c', 'include/linux/list.h', 'mm/slub.c',
         'arch/x86/entry/entry_64.S', 'noslash.c'] + \
        ['drivers/x/f%02d.c' % i for i in range(30)]
out = []
addr = 0xffffffff81000000
for seq in range(60):
    n = rnd.randint(1, 120)
    main = rnd.choice(files)
    line = rnd.randint(1, 3000)
    for i in range(n):
        r = rnd.random()
        f = main if r < 0.7 else rnd.choice(files)
        if r > 0.98:
            line = 0
        elif r > 0.95:
            line = rnd.randint(1, 1 << 20)
        else:
            line = max(1, line + rnd.randint(-20, 30))
        out.append('%s:%d 0x%x' % (f, line, addr))
        if rnd.random() < 0.1:      # more rows at this address
            out.append('%s:%d 0x%x' % (rnd.choice(files),
                                       rnd.randint(0, 99), addr))
        if rnd.random() < 0.05:     # the same path:line again
            addr += rnd.randint(1, 8)
            out.append('%s:%d 0x%x' % (f, line, addr))
        addr += rnd.choice([1, 2, 3, 4, 5, 7, 12, 30, 200, 70000])
    out.append('%s:%d 0x%x end' % (main, line, addr))
    addr += rnd.choice([0, 0, 1, 16, 4096])     # gap (or none)
    if rnd.random() < 0.15:     # a sequence over the one before
        addr -= rnd.randint(1, 400)
open(sys.argv[1], 'w').write('\n'.join(out) + '\n')
EOF
# run LABEL ARGS...: hosttool/linetab ARGS, its output labelled; stop on failure
run() {
	label=$1
	shift
	if ! out=$(hosttool/linetab "$@"); then
		printf '%s\n' "$out" | sed "s/^/linetab: $label: /"
		echo "linetab: FAIL: linetab $*"
		exit 1
	fi
	printf '%s\n' "$out" | sed "s/^/linetab: $label: /"
}

echo "linetab: generated rows: $(wc -l < "$tmp/rows.txt")"
for b in 1 2 3 7 16 64 96 256; do
	run "generated, block $b" --block $b --table-check "$tmp/rows.txt"
done
run generated --table-size "$tmp/rows.txt"
hosttool/linetab -o "$tmp/t.bin" "$tmp/rows.txt"
test -s "$tmp/t.bin"
run "generated, the table written" --table "$tmp/t.bin" --table-check "$tmp/rows.txt"
# one line changed in the rows: the check must fail and name that address
sed '100s/:\([0-9]*\) /:9\1 /' "$tmp/rows.txt" > "$tmp/rows2.txt"
addr=$(sed -n '100s/.* \(0x[0-9a-f]*\).*/\1/p' "$tmp/rows2.txt")
if hosttool/linetab --table "$tmp/t.bin" --table-check "$tmp/rows2.txt" \
		> "$tmp/diff.txt"; then
	echo "linetab: FAIL: a changed row went unnoticed"
	exit 1
fi
grep -q "^table-check: $addr: table says" "$tmp/diff.txt" || {
	cat "$tmp/diff.txt"
	echo "linetab: FAIL: the difference at $addr was not named"
	exit 1
}
echo "linetab: generated, one row changed: $(cat "$tmp/diff.txt")"

vm=${LINELOC_CACHE:-$HOME/.cache/lineloc}/root/usr/lib/debug/boot/vmlinux-6.1.0-57-cloud-amd64
if [ -r "$vm" ]; then
	hosttool/lineloc --rows "$vm" > "$tmp/debian.txt"
	run "debian 6.1" --table-size --table-check --latency "$tmp/debian.txt"
else
	echo "linetab: SKIP debian 6.1 (no $vm)"
fi
echo "linetab: all passed"
