#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise matrix cells: a one-screen table, summary.json and junit.xml.

usage: report.py RESULTS_DIR ARCH...

Reads RESULTS_DIR/ARCH/result.json (matrix/records.py's schema); an arch
without one is reported red, as not run.  Exit status 0 only if every cell
is green.
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import records


def junit(cells):
    root = ET.Element('testsuites', name='matrix')
    for r in cells:
        fails = sum(1 for c in r.checks if not c.ok)
        suite = ET.SubElement(root, 'testsuite', name=r.arch, tests=str(len(r.checks)),
                              failures=str(fails), time=str(r.seconds))
        for c in r.checks:
            tc = ET.SubElement(suite, 'testcase', classname=r.arch, name=c.name)
            if not c.ok:
                ET.SubElement(tc, 'failure', message=c.detail).text = c.detail
    ET.indent(root)
    return ET.tostring(root, encoding='unicode', xml_declaration=True) + '\n'


def per_config(r):
    """A red cell's configurations, each with its count or the stage that
    stopped it: "off 70/70, on: module variants failed (see ...)"."""
    out = []
    for v in r.config.split('+'):
        mine = [c for c in r.checks if c.name.startswith(v + ': ')]
        stopped = [c for c in mine if c.name in (v + ': build', v + ': boot', v + ': run')]
        if stopped:
            out.append('%s: %s' % (v, stopped[0].detail))
        elif mine:
            out.append('%s %d/%d' % (v, sum(c.ok for c in mine), len(mine)))
    between = [c for c in r.checks if not any(c.name.startswith(v + ': ')
                                                 for v in r.config.split('+'))]
    if between and not all(c.ok for c in between):
        out.append('between: %d/%d' % (sum(c.ok for c in between), len(between)))
    return ', '.join(out) or r.reason[:60]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    results, arches = sys.argv[1], sys.argv[2:]
    cells = [records.cell_result(results, a) for a in arches]
    print()
    print('%-7s | %-5s | %-7s | %-9s | %7s | %s' % ('arch', 'build', 'boot', 'tests',
                                                    'seconds', 'configurations'))
    print('-' * 78)
    for r in cells:
        print('%-7s | %-5s | %-7s | %-9s | %7d | %s' % (
            r.arch, r.build, r.boot,
            '%d/%d' % (r.tests_passed, r.tests_total), r.seconds,
            'green' if r.green else per_config(r)))
    green = sum(r.green for r in cells)
    print('%d of %d cells green' % (green, len(cells)))
    with open(os.path.join(results, 'summary.json'), 'w') as f:
        json.dump({'green': green, 'cells': [records.to_dict(r) for r in cells]}, f, indent=1)
    with open(os.path.join(results, 'junit.xml'), 'w') as f:
        f.write(junit(cells))
    print()
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 'figures.py'), results] + arches)
    return 0 if green == len(cells) else 1


if __name__ == '__main__':
    sys.exit(main())
