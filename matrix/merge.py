#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Merge the results of a cell's configurations into the cell's result.

  merge.py --out RESULTS/ARCH/result.json [--seconds N] CONFIG_RESULT...

The last stage of a cell (matrix/run-arch.sh), and the only writer of the
cell's result.json: each configuration's checks under its name
("on: boot"), a configuration that stopped at a stage with the checks it
had, then the checks between configurations.  Each configuration is held
against its baseline (the facts BASELINE and BASELINE_CHECK) when both
were judged: kallsyms, /proc/kallsyms as each boot printed it (read from
the console its boot record names) lists the same (type, name) sequence
but for the series' own functions (matrix/data/kallsyms-extra.txt);
splats, the configuration printed no report that its baseline did not.
Exit status: 0 for a green cell.
"""
import argparse
import collections
import fnmatch
import os
import sys

import cell as cells
import records
from console import kallsyms_listing, read
from records import Check

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The series' own functions: the only lines that /proc/kallsyms may gain
# when CONFIG_KALLSYMS_LINE_LOCATIONS is turned on.
EXTRA = os.path.join(TOP, 'matrix', 'data', 'kallsyms-extra.txt')


class Between:
    """The checks between configurations, in order."""

    def __init__(self, arch):
        self.arch, self.checks = arch, []

    def check(self, name, ok, detail=''):
        self.checks.append(Check(name, bool(ok), detail))
        print('[%s] %s %s%s' % (self.arch, 'ok  ' if ok else 'FAIL', name,
                                ': ' + detail if detail else ''))
        return ok


def hold_splats(cell, b, v, figures):
    """A hardened boot may print no report that its baseline did not."""
    new = sorted(set(figures[v].get('splats', [])) - set(figures[b].get('splats', [])))
    cell.check('%s: no report beyond %s (KASAN, oops, lockdep, RCU, kmemleak)' % (v, b),
               not new, '%d reports, %d in the baseline%s' % (
                   len(set(figures[v].get('splats', []))),
                   len(set(figures[b].get('splats', []))),
                   '; new: ' + '; '.join(new[:4]) if new else ''))


def same_order(a, b):
    """Whether two listings (runs of symbols at one address, in order) order
    their symbols alike: one sequence of symbols fits both, that is no two
    symbols come in one order in @a and in the other in @b.  The order among
    symbols at one address is the link's tie-break, and whether two symbols
    share an address can change with the alignment of what comes before
    them.  Returns None, or the first symbols where no sequence fits both
    (the n-th "type name" of a listing is the n-th of the other)."""
    def ranks(runs):
        seen: collections.Counter = collections.Counter()
        rank = {}
        for k, run in enumerate(runs):
            for l in sorted(run):
                seen[l] += 1
                rank[(l, seen[l])] = k
        return rank
    ra, rb = ranks(a), ranks(b)
    if ra.keys() != rb.keys():
        return sorted('%s%s' % ('-' if s in ra else '+', s[0])
                      for s in ra.keys() ^ rb.keys())[:8]
    # sorted by @a's runs, then @b's: @b's must not go back
    order = sorted(ra, key=lambda s: (ra[s], rb[s]))
    for u, w in zip(order, order[1:]):
        if rb[u] > rb[w]:
            return ['%s before %s' % (u[0], w[0])]
    return None


def hold_kallsyms(cell, b, v, lists):
    """/proc/kallsyms lists the same (type, name) sequence in @b and @v
    but for the series' own functions (EXTRA), up to the order of symbols
    that share an address (same_order)."""
    off, on = lists.get(b) or [], lists.get(v) or []
    allowed = [l.strip() for l in open(EXTRA) if l.strip() and not l.startswith('#')]

    def name(l):
        return l.split()[1] if len(l.split()) > 1 else ''

    def ours(l):
        return any(fnmatch.fnmatchcase(name(l).split('.')[0], pat) for pat in allowed)

    def others(runs):
        return [r for r in ([l for l in run if not ours(l)] for run in runs) if r]

    def at_etext(runs, other):
        """The symbols of @runs just before _etext that @other lacks: the
        end of a text section (arm64's __hyp_text_end) that the other link
        put at _etext itself, where kallsyms no longer lists it."""
        names = {l for run in other for l in run}
        for k, run in enumerate(runs):
            if k and any(name(l) == '_etext' for l in run):
                return [l for l in runs[k - 1] if l not in names]
        return []
    edge = {b: at_etext(off, on), v: at_etext(on, off)}
    off = [r for r in ([l for l in run if l not in edge[b]] for run in off) if r]
    on = [r for r in ([l for l in run if l not in edge[v]] for run in on) if r]
    flat = {c: [l for run in runs for l in sorted(run)] for c, runs in ((b, off), (v, on))}
    extra = collections.Counter(l for l in flat[v] if ours(l))
    extra.subtract(collections.Counter(l for l in flat[b] if ours(l)))
    gained = sorted(l for l, n in extra.items() for _ in range(n))
    lost = sorted(l for l, n in extra.items() for _ in range(-n))
    bad = same_order(others(off), others(on))
    cell.check('/proc/kallsyms: %s and %s list the same (type, name) sequence' % (b, v),
               len(flat[b]) > 100 and bad is None,
               '%d lines %s, %d %s; the series\' own functions gained: %s, lost: %s%s%s' % (
                   len(flat[b]), b, len(flat[v]), v, ' '.join(gained) or 'none',
                   ' '.join(lost) or 'none',
                   ''.join('; at _etext in %s only, not listed: %s' % (c, ' '.join(edge[c]))
                           for c in (b, v) if edge[c]),
                   '; NOT THE SAME from: ' + ', '.join(bad) if bad else ''))


def listing(result_path):
    """/proc/kallsyms as the boot beside @result_path printed it, or None."""
    try:
        boot = records.read(records.Boot, os.path.join(os.path.dirname(result_path),
                                                       'boot.json'))
        return kallsyms_listing(read(boot.console))
    except (OSError, records.RecordError):
        return None


def merge(out, paths, seconds):
    parts = [(r.config, r, p) for p in paths for r in [records.read_result(p)]]
    arch = parts[0][1].arch
    between = Between(arch)
    checks, figures = [], {}
    for v, r, _ in parts:
        checks += [Check('%s: %s' % (v, c.name), c.ok, c.detail) for c in r.checks]
        figures[v] = r.figures
    judged = {v for v, r, _ in parts if r.build == 'ok' and r.boot == 'ok'}
    for v, _, _ in parts:
        facts = cells.load_arch(arch, v)
        b, how = facts.get('BASELINE'), facts.get('BASELINE_CHECK')
        if not b or not {b, v} <= judged:
            continue
        if how == 'splats':
            hold_splats(between, b, v, figures)
        elif how == 'kallsyms':
            lists = {c: listing(p) for c, _, p in parts if c in (b, v)}
            hold_kallsyms(between, b, v, lists)
    checks += between.checks
    boot = next((r.boot for _, r, _ in parts if r.boot != 'ok'), 'ok')
    build = next((r.build for _, r, _ in parts if r.build != 'ok'), 'ok')
    reason = next((r.reason for _, r, _ in parts if r.reason), '')
    res = records.result(arch, '+'.join(v for v, _, _ in parts), checks, figures,
                         build=build, boot=boot, reason=reason, seconds=seconds)
    records.write(out, res)
    return 0 if res.green else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('results', nargs='+', metavar='CONFIG_RESULT')
    ap.add_argument('--out', required=True)
    ap.add_argument('--seconds', type=int, default=0, help='the cell\'s time')
    a = ap.parse_args()
    return merge(a.out, a.results, a.seconds)


if __name__ == '__main__':
    sys.exit(main())
