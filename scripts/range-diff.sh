#!/bin/bash
# range-diff.sh: git range-diff between the default base's series and
# BASE's (make BASE=6.12 range-diff), each as its prepared tree holds it:
# the default base's pristine tag and branch are fetched into BASE's tree
# as refs/lineloc-base/DEFAULT/{pristine,lineloc}, commit notes included
# (the checkpatch explanations), then compared patch by patch.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/base.sh
. "$top/scripts/base.sh"
[ "$BASE" != "$DEFAULT_BASE" ] || {
	echo "range-diff: BASE=$BASE is the default base; give another (BASE=6.12)" >&2
	exit 2
}
tree=${BUILD:-$BASE_BUILD}/src/linux
ref_tree=$top/build/src/linux
for t in "$tree" "$ref_tree"; do
	[ -d "$t/.git" ] || {
		echo "range-diff: no prepared tree $t (make BASE=... prepare)" >&2
		exit 1
	}
done
r=refs/lineloc-base/$DEFAULT_BASE
git -C "$tree" fetch -q --no-tags "$ref_tree" "+refs/tags/pristine:$r/pristine" \
	"+refs/heads/lineloc:$r/lineloc" "+refs/notes/commits:$r/notes"
GIT_NOTES_DISPLAY_REF="$r/notes:refs/notes/commits" \
	git -C "$tree" range-diff --creation-factor=95 "$r/pristine..$r/lineloc" pristine..lineloc
