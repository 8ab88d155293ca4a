#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# hosttool/linetab, the compact line table (make test-linetab):
#  1. a small fixed generated row set (sequences, gaps, several rows at one
#     address, repeated path:line, line 0, more files than the MTF list,
#     large line and address steps): --table-check at several block sizes;
#  2. Debian's debug kernel (scripts/debian-dbg.sh: the newest version,
#     fetched into the lineloc cache if need be): its rows, at the default
#     block size, --table-size, --table-check and --latency, the table
#     written and read back, and bounds that hold on any version.  Not
#     getting the package is a failure; LINELOC_NO_DEBIAN=REASON does
#     without it, and the reason is printed.
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

# Debian's debug kernel, the version scripts/debian-dbg.sh chooses (the
# newest by dpkg's order, fetched if need be), so only checks that hold on
# any version: the table agrees with the rows, also written and read back;
# a kernel's worth of rows; at most 2.5 B/row, and smaller than delta-uleb64.
if [ -n "${LINELOC_NO_DEBIAN:-}" ]; then
	echo "linetab: SKIP debian (LINELOC_NO_DEBIAN: $LINELOC_NO_DEBIAN)"
	echo "linetab: all passed"
	exit 0
fi
if ! deb=$(scripts/debian-dbg.sh --all); then
	echo "linetab: FAIL: Debian's debug kernel cannot be had (scripts/debian-dbg.sh; LINELOC_NO_DEBIAN=REASON does without it)"
	exit 1
fi
ver=$(printf '%s\n' "$deb" | sed -n 's/^version=//p')
vm=$(printf '%s\n' "$deb" | sed -n 's/^vmlinux=//p')
hosttool/lineloc --rows "$vm" > "$tmp/debian.txt"
run "debian $ver" --table-size --table-check --latency "$tmp/debian.txt"
hosttool/linetab -o "$tmp/debian.bin" "$tmp/debian.txt"
run "debian $ver, the table written" --table "$tmp/debian.bin" --table-check "$tmp/debian.txt"
sizes=$(hosttool/linetab --table-size "$tmp/debian.txt")
rows=$(printf '%s\n' "$sizes" | sed -n 's/^table: \([0-9]*\) rows, \([0-9]*\) bytes.*/\1/p')
bytes=$(printf '%s\n' "$sizes" | sed -n 's/^table: \([0-9]*\) rows, \([0-9]*\) bytes.*/\2/p')
uleb=$(printf '%s\n' "$sizes" | sed -n 's/^delta-uleb64: \([0-9]*\) bytes.*/\1/p')
if [ -z "$rows" ] || [ -z "$bytes" ] || [ -z "$uleb" ] || [ "$rows" -lt 100000 ] ||
	[ $((bytes * 10)) -gt $((rows * 25)) ] || [ "$bytes" -ge "$uleb" ]; then
	printf '%s\n' "$sizes" | sed "s/^/linetab: debian $ver: /"
	echo "linetab: FAIL: debian $ver: want over 100,000 rows kept, at most 2.5 B/row and fewer bytes than delta-uleb64 (rows ${rows:-?}, bytes ${bytes:-?}, delta-uleb64 ${uleb:-?})"
	exit 1
fi
echo "linetab: debian $ver: $rows rows kept in $bytes bytes (at most 2.5 B/row), delta-uleb64 $uleb bytes"
echo "linetab: all passed"
