#!/bin/bash
# scripts/decode_stacktrace.sh still decodes a backtrace whose frames carry
# locations, and decodes each frame to the line an oracle gives: for each
# arch's "on" boot, feed the located frames of the console log to the
# series' decode_stacktrace.sh with that boot's vmlinux, and compare each
# decoded frame with llvm-symbolizer on that vmlinux (module frames,
# "[lltest]": on the module the script finds under the module path, the
# first lltest.ko* with a .debug_line, llvm-symbolizer for .text and the
# cross addr2line -j SECTION elsewhere).  tests/decode/oracle.py does it.
#
# The rule: the script's, not the kernel's.  The series' script (patch 13
# only drops the printed location) looks every frame up at the address it
# names, sym+off, as is, return addresses included: it does not look up
# the call at address - 1 as the kernel does (README, "A frame prints as
# ...").  So every decoded frame must equal the oracle at sym+off as is.
# Per frame kind (matrix/console.py trace_frames): a faulting or
# interrupted pc (and lltest's %pSl "loc" line), which the kernel looks up
# as is too, must decode to the very line the kernel printed (with
# CONFIG_KALLSYMS_LINE_INLINES, a vmlinux frame's line is the outermost
# inlined call's: the last of the levels the script prints); how many
# return addresses decode to the kernel's line (looked up at the call) is
# reported, not required.  The pristine script is run on the same input
# for comparison.  Run after the matrix.
set -uo pipefail
# shellcheck source=matrix/lib.sh
. "$(dirname "$0")/../../matrix/lib.sh"
# shellcheck source=tests/result.sh
. "$top/tests/result.sh"
for a in ${ARCHES:-$ALL_ARCHES}; do
	load_arch "$a"
	log=$RESULTS/on/console.log
	# what the 'on' boot booted (its build record)
	field() { python3 "$top/matrix/cell.py" field "$RESULTS/on/build.json" "$1" 2>/dev/null; }
	vmlinux=$(field vmlinux)
	mods=$(dirname "$(field module)")
	if [ ! -f "$log" ] || [ ! -f "$vmlinux" ]; then
		bad "$a: no 'on' console log or vmlinux: run the matrix first"
		continue
	fi
	in=$RESULTS/on/decode-in.txt
	# all the frames, and the first 100 of textlocs' 1,000 "at" lines (each
	# costs the script an nm and an addr2line run: all of them took minutes;
	# tests/decode/oracle.py applies the same cut)
	python3 "$top/matrix/console.py" located "$log" |
		awk '/lltest: at [0-9a-f]+ /{ if (++n > 100) next } { print }' > "$in"
	n=$(wc -l < "$in")
	# the series' script and the pristine one side by side: each runs an
	# nm and an addr2line a frame, one CPU each
	git -C "$SRC" show pristine:scripts/decode_stacktrace.sh > "$RESULTS/on/decode-pristine.sh"
	CROSS_COMPILE=$CROSS_COMPILE "$SRC/scripts/decode_stacktrace.sh" "$vmlinux" "$SRC" \
		"$mods" < "$in" > "$RESULTS/on/decode-out.txt" 2> "$RESULTS/on/decode-err.txt" &
	CROSS_COMPILE=$CROSS_COMPILE bash "$RESULTS/on/decode-pristine.sh" "$vmlinux" "$SRC" \
		"$mods" < "$in" > "$RESULTS/on/decode-pristine-out.txt" 2>/dev/null &
	wait
	# the module the script decodes "[lltest]" frames through (its find_module)
	ko=
	while read -r f; do
		# grep reads all (no -q): under pipefail, readelf killed by
		# SIGPIPE would fail the test
		if "${CROSS_COMPILE}readelf" -WS "$f" | grep -wF .debug_line >/dev/null; then
			ko=$f
			break
		fi
	done < <(find "$mods" -name 'lltest.ko*')
	old_ok=$(grep -cE ' \([^ ()]+:[0-9]+[ )]' "$RESULTS/on/decode-pristine-out.txt")
	res=$(python3 "$top/tests/decode/oracle.py" "$a" "$log" "$in" "$RESULTS/on/decode-out.txt" \
		"$vmlinux" "$SRC" "$ko")
	read -r total decoded agree pcs pcs_same rets rets_same other dups nosym a2l _ detail <<< "$res"
	: "${total:=0}" "${decoded:=0}" "${agree:=0}" "${pcs:=0}" "${pcs_same:=0}" "${rets:=0}" \
		"${rets_same:=0}" "${other:=0}" "${dups:=0}" "${nosym:=0}" "${a2l:=0}"
	if [ "$n" -gt 0 ] && [ "$total" = "$n" ] && [ $((decoded + nosym)) = "$total" ]; then
		ok "$a: decode_stacktrace.sh decodes $decoded/$total located frames, $nosym named by no t/T symbol (the pristine script $old_ok)"
	else
		bad "$a: decode_stacktrace.sh decodes $decoded/$n located frames, $nosym named by no t/T symbol: $detail"
	fi
	if [ "$n" -gt 0 ] && [ $((agree + nosym + a2l)) = "$total" ] && [ "$other" = 0 ]; then
		ok "$a: every decoded frame is llvm-symbolizer's line at sym+off as is: $agree/$total, $a2l where the script's addr2line names another file for the row"
	else
		bad "$a: decoded frames equal to the oracle at sym+off: $agree/$n ($a2l addr2line's file, $nosym no symbol), $other of no frame kind: $detail"
	fi
	if [ "$pcs" -gt 0 ] && [ "$pcs_same" = "$pcs" ]; then
		ok "$a: every pc frame decodes to the line the kernel printed ($pcs_same/$pcs; $dups frames of a name the script resolves to another symbol left out)"
	else
		bad "$a: pc frames decoded to the kernel's line: $pcs_same/$pcs: $detail"
	fi
	echo "     $a: return addresses decoded to the kernel's line (its lookup at the call): $rets_same/$rets (not required: the script looks up sym+off as is)"
	# The "[inline]" lines of CONFIG_KALLSYMS_LINE_INLINES have no
	# +off/size: the script must pass them through unchanged (but for
	# the leading blanks its read drops from every line, as in stock).
	inl=$RESULTS/on/decode-inline-in.txt
	python3 "$top/matrix/console.py" inline-lines "$log" > "$inl"
	if [ -s "$inl" ]; then
		CROSS_COMPILE=$CROSS_COMPILE "$SRC/scripts/decode_stacktrace.sh" "$vmlinux" "$SRC" \
			"$mods" < "$inl" > "$RESULTS/on/decode-inline-out.txt" 2>/dev/null
		if cmp -s <(sed 's/^ *//' "$inl") "$RESULTS/on/decode-inline-out.txt"; then
			ok "$a: decode_stacktrace.sh passes the $(wc -l < "$inl") \"[inline]\" lines through unchanged"
		else
			bad "$a: decode_stacktrace.sh changed \"[inline]\" lines: $(diff "$inl" "$RESULTS/on/decode-inline-out.txt" | head -3 | tr '\n' ' ')"
		fi
	else
		echo "     $a: no \"[inline]\" lines in the log (the chains of inlined calls are off)"
	fi
	# ARM's CONFIG_BACKTRACE_VERBOSE form of the same frames nests the
	# location: "[<addr>] (callee) from [<addr>] (caller+off/size (path:line))".
	# It must decode to the same lines as the plain form.
	if grep -q ' from ' "$in"; then
		sed -E 's/^ *([^ ]+) from ([^ ]+) \(([^ ()]+)\)$/[<00000000>] (\1) from [<00000000>] (\2 (\3))/' \
			"$in" > "$RESULTS/on/decode-verbose-in.txt"
		CROSS_COMPILE=$CROSS_COMPILE "$SRC/scripts/decode_stacktrace.sh" "$vmlinux" "$SRC" \
			"$mods" < "$RESULTS/on/decode-verbose-in.txt" > "$RESULTS/on/decode-verbose-out.txt" 2>/dev/null
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
