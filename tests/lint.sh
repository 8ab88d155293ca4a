#!/bin/bash
# Lint what the repo holds: shell scripts (shellcheck), every Python file
# (pyflakes; mypy on the matrix's), the workflows (yamllint, and shellcheck on every run:
# step), and the series bookkeeping (each series/BASE/series lists exactly
# the patches present; each patch is signed off and checkpatch --strict clean).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
# shellcheck source=tests/result.sh
. tests/result.sh

mapfile -t shells < <(git ls-files '*.sh' .ci/run; ls .ci/run 2>/dev/null)
mapfile -t shells < <(printf '%s\n' "${shells[@]}" | sort -u)
for f in "${shells[@]}"; do
	[ -f "$f" ] || continue
	if out=$(shellcheck -x -P SCRIPTDIR "$f" 2>&1); then ok "shellcheck $f"; else bad "shellcheck $f"; echo "$out" | head -20; fi
done
# every tracked Python file: pyflakes (Debian's, with Debian's python)
# finds what py_compile does not: undefined and unused names
mapfile -t pys < <(git ls-files '*.py')
for f in "${pys[@]}"; do
	[ -f "$f" ] || continue
	if out=$(/usr/bin/python3 -m pyflakes "$f" 2>&1); then ok "pyflakes $f"; else bad "pyflakes $f"; echo "$out" | head -10; fi
done
# mypy (Debian's) where types carry the design: the matrix's records and
# the stages that read and write them
typed=(matrix/*.py matrix/judges/*.py qemu/boot.py)
if out=$(/usr/bin/python3 -m mypy --ignore-missing-imports --follow-imports=silent \
	--no-error-summary "${typed[@]}" 2>&1); then
	ok "mypy: ${#typed[@]} files of matrix/ and qemu/"
else
	bad "mypy: ${#typed[@]} files of matrix/ and qemu/"
	echo "$out" | head -20
fi

for f in .github/workflows/*.yml; do
	[ -f "$f" ] || continue
	if out=$(yamllint -d '{extends: default, rules: {line-length: {max: 110}, truthy: disable, document-start: disable}}' "$f" 2>&1); then
		ok "yamllint $f"
	else
		bad "yamllint $f"; echo "$out" | head -20
	fi
	tmp=$(mktemp -d)
	# Debian's python3-yaml lives with Debian's python
	if /usr/bin/python3 tests/workflow-steps.py "$f" "$tmp"; then
		for s in "$tmp"/*.sh; do
			[ -f "$s" ] || continue
			if out=$(shellcheck -s bash "$s" 2>&1); then ok "shellcheck $f: $(head -1 "$s" | cut -c3-)"; else bad "shellcheck $f: $(head -1 "$s" | cut -c3-)"; echo "$out" | head -20; fi
		done
	else
		bad "cannot read the run: steps of $f"
	fi
	rm -rf "$tmp"
done

# The arch lists live in arch-configs/common.facts; the workflow's job
# matrices cannot read them, so they must say the same: job "matrix" the
# default base's arches (ARCHES, then ONDEMAND_ARCHES: the workflow's
# runners have the time), job "matrix-BASE" (dots as dashes) the
# TEST_ARCHES of each of TEST_BASES.
job_arches() {
	/usr/bin/python3 -c 'import sys, yaml
jobs = yaml.safe_load(open(sys.argv[1]))["jobs"]
print(" ".join(jobs[sys.argv[2]]["strategy"]["matrix"]["arch"]) if sys.argv[2] in jobs else "no job " + sys.argv[2])' \
		.github/workflows/ci.yml "$1" 2>&1
}
want=$(python3 matrix/cell.py all-arches)
got=$(job_arches matrix)
if [ "$want" = "$got" ]; then
	ok "the workflow's matrix lists the arches of arch-configs/common.facts, on demand ones too ($want)"
else
	bad "the workflow's matrix lists '$got', arch-configs/common.facts '$want'"
fi
for b in $(python3 matrix/cell.py common TEST_BASES); do
	want=$(BASE=$b python3 matrix/cell.py common TEST_ARCHES)
	got=$(job_arches "matrix-${b//./-}")
	if [ "$want" = "$got" ]; then
		ok "the workflow's matrix-${b//./-} lists TEST_ARCHES of base $b ($want)"
	else
		bad "the workflow's matrix-${b//./-} lists '$got', TEST_ARCHES of base $b '$want'"
	fi
done

# Every base's series (series/BASE/): its list names exactly its patches,
# each signed off.
for list in series/*/series; do
	d=${list%/series}
	listed=$(grep -vE '^[[:space:]]*(#|$)' "$list" | awk '{print $1}' | sort)
	present=$(for p in "$d"/*.patch; do
		[ -f "$p" ] && [ "${p##*/}" != 0000-cover-letter.patch ] && echo "${p##*/}"
	done | sort)
	if [ "$listed" = "$present" ]; then ok "$list lists exactly the patches present"; else bad "$list and $d/*.patch differ"; fi
	for p in $listed; do
		if grep -q '^Signed-off-by:' "$d/$p"; then ok "$d/$p signed off"; else bad "$d/$p has no Signed-off-by"; fi
	done
done
# The files the series adds are one source across the bases: the same
# bytes on every base but where series/BASE/rewrites says how and why.
if out=$(python3 tests/series-bases.py 2>&1); then rc=0; else rc=$?; fi
while IFS= read -r l; do
	case $l in
	'ok   '*) ok "${l#ok   }" ;;
	'FAIL '*) bad "${l#FAIL }" ;;
	esac
