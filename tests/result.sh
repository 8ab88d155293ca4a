# shellcheck shell=bash
# The shell suites' results: one "ok   WHAT" or "FAIL WHAT" line per check,
# and a closing "<suite>: N passed, M failed, K skipped" that tests/run.sh counts.
#   ok WHAT / bad WHAT      record a check that passed / failed
#   skip WHAT WHY           a check that cannot run here, and why (counted
#                           apart; under CI, tests/run.sh fails a skip that
#                           tests/skips.allow does not name)
#   check WHAT CMD [ARG...] run CMD: its exit status decides
#   finish SUITE            print the closing line; exit 0 only if none failed
# tests/result.py is the same for the Python suites.
pass=0 fail=0 skipped=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP $1 -- $2"; }
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}
finish() {
	echo "$1: $pass passed, $fail failed, $skipped skipped"
	[ "$fail" -eq 0 ]
	exit
}
