#!/bin/bash
# series-export.sh TREE: write TREE's commits since the pristine tag into
# series/BASE/ (BASE=, scripts/base.sh; git format-patch, cover letter
# included) and rewrite its list, series/BASE/series, so that kernel work
# is done in a real git tree and lands as patches.  The cover letter takes
# its subject and text from series/BASE/cover-letter.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/base.sh
. "$top/scripts/base.sh"
tree=$1
git -C "$tree" rev-parse -q --verify pristine >/dev/null ||
	{ echo "series-export: $tree has no 'pristine' tag (make prepare)" >&2; exit 1; }
n=$(git -C "$tree" rev-list --count pristine..HEAD)
rm -f "$SERIES"/*.patch
if [ "$n" -gt 0 ]; then
	git -C "$tree" format-patch -q --no-signature --notes --cover-letter \
		-o "$SERIES" pristine..HEAD
	# The cover letter's subject and text live in cover-letter.txt (first
	# line the subject), so that an export keeps them.
	cover=$SERIES/0000-cover-letter.patch
	if [ -f "$SERIES/cover-letter.txt" ]; then
		python3 - "$cover" "$SERIES/cover-letter.txt" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read().rstrip('\n').split('\n', 1)
s = open(cover).read()
s = s.replace('*** SUBJECT HERE ***', text[0]).replace('*** BLURB HERE ***', text[1].strip('\n'))
open(cover, 'w').write(s)
PY
	fi
fi
{
	printf '# Patches applied in order to the pristine linux-source tree (git am).\n'
	printf '# Regenerate with: make series-export\n'
	for p in "$SERIES"/*.patch; do
		case $p in */0000-cover-letter.patch|*'/*.patch') ;; *) basename "$p" ;; esac
	done
} > "$SERIES/series"
dpkg-query -W -f='${Version}\n' "$SOURCE_PKG" > "$SERIES/BASE-VERSION"
echo "series-export: $n patches written to series/$BASE"
