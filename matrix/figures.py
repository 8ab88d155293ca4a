#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The cost of line locations, measured side by side in one matrix run.

usage: figures.py RESULTS_DIR ARCH...

For each arch, from the figures the judge recorded for the configuration with
CONFIG_KALLSYMS_LINE_LOCATIONS off ("stock") and on (the series' compact
tables): vmlinux sections (size), the image, the boot's "Memory:" line,
what kallsyms lookups cost (the KUnit suite's kallsyms_test_costs: the
line lookup beside kallsyms_lookup() on the same addresses, and their
ratio), the time to read /proc/kallsyms, the stack of the line lookup
(matrix/stack_usage.py, with the option on), and the frames checked.  Prints
a table and writes RESULTS_DIR/figures.md and figures.json.
"""
import json
import os
import sys

import records

ROWS = [
    ('vmlinux text+data (size)', lambda f: f.get('text', 0) + f.get('data', 0), 'bytes'),
    ('kernel image file', lambda f: f.get('image'), 'bytes'),
    ('boot Memory: rodata', lambda f: f.get('rodata_k'), 'KiB'),
    ('boot Memory: available', lambda f: f.get('memory_available_k'), 'KiB'),
    ('kallsyms_lookup_name()', lambda f: f.get('lookup_name_ns'), 'ns'),
    ('kallsyms_on_each_symbol() walk', lambda f: f.get('on_each_symbol_us'), 'us'),
    ('sprint_backtrace()', lambda f: f.get('sprint_backtrace_ns'), 'ns'),
    ('kallsyms_line_loc_lookup()', lambda f: f.get('line_lookup_ns'), 'ns'),
    ('kallsyms_lookup(), same addresses', lambda f: f.get('kallsyms_lookup_ns'), 'ns'),
    ('line lookup / kallsyms_lookup()', lambda f: f.get('line_lookup_ratio'), 'ratio'),
    ('read /proc/kallsyms', lambda f: f.get('proc_kallsyms_read_us'), 'us'),
    ('line tables (lineloc --table-size)', lambda f: f.get('table_bytes'), 'bytes'),
    ('line lookup stack', lambda f: f.get('lookup_stack_bytes'), 'bytes'),
]


def fmt(v):
    if v is None:
        return '-'
    return '{:,.2f}'.format(v) if isinstance(v, float) else '{:,}'.format(v)


def hardened_row(arch, figs):
    """make matrix-hardened's figures of one arch, a table row."""
    h = figs.get('hardened') or figs['hardened-short']
    base = figs.get('hardened-base', {})
    v, r = h.get('module_variants', {}), h.get('races', {})
    return '| %s | %s / %s / %s | %s | %s | %s | %s | %s | %s / %s | %s |' % (
        arch, v.get('lines', '-'), v.get('warned', '-'), v.get('total', '-'),
        r.get('cycles', '-'), r.get('cycle_ms', '-'), r.get('lookups', '-'),
        r.get('located', '-'), r.get('kallsyms_reads', '-'),
        len(set(base.get('splats', []))), len(set(h.get('splats', []))),
        h.get('rcu_stalls', 0) + base.get('rcu_stalls', 0))


def main():
    results, arches = sys.argv[1], sys.argv[2:]
    out = ['| arch | figure | off | on | on - off | on / off |', '|---|---|---|---|---|---|']
    data = {}
    hard = []
    for arch in arches:
        figs = records.cell_result(results, arch).figures
        if 'hardened' in figs or 'hardened-short' in figs:
            hard.append(hardened_row(arch, figs))
        if 'off' not in figs and 'on' not in figs:
            continue
        off, on = figs.get('off', {}), figs.get('on', {})
        data[arch] = figs
        for name, get, unit in ROWS:
            a, b = get(off), get(on)
            delta = ratio = '-'
            if a is not None and b is not None:
                delta = fmt(b - a)
                ratio = '%.2f' % (b / a) if a else '-'
            out.append('| %s | %s (%s) | %s | %s | %s | %s |' % (
                arch, name, unit, fmt(a), fmt(b), delta, ratio))
        fr = on.get('frames')
        if fr:
            out.append('| %s | frames seen / located / agreeing | | %d / %d / %d | | |' % (
                arch, fr['seen'], fr['located'], fr['agreeing']))
    if len(out) == 2:
        out = []
    if hard:
        out += ['' if out else None, '| arch | variants: with table / one warning / all | '
                'loads and unloads | ms | lookups | located | /proc/kallsyms reads | '
                'reports: baseline / hardened | RCU stalls |', '|---' * 9 + '|'] + hard
    text = '\n'.join(x for x in out if x is not None) + '\n'
    print(text)
    with open(os.path.join(results, 'figures.md'), 'w') as f:
        f.write(text)
    with open(os.path.join(results, 'figures.json'), 'w') as f:
        json.dump(data, f, indent=1)


if __name__ == '__main__':
    main()
