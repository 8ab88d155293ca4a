# SPDX-License-Identifier: GPL-2.0
"""The host-tool suite's parts, one module each (hostsuite.py runs them),
and common.py, what more than one part uses."""