done <<< "$out"
grep -qE '^(ok  |FAIL) ' <<< "$out" || bad "tests/series-bases.py exited $rc: $out"
# The series of this run's base (BASE=, default 6.1) against its tree.
series=series/${BASE:-6.1}
listed=$(grep -vE '^[[:space:]]*(#|$)' "$series/series" | awk '{print $1}')
# shellcheck source=scripts/base.sh
. scripts/base.sh
tree=${BUILD:-$BASE_BUILD}/src/linux
cp=$tree/scripts/checkpatch.pl
# The series applies with git am to the pristine tree, and gives the tree.
if [ -d "$tree/.git" ]; then
	wt=$(mktemp -d)
	git -C "$tree" worktree add -q --detach "$wt" pristine 2>/dev/null
	mapfile -t pp < <(for p in $listed; do echo "$PWD/$series/$p"; done)
	if git -C "$wt" -c user.name=lint -c user.email=lint@invalid am -q "${pp[@]}" 2>/dev/null; then
		ok "git am applies the ${#pp[@]} patches of $series to the pristine tree"
		if [ "$(git -C "$wt" rev-parse 'HEAD^{tree}')" = "$(git -C "$tree" rev-parse 'HEAD^{tree}')" ]; then
			ok "the result is the prepared tree's HEAD, tree for tree"
		else
			bad "$series applied differs from $tree's HEAD (unexported work? make series-export)"
		fi
	else
		bad "git am does not apply $series to the pristine tree"
	fi
	git -C "$tree" worktree remove --force "$wt"
	rm -rf "$wt"
fi
# checkpatch needs the tree (make prepare); series-check.py judges its
# findings.  checkpatch exits 1 on findings; any other status, or anything
# on its standard error, means it did not run through (a missing perl
# module, a patch it could not read), which is a failure, not a clean patch.
if [ -f "$cp" ]; then
	findings=$(mktemp)
	for p in $listed; do
		err=$(perl "$cp" --no-tree --strict --terse --show-types "$PWD/$series/$p" 2>&1 >>"$findings")
		rc=$?
		if [ "$rc" -gt 1 ] || [ -n "$err" ]; then
			bad "checkpatch did not run through on $p (exit $rc): $(head -c 300 <<< "$err")"
		fi
	done
	out=$(python3 tests/series-check.py < "$findings")
	rc=$?
	rm -f "$findings"
	nfail=0
	while IFS= read -r l; do
		case $l in
		"ok   "*) ok "${l#ok   }" ;;
		"FAIL "*) bad "${l#FAIL }"; nfail=$((nfail + 1)) ;;
		esac
	done <<< "$out"
	# its exit status counts too: a crash prints no FAIL line
	if [ "$rc" -ne 0 ] && [ "$nfail" -eq 0 ]; then
		bad "tests/series-check.py exited $rc without a FAIL line"
	fi
else
	bad "no kernel tree for checkpatch: run make prepare"
