#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Summarise matrix cells: a one-screen table, summary.json and junit.xml.

usage: report.py RESULTS_DIR ARCH...

Reads RESULTS_DIR/ARCH/result.json (written by matrix/judge.py); an arch
without one is reported as not run.  Exit status 0 only if every cell is
green.
"""
import json
import os
import subprocess
import sys
from xml.sax.saxutils import escape, quoteattr


def load(results, arch):
    try:
        with open(os.path.join(results, arch, 'result.json')) as f:
            r = json.load(f)
    except (OSError, ValueError) as e:
        r = {'arch': arch, 'build': '?', 'boot': '?', 'tests_passed': 0,
             'tests_total': 0, 'seconds': 0, 'checks': [],
             'reason': 'no result (%s)' % e.__class__.__name__}
    r['green'] = bool(r['checks']) and all(c['ok'] for c in r['checks'])
    return r


def junit(cells):
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites name="matrix">']
    for r in cells:
        fails = sum(1 for c in r['checks'] if not c['ok'])
        out.append('  <testsuite name=%s tests="%d" failures="%d" time="%d">' % (
            quoteattr(r['arch']), max(len(r['checks']), 1),
            fails if r['checks'] else 1, r['seconds']))
        if not r['checks']:
            out.append('    <testcase classname=%s name="run"><failure message=%s/></testcase>'
                       % (quoteattr(r['arch']), quoteattr(r['reason'])))
        for c in r['checks']:
            tc = '    <testcase classname=%s name=%s' % (quoteattr(r['arch']),
                                                        quoteattr(c['name']))
            if c['ok']:
                out.append(tc + '/>')
            else:
                out.append(tc + '><failure message=%s>%s</failure></testcase>'
                           % (quoteattr(c['detail']), escape(c['detail'])))
        out.append('  </testsuite>')
    out.append('</testsuites>')
    return '\n'.join(out) + '\n'


def main():
    results, arches = sys.argv[1], sys.argv[2:]
    cells = [load(results, a) for a in arches]
    print()
    print('%-7s | %-5s | %-7s | %-7s | %7s | %s' % ('arch', 'build', 'boot', 'tests',
                                                    'seconds', 'reason'))
    print('-' * 78)
    for r in cells:
        print('%-7s | %-5s | %-7s | %-7s | %7d | %s' % (
            r['arch'], r['build'], r['boot'],
            '%d/%d' % (r['tests_passed'], r['tests_total']), r['seconds'],
            'green' if r['green'] else r['reason'][:60]))
    green = sum(r['green'] for r in cells)
    print('%d of %d cells green' % (green, len(cells)))
    with open(os.path.join(results, 'summary.json'), 'w') as f:
        json.dump({'green': green, 'cells': cells}, f, indent=1)
    with open(os.path.join(results, 'junit.xml'), 'w') as f:
        f.write(junit(cells))
    print()
    subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 'figures.py'), results] + arches)
    return 0 if green == len(cells) else 1


if __name__ == '__main__':
    sys.exit(main())
