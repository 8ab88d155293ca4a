#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The files the series adds are one source across kernel bases: each new
file of the default base's series (series/6.1/) is, in every other base's
series (series/BASE/), at the same place with the same bytes, but where
that base's series/BASE/rewrites says otherwise:
 - "path A => B", "text A => B": the file at A is at B, a whole line A
   reads B (the host tool's files, as scripts/sync-lineloc.sh writes them);
 - "differs PATH  WHY": PATH differs on that base because the kernel does
   (a changed API); a "differs" file that does not differ is stale, and
   fails too.
Each series' new files are rebuilt from its patches alone (git apply
--include of those paths into an empty repository), so no kernel tree is
needed.  Prints ok/FAIL lines (lint counts them); exit 1 on any FAIL."""
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'matrix'))
sys.path.insert(0, os.path.join(TOP, 'tests'))
from cell import DEFAULT_BASE as DEFAULT  # noqa: E402
from result import Results  # noqa: E402
res = Results('series-bases')
say = res.check


def patches(base):
    d = os.path.join(TOP, 'series', base)
    with open(os.path.join(d, 'series')) as f:
        names = [l.split()[0] for l in f if l.strip() and not l.lstrip().startswith('#')]
    return [os.path.join(d, n) for n in names]


def new_files(base):
    """{path: bytes} of the files the series of @base creates, as its last
    patch leaves them."""
    ps = patches(base)
    paths = []
    for p in ps:
        with open(p, errors='replace') as f:
            text = f.read()
        paths += re.findall(r'^--- /dev/null\n\+\+\+ b/(\S+)$', text, re.M)
    with tempfile.TemporaryDirectory() as d:
        subprocess.run(['git', 'init', '-q', d], check=True)
        inc = ['--include=' + p for p in paths]
        for p in ps:
            r = subprocess.run(['git', '-C', d, 'apply'] + inc + [p],
                               capture_output=True, text=True)
            if r.returncode:
                raise SystemExit('series-bases: %s: git apply of its new files: %s' % (
                    os.path.relpath(p, TOP), r.stderr.strip()[:300]))
        out = {}
        for p in paths:
            if os.path.exists(os.path.join(d, p)):
                with open(os.path.join(d, p), 'rb') as f:
                    out[p] = f.read()
        return out


def rules(base):
    paths, texts, differs = {}, {}, {}
    path = os.path.join(TOP, 'series', base, 'rewrites')
    if os.path.exists(path):
        with open(path) as f:
            for l in f:
                kind, _, rule = l.rstrip('\n').partition(' ')
                if kind in ('path', 'text') and ' => ' in rule:
                    a, b = rule.split(' => ', 1)
                    (paths if kind == 'path' else texts)[a] = b
                elif kind == 'differs':
                    p, _, why = rule.strip().partition(' ')
                    differs[p] = why.strip()
    return paths, texts, differs


def rewritten(data, texts):
    lines = data.decode('utf-8', 'surrogateescape').split('\n')
    return '\n'.join(texts.get(l, l) for l in lines).encode('utf-8', 'surrogateescape')


def main():
    bases = sorted(b for b in os.listdir(os.path.join(TOP, 'series'))
                   if os.path.isfile(os.path.join(TOP, 'series', b, 'series')))
    ref = new_files(DEFAULT)
    for base in bases:
        if base == DEFAULT:
            continue
        paths, texts, differs = rules(base)
        other = new_files(base)
        want = {paths.get(p, p): rewritten(data, texts) for p, data in ref.items()}
        missing = sorted(set(want) - set(other))
        extra = sorted(set(other) - set(want))
        say(not missing and not extra,
            'series/%s adds the %d files series/%s adds (by series/%s/rewrites)%s' % (
                base, len(want), DEFAULT, base,
                ': missing ' + ' '.join(missing) if missing else '') +
            (', and more: ' + ' '.join(extra) if extra else ''))
        same = [p for p in want if p in other and want[p] == other[p]]
        diff = [p for p in want if p in other and want[p] != other[p]]
        undeclared = [p for p in diff if p not in differs]
        stale = [p for p in differs if p not in diff]
        say(not undeclared,
            'series/%s: %d new files the same as series/%s\'s, %d differ, each as '
            'series/%s/rewrites says%s' % (
                base, len(same), DEFAULT, len(diff), base,
                ': not said: ' + ' '.join(undeclared) if undeclared else
                ' (' + '; '.join('%s: %s' % (p, differs[p]) for p in diff) + ')'))
        say(not stale, 'series/%s/rewrites: every "differs" file differs%s' % (
            base, ': stale ' + ' '.join(stale) if stale else ''))
    return res.finish()


if __name__ == '__main__':
    sys.exit(main())
