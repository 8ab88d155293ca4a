#!/bin/bash
# scripts/decode_stacktrace.sh still decodes a backtrace whose frames carry
# locations: for each arch's "on" boot, feed the located frames of the
# console log to the series' decode_stacktrace.sh with that boot's vmlinux,
# and require that every frame decodes to a source line.  How many decode to
# the very line the kernel printed is reported, not required: the script
# looks a return address up as is, the kernel at the call before it (as
# llvm-symbolizer agrees in the matrix).  The pristine script is run on the
# same input for comparison.  Module frames ("[lltest]", located by the
# kernel from the module's own .debug_line) decode through the module that
# was loaded, found in the boot's kernel folder.  Run after the matrix.
set -uo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/../../matrix/lib.sh"
# shellcheck source=tests/result.sh
. "$top/tests/result.sh"
for a in ${ARCHES:-$ALL_ARCHES}; do
	load_arch "$a"
	log=$RESULTS/on/console.log
	vmlinux=$OBJ/variant-on/vmlinux
	if [ ! -f "$log" ] || [ ! -f "$vmlinux" ]; then
		bad "$a: no 'on' console log or vmlinux: run the matrix first"
		continue
	fi
	in=$RESULTS/on/decode-in.txt
	python3 "$top/matrix/console.py" located "$log" > "$in"
	n=$(wc -l < "$in")
	CROSS_COMPILE=$CROSS_COMPILE "$SRC/scripts/decode_stacktrace.sh" "$vmlinux" "$SRC" \
		"$OBJ/variant-on" < "$in" > "$RESULTS/on/decode-out.txt" 2> "$RESULTS/on/decode-err.txt"
	git -C "$SRC" show pristine:scripts/decode_stacktrace.sh > "$RESULTS/on/decode-pristine.sh"
	CROSS_COMPILE=$CROSS_COMPILE bash "$RESULTS/on/decode-pristine.sh" "$vmlinux" "$SRC" \
		"$OBJ/variant-on" < "$in" > "$RESULTS/on/decode-pristine-out.txt" 2>/dev/null
	res=$(python3 - "$in" "$RESULTS/on/decode-out.txt" "$RESULTS/on/decode-pristine-out.txt" <<'PY'
import re, sys
src = open(sys.argv[1]).read().splitlines()
out = open(sys.argv[2]).read().splitlines()
old = open(sys.argv[3]).read().splitlines()
# decoded: "name (path:line[ path:line...])", innermost first
loc = re.compile(r' \(([^ ()]+):(\d+)[ )]')
ok = same = 0
bad = []
for i, line in enumerate(src):
    want = re.search(r'\(([^ ()]+:\d+)\)$', line).group(1)
    got = loc.search(out[i]) if i < len(out) else None
    if got:
        ok += 1
        same += '%s:%s' % (got.group(1), got.group(2)) == want
    elif len(bad) < 3:
        bad.append('%s -> %s' % (line.strip(), out[i].strip() if i < len(out) else 'nothing'))
old_ok = sum(1 for i, line in enumerate(src) if i < len(old) and loc.search(old[i]))
print('%d %d %d %d %s' % (len(src), ok, same, old_ok, ' | '.join(bad)))
PY
)
	read -r total ok same old_ok bad <<< "$res"
	if [ "$n" -gt 0 ] && [ "$ok" = "$total" ]; then
		ok "$a: decode_stacktrace.sh decodes $ok/$total located frames ($same to the line the kernel printed; the pristine script decodes $old_ok)"
	else
		bad "$a: decode_stacktrace.sh decodes $ok/$total located frames: $bad"
	fi
	# ARM's CONFIG_BACKTRACE_VERBOSE form of the same frames nests the
	# location: "[<addr>] (callee) from [<addr>] (caller+off/size (path:line))".
	# It must decode to the same lines as the plain form.
	if grep -q ' from ' "$in"; then
		sed -E 's/^ *([^ ]+) from ([^ ]+) \(([^ ()]+)\)$/[<00000000>] (\1) from [<00000000>] (\2 (\3))/' \
			"$in" > "$RESULTS/on/decode-verbose-in.txt"
		CROSS_COMPILE=$CROSS_COMPILE "$SRC/scripts/decode_stacktrace.sh" "$vmlinux" "$SRC" \
			"$OBJ/variant-on" < "$RESULTS/on/decode-verbose-in.txt" > "$RESULTS/on/decode-verbose-out.txt" 2>/dev/null
		plain=$(grep -oE '\([^ ()]+:[0-9]+\)' "$RESULTS/on/decode-out.txt" | sort | md5sum)
		verbose=$(grep -oE '\([^ ()]+:[0-9]+\)' "$RESULTS/on/decode-verbose-out.txt" | sort | md5sum)
		nv=$(grep -cE '\([^ ()]+:[0-9]+\)' "$RESULTS/on/decode-verbose-out.txt")
		if [ "$nv" -gt 0 ] && [ "$plain" = "$verbose" ]; then
			ok "$a: the BACKTRACE_VERBOSE form decodes to the same $nv lines"
		else
			bad "$a: the BACKTRACE_VERBOSE form decodes $nv frames, not as the plain form"
			head -3 "$RESULTS/on/decode-verbose-out.txt"
		fi
	fi
done
finish decode