fi
# kernel-doc: every comment the series' shared code opens with /** is a
# complete kernel-doc comment (its parameters and members described):
# hosttool's lib/ and include/ (the tree's lib/lineloc/ and
# include/linux/lineloc/), with the tree's scripts/kernel-doc.
kd=${cp%/checkpatch.pl}/kernel-doc
if [ -f "$kd" ]; then
	out=$(perl "$kd" -none hosttool/lib/*.c hosttool/lib/*.h hosttool/include/linux/lineloc/*.h 2>&1)
	if [ -z "$out" ]; then
		ok "kernel-doc -none: lib/lineloc/ and include/linux/lineloc/ clean"
	else
		bad "kernel-doc -none: $(wc -l <<< "$out") warnings, the first: $(head -3 <<< "$out")"
	fi
else
	bad "no kernel tree for kernel-doc: run make prepare"
fi

# CI runs README's two commands as README prints them (.ci/run may set
# variables around them): the set-up line and the test line, in order.
# shellcheck disable=SC2016 # the fences are literal backquotes
readme_cmds=$(sed -n '/^## On a fresh Debian 12 machine/,/^## /p' README.md |
	sed -n '/^```sh$/,/^```$/p' | grep -v '^```' | sed -E 's/[[:space:]]+#.*$//')
ci_cmds=$(grep -vE '^[[:space:]]*(#|$)' .ci/run | grep -Fx -f <(printf '%s\n' "$readme_cmds"))
if [ -n "$readme_cmds" ] && [ "$(wc -l <<< "$readme_cmds")" -eq 2 ] && [ "$readme_cmds" = "$ci_cmds" ]; then
	ok ".ci/run runs README's two commands, in order: $(tr '\n' ';' <<< "$readme_cmds")"
else
	bad ".ci/run does not run README's two commands as README prints them (README: '$readme_cmds'; .ci/run: '$ci_cmds')"
fi
# hosttool's layers: lib/ and include/ (the kernel's lib/lineloc/ and
# include/linux/lineloc/) are kernel C: quoted includes only of lib/'s own
# headers, angle includes only of <linux/...> and <asm/...> headers that
# kbuild/include/ gives host builds (or <linux/lineloc/...>); kbuild/ (what
# the kernel build runs) quotes only lib/'s headers and its own; the user
# tool, on top, anything.
layer_bad=
for f in hosttool/lib/*.[ch] hosttool/include/linux/lineloc/*.h hosttool/kbuild/*.[ch]; do
	dir=${f%/*}
	while read -r inc; do
		if [ -e "$dir/$inc" ] && [ "$dir" != hosttool/include/linux/lineloc ]; then continue; fi
		if [ "$dir" = hosttool/kbuild ] && [ -e "hosttool/lib/$inc" ]; then continue; fi
		layer_bad="$layer_bad $f:\"$inc\""
	done < <(sed -nE 's/^#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/p' "$f")
	case $dir in hosttool/kbuild) continue ;; esac
	while read -r inc; do
		if [ -e "hosttool/kbuild/include/$inc" ] || [ -e "hosttool/include/$inc" ]; then continue; fi
		layer_bad="$layer_bad $f:<$inc>"
	done < <(sed -nE 's/^#[[:space:]]*include[[:space:]]+<([^>]+)>.*/\1/p' "$f")
done
if [ -z "$layer_bad" ]; then
	ok "hosttool's layers: lib/ and include/ are kernel C on kernel headers, kbuild/ quotes only lib/ and kbuild/"
else
	bad "hosttool's layers: an include against the direction:$layer_bad"
fi
# The planted faults of make mutation-check: each one's old text is in its
# file exactly once (lineloc's in this repository, the kernel's in the
# tree), or the on-demand check would stop on a stale list.
stale=$(python3 - "$tree" <<'PY'
import os
import sys
sys.path.insert(0, 'tests/mutation')
import faults
for f in faults.FAULTS:
    p = os.path.join(sys.argv[1] if f.get('tree') == 'kernel' else '.', f['file'])
    n = open(p).read().count(f['old']) if os.path.exists(p) else 0
    if n != 1:
        print('%s (%s: %d)' % (f['name'], f['file'], n))
PY
)
if [ -z "$stale" ]; then
	ok "tests/mutation/faults.py: every fault's old text once in its file"
else
	bad "tests/mutation/faults.py is stale: $(tr '\n' ' ' <<< "$stale")"
fi
finish lint
