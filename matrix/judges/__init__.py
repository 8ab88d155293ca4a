# SPDX-License-Identifier: GPL-2.0
"""The judge's subjects (matrix/judge.py dispatches to them): boot, traces,
modules, kunit, hardened.  Each function takes the checks collector, the
console lines and the Run (matrix/judge.py), and adds its checks and
figures."""
