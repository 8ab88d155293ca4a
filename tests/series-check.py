#!/usr/bin/env python3
"""Checks of series/BASE/ (BASE=, default 6.1) that need no kernel tree:
 - the files that the lineloc patches add (lib/lineloc/,
   include/linux/lineloc/, scripts/lineloc/) are byte-identical to the
   ones hosttool/files lists, each at its place (one source: make
   sync-lineloc), and scripts/lineloc/Makefile builds every kbuild/ .c;
 - checkpatch's findings (given as FILE TYPE lines on stdin, from
   checkpatch --terse --show-types) are no ERROR, and each WARNING or
   CHECK type is named in the patch's notes below its "---" line (git
   notes, written by format-patch --notes), which explain it; the
   changelog above "---" says nothing of checkpatch.
Prints ok/FAIL lines; exit 1 on any FAIL."""
import os
import re
import sys

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
sys.path.insert(0, os.path.join(top, 'tests'))
from result import Results  # noqa: E402

# lint counts the ok/FAIL lines; no closing line of its own
RESULTS = Results('series-check')
say = RESULTS.check


def added_files(patch):
    """New files of a git patch: {path: content}."""
    out = {}
    text = open(patch, errors='replace').read()
    for block in re.split(r'^diff --git ', text, flags=re.M)[1:]:
        m = re.match(r'a/(\S+) b/\S+\nnew file mode', block)
        if not m:
            continue
        body = block.split('\n@@', 1)[1].split('\n', 1)[1]
        content = []
        for l in body.split('\n'):
            if l.startswith('+'):
                content.append(l[1:])
            elif l.startswith('\\ No newline'):
                content[-1] += '\0'
            elif l.startswith('-- ') or l == '--':
                break
        s = '\n'.join(content) + '\n'
        out[m.group(1)] = s.replace('\0\n', '')
    return out


# the series of this run's base (BASE=, default 6.1)
series = os.path.join(top, 'series', os.environ.get('BASE') or '6.1')
patches = [l.split()[0] for l in open(os.path.join(series, 'series'))
           if l.strip() and not l.startswith('#')]
# hosttool/files: "HOSTTOOL-PATH TREE-PATH" a line
files = [l.split() for l in open(os.path.join(top, 'hosttool', 'files')).read().split('\n')
         if l.strip() and not l.startswith('#')]
# series/BASE/rewrites: where this base's tree holds those files
# differently (a path moved, a whole line renamed), as sync-lineloc.sh
# writes them
paths, texts = {}, {}
if os.path.exists(os.path.join(series, 'rewrites')):
    for l in open(os.path.join(series, 'rewrites')):
        kind, _, rule = l.rstrip('\n').partition(' ')
        if kind in ('path', 'text') and ' => ' in rule:
            a, b = rule.split(' => ', 1)
            (paths if kind == 'path' else texts)[a] = b
files = [[f[0], paths.get(f[1], f[1])] if len(f) == 2 else f for f in files]


def rewritten(text):
    return ''.join(texts.get(l.rstrip('\n'), l.rstrip('\n')) + '\n' if l.endswith('\n')
                   else texts.get(l, l) for l in text.splitlines(True))
# the patches that add the lineloc files (lib/lineloc: ..., scripts/lineloc:
# ... and scripts: add lineloc ...), their files together
ll = [p for p in patches if re.search(r'-(scripts-lineloc|lib-lineloc|scripts-add-lineloc)-', p)]
if ll:
    new = {}
    for p in ll:
        new.update(added_files(os.path.join(series, p)))
    ll = ['the lineloc patches (%d)' % len(ll)]
    say(all(len(f) == 2 for f in files), 'hosttool/files: a place in the tree for every file')
    for f, dst in (f for f in files if len(f) == 2):
        ours = rewritten(open(os.path.join(top, 'hosttool', f)).read())
        say(new.get(dst) == ours,
            '%s: %s is hosttool/%s (else: make sync-lineloc)' % (ll[0], dst, f))
    # what the kernel build runs: kbuild/, all of it built by the Makefile
    objs = re.findall(r'[\w-]+\.o\b', new.get('scripts/lineloc/Makefile', ''))
    for f, dst in (f for f in files if len(f) == 2):
        if f.startswith('kbuild/') and f.endswith('.c'):
            b = os.path.basename(dst)
            say(b[:-2] + '.o' in objs,
                '%s: scripts/lineloc/Makefile builds %s' % (ll[0], b))
    # lib_X.o: a wrapper that includes lib/lineloc/X.c, one of the list's
    for o in (o for o in objs if o.startswith('lib_')):
        src = 'lib/lineloc/%s.c' % o[4:-2]
        w = new.get('scripts/lineloc/%s.c' % o[:-2], '')
        say('#include "../../%s"' % src in w and any(d == src for _, d in
                                                     (f for f in files if len(f) == 2)),
            '%s: scripts/lineloc/%s.c builds %s for the host' % (ll[0], o[:-2], src))
    # and nothing of the user tool's
    tool = open(os.path.join(top, 'hosttool', 'files.tool')).read().split()
    for f in tool:
        say('scripts/lineloc/' + f not in new,
            '%s: the user tool\'s %s is not in the tree' % (ll[0], f))

# Every figure of four or more digits that the series quotes (changelogs,
# the cover letter, and the help and Documentation text it adds) is one
# README gives, beside the command that prints it: the series and README
# cannot drift apart.
readme = open(os.path.join(top, 'README.md')).read() + \
    open(os.path.join(top, 'hosttool', 'README.md')).read()
FIGURE = re.compile(r'(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\d,]*\d)')
for p in ['cover-letter.txt'] + patches:
    text = open(os.path.join(series, p), errors='replace').read()
    msg, _, rest = text.partition('\n---\n')
    quoted, cur = [msg], None
    for l in rest.split('\n'):
        if l.startswith('diff --git '):
            cur = l.split()[2][2:]
        elif l.startswith('+') and not l.startswith('+++') and cur and \
                (cur.startswith('Documentation/') or 'Kconfig' in cur):
            quoted.append(l[1:])
    figs = sorted({m.group(0) for m in FIGURE.finditer('\n'.join(quoted))})
    missing = [f for f in figs if f not in readme]
    say(not missing, '%s: the %d figures it quotes are README\'s%s' % (
        p, len(figs), ' (not in README: %s)' % ', '.join(missing) if missing else ''))

findings = {}
for line in sys.stdin:
    m = re.match(r'(\S+\.patch):\d+: (ERROR|WARNING|CHECK):(\w+):', line)
    if m:
        findings.setdefault(os.path.basename(m.group(1)), set()).add((m.group(2), m.group(3)))
for p in patches:
    text = open(os.path.join(series, p), errors='replace').read()
    msg, _, rest = text.partition('\n---\n')
    # the notes for the reviewer: below "---", before the diffstat
    notes = rest.split('\ndiff --git ', 1)[0]
    notes = notes if notes.lstrip('\n').startswith('Notes:\n') else ''
    say('checkpatch' not in msg.lower(),
        '%s: no checkpatch notes in the changelog (they go below ---)' % p)
    for kind, typ in sorted(findings.get(p, ())):
        if kind == 'ERROR':
            say(False, '%s: checkpatch ERROR %s' % (p, typ))
        else:
            say(typ in notes, '%s: checkpatch %s %s explained below ---' % (p, kind, typ))
    if p not in findings:
        say(True, '%s: checkpatch --strict clean' % p)
sys.exit(1 if RESULTS.failed else 0)
