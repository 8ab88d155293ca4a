# SPDX-License-Identifier: GPL-2.0
"""Chains of inlined calls (lineloc -e FILE -i -f): per address, every
level innermost first, held against llvm-symbolizer --inlining by one
rule (matrix/oracles.py: chain_differs): the same levels, each level's
path:line, each inlined level's name.  Used by the generated part (every
executable) and the debian part (Debian's vmlinux); the rule itself is
checked on planted faults first.
"""
from .common import LL, note, result, run
# matrix/oracles.py, on sys.path since .common was imported
from oracles import chain_differs, oracle_llvm_chains, parse_chains


def lineloc_chains(f, addrs, extra=()):
    """lineloc's chains at @addrs of @f (see oracles.parse_chains), or
    None and why; @extra: more options (--via-table: through the tables
    the kernel would hold)."""
    inp = ''.join('%x\n' % a for a in addrs).encode()
    rc, out, err = run([LL, '--no-strip', '-a', '-i', '-f'] + list(extra) +
                       ['-e', f], inp)
    if rc:
        return None, err.strip()[-200:]
    try:
        ch = parse_chains(out)
    except ValueError as e:
        return None, str(e)
    return ch, ''


def check_chains(name, f, addrs, show=3, extra=()):
    """@addrs of @f: lineloc's chain (with @extra options) equals
    llvm-symbolizer's at every one, and some of them have inlined levels.
    Returns (agreeing, chains with inlined levels)."""
    ours, why = lineloc_chains(f, addrs, extra)
    llvm = oracle_llvm_chains(f, addrs)
    if ours is None or llvm is None or len(ours) != len(addrs):
        result(False, name, why or 'llvm-symbolizer failed')
        return 0, 0
    bad = [(a, chain_differs(o, t)) for a, o, t in zip(addrs, ours, llvm)]
    bad = [(a, w) for a, w in bad if w]
    deep = sum(1 for c in llvm if len(c) > 1)
    deepest = max(len(c) for c in llvm) - 1 if llvm else 0
    result(not bad and deep > 0, name,
           '%d/%d chains agree; %d with inlined levels, %d levels deep at most'
           % (len(addrs) - len(bad), len(addrs), deep, deepest))
    for a, w in bad[:show]:
        note('0x%x: %s' % (a, w))
    return len(addrs) - len(bad), deep


def check_chain_rule():
    """chain_differs() on planted faults: a level dropped, a call line
    off by one, an inlined level's name changed are differences; the
    outermost level's name is not (llvm-symbolizer takes it from the
    symbol table)."""
    good = [('square', 'src/helper.h:5'), ('scale', 'src/helper.h:19'),
            ('fill', 'src/main.c:15'), ('main', 'src/main.c:26')]
    planted = [
        ('a level dropped', good[:1] + good[2:], True),
        ('a call line off by one', good[:1] + [('scale', 'src/helper.h:20')] +
         good[2:], True),
        ('an inlined name changed', good[:1] + [('scale2', good[1][1])] + good[2:],
         True),
        ('the outermost name from the symbol table',
         good[:3] + [('main.cold', good[3][1])], False),
        ('the same chain', list(good), False)]
    for what, chain, differs in planted:
        got = chain_differs(chain, good)
        result(bool(got) == differs, 'chain rule: %s -> %s' %
               (what, 'differs' if differs else 'agrees'), got)
