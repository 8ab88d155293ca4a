#!/bin/bash
# matrix.sh ARCH...: run every cell (build, boot, judge), one after the other
# (two kernel builds at once are slower on two cores), never stopping at a
# red one; then print the table and write summary.json and junit.xml.
# MATRIX_REUSE=1 keeps a green cell whose inputs did not change.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

arches=${*:-$ALL_ARCHES}
mkdir -p "$RESULTS_ROOT"
t0=$(date +%s)
if command -v ccache >/dev/null; then
	ccache -z >/dev/null 2>&1 || true
fi
for a in $arches; do
	# MATRIX_REUSE=1 (make test): a cell whose last run was green on the
	# same inputs (lib.sh: inputs_key) is not run again; make matrix runs
	# every cell
	if [ "${MATRIX_REUSE:-0}" = 1 ] && key=$(inputs_key "$a") && [ -n "$key" ] &&
		python3 "$top/matrix/cell.py" reusable "$RESULTS_ROOT/$a" "$key"; then
		ARCH_NAME=$a log "cell green, reused: the inputs of its last green run ($key)"
		continue
	fi
	ARCH_NAME=$a log "cell start"
	"$top/matrix/run-arch.sh" "$a" && r=green || r=red
	ARCH_NAME=$a log "cell $r"
done
if command -v ccache >/dev/null; then
	ccache --print-stats 2>/dev/null | awk '
		$1 ~ /^(direct|preprocessed)_cache_hit$/ { hit += $2 }
		$1 == "cache_miss" { miss = $2 }
		END { n = hit + miss; printf "ccache: %d hits, %d misses, hit rate %.1f %%\n", hit, miss, n ? 100 * hit / n : 0 }'
fi
echo "matrix: $(( $(date +%s) - t0 )) s for: $arches"
# shellcheck disable=SC2086
python3 "$top/matrix/report.py" "$RESULTS_ROOT" $arches
