#!/bin/sh
# The judge's self-test on recorded console logs (see test_judge.py).
exec python3 "$(dirname "$0")/test_judge.py" "$@"
