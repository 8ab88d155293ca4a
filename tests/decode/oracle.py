#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Each frame decode_stacktrace.sh decoded, against an oracle that is not
the script (tests/decode/run.sh runs this once per arch).

  oracle.py ARCH LOG IN OUT VMLINUX SRC KO

LOG: the 'on' boot's console; IN: console.py located's lines of it (fed
to the script); OUT: what the script printed, a line for each line of IN;
VMLINUX: that boot's vmlinux; SRC: the source tree given to the script as
its base path; KO: the module the script decodes "[lltest]" frames
through (the first lltest.ko* with a .debug_line under the module path it
was given), or "" if none.

The rule (the series' scripts/decode_stacktrace.sh, patch 13): every frame
is looked up at the address it names, sym+off with sym the first t/T
symbol of that name in the target nm's listing (not told apart by /size;
the target's nm gives a Thumb function's address without the Thumb bit:
patch 15), as is: a return address too (the script does not
look up the call at address - 1); the first line addr2line -i prints is
the line-table row of that address.  So each decoded frame must equal the
oracle at that address, whatever the frame's kind: llvm-symbolizer on
vmlinux; on the module, llvm-symbolizer for .text and the cross addr2line
-j SECTION for the other sections.  Paths: SRC/ stripped as the script
strips it, both sides normalised lexically.

The kernel's rule (README, "A frame prints as ..."; trace_frames() says
which frames are which) is judged per frame kind too: a faulting or
interrupted pc (and lltest's %pSl lines, "loc" and "at <address>": the
oracle takes that address) is looked up as is, so the
script must decode it to the very line the kernel printed (the kernel's
path, relative to the tree, is the end of the script's); a return address
is looked up by the kernel at the call (address - 1, Thumb bit dropped):
how many of those the script decodes to the kernel's line is reported,
not required (the script's rule differs).  Frames the kernel printed
while a load-time variant of the module was loaded (another build of it),
and frames whose name the script resolves to another symbol than the
kernel's (static functions and out-of-line inlines of one name: "dups"),
are not compared with the kernel's line, only counted.

Explained, counted apart: a frame whose name no t/T symbol has (a weak
alias: the script cannot look it up, "nosym"), and a frame the script
decodes to the same line in another file where its addr2line says so and
llvm-symbolizer does not (binutils' DWARF 5 file-table reading, "a2l").

Prints "total decoded agree pcs pcs_same rets rets_same other dups nosym
a2l | detail"
and exits 0; the shell judges the counts.
"""
import json
import os
import re
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
sys.path.insert(0, os.path.join(TOP, 'matrix'))
import cell  # noqa: E402
from console import AT, FRAME, LOC, LOCATED, read, trace_frames  # noqa: E402
from judges.modules import variant_segments  # noqa: E402
from oracles import ModuleOracle, Symbols  # noqa: E402

# what console.py located selects, and the first location of a decoded line
LOCATED_LINE = re.compile(r'\+0x[0-9a-f]+/0x[0-9a-f]+ \([^ ()]+:[0-9]+\)$')
DECODED = re.compile(r' \(([^ ()]+):(\d+)[ )]')
# all the levels the script prints for a frame, innermost first (its
# addr2line -i's chain): "(path:line path:line ...)"
DECODED_ALL = re.compile(r' \(((?:[^ ()]+:\d+ ?)+)\)')


# as run.sh's awk filter: the first 100 "at" lines of the log
AT_LINE = re.compile(r'lltest: at [0-9a-f]+ ')
AT_LINES = 100


def norm(loc, src):
    """path:line, the path normalised and SRC/ stripped; None stays."""
    if not loc or loc.startswith('??'):
        return None
    loc = re.sub(r' \(discriminator \d+\)$', '', loc.strip())
    path, _, line = loc.rpartition(':')
    if line in ('0', '?'):
        return None
    path = os.path.normpath(path)
    if path.startswith(src + '/'):
        path = path[len(src) + 1:]
    return '%s:%s' % (path, line)


def symbolize(obj, addrs):
    """llvm-symbolizer's answer for each address of @obj."""
    if not addrs:
        return []
    p = subprocess.run(['llvm-symbolizer', '--obj=' + obj, '--output-style=GNU',
                        '--no-inlines', '--functions=none'],
                       input=''.join('%#x\n' % a for a in addrs),
                       capture_output=True, text=True)
    return p.stdout.splitlines()


def nm_first(obj, nm):
    """{name: value} of the first t/T symbol of each name in @nm's listing
    of @obj: the symbol decode_stacktrace.sh takes (${NM} | awk ... exit)."""
    out = subprocess.run([nm, obj], capture_output=True, text=True).stdout
    first = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 3 and p[1] in ('t', 'T') and p[2] not in first:
            first[p[2]] = int(p[0], 16)
    return first


def main(argv):
    arch, log, fin, fout, vmlinux, src, ko = argv
    src = os.path.normpath(src)
    # with the chains of inlined calls, a vmlinux frame carries the
    # outermost call's line: the last of the script's levels (the "on"
    # boot's build record says whether they are on)
    try:
        with open(os.path.join(os.path.dirname(fout), 'build.json')) as f:
            inlines = json.load(f).get('kconfig', {}).get(
                'CONFIG_KALLSYMS_LINE_INLINES') == 'y'
    except (OSError, ValueError):
        inlines = False
    outer = {}          # line index -> the script's outermost level
    facts = cell.load_arch(arch)
    pre = facts.get('CROSS_COMPILE') or ''
    thumb = bool(facts.get('THUMB'))
    lines = read(log)
    fed = open(fin).read().splitlines()
    out = open(fout).read().splitlines()
    idx = [i for i, l in enumerate(lines) if LOCATED_LINE.search(l)]
    # run.sh feeds the first AT_LINES of textlocs' "lltest: at" lines only
    at = [i for i in idx if AT_LINE.search(lines[i])]
    idx = [i for i in idx if i not in set(at[AT_LINES:])]
    if [lines[i] for i in idx] != fed:
        print('0 0 0 0 0 0 0 0 | %s is not console.py located of %s' % (fin, log))
        return 0
    syms = Symbols(vmlinux, pre + 'nm')
    kind = {}           # line index -> (frame match, exact)
    for i, m, exact in trace_frames(lines, facts, syms.in_entry_text):
        loc = LOCATED.match(lines[i], m.start())
        if loc and loc.end() == len(lines[i]):
            kind[i] = (m, exact)
    at = {}             # line index -> the address lltest's "at" file printed
    for i in idx:
        m = LOC.match(lines[i])
        if m and i not in kind:
            kind[i] = (FRAME.search(lines[i], m.start(1)), True)   # %pSl: as is
        m = AT.match(lines[i])
        if m and i not in kind:
            kind[i] = (FRAME.search(lines[i], m.end()), True)      # %pSl: as is
            at[i] = int(m.group(1), 16)
    oracle = ModuleOracle(ko, pre + 'addr2line', pre + 'nm', pre + 'objdump', thumb) if ko else None
    variant = set(k for b, e in variant_segments(lines).values() for k in range(b, e))
    # the addresses: (as is, the call) in vmlinux, looked up in one run
    frames = []
    for n, i in enumerate(idx):
        m, exact = kind.get(i, (None, None))
        got = DECODED.search(out[n]) if n < len(out) else None
        got = norm('%s:%s' % got.groups(), src) if got else None
        levels = DECODED_ALL.search(re.sub(r' \(discriminator \d+\)', '', out[n])) \
            if n < len(out) else None
        outer[i] = norm(levels.group(1).split()[-1], src) if levels else None
        printed = LOCATED.search(lines[i])
        printed = '%s:%s' % (printed.group(5), printed.group(6))
        frames.append([i, m, exact, got, printed, None, None])
    first = nm_first(vmlinux, pre + 'nm')
    vm = [f for f in frames if f[1] is not None and not f[1].group(4)]
    script, asis, call = [], [], []
    for f in vm:
        m = f[1]
        off = int(m.group(2), 16)
        script.append(first[m.group(1)] + off if m.group(1) in first else None)
        a = at.get(f[0]) or syms.address(m.group(1), off, int(m.group(3), 16))
        asis.append(a)
        call.append(None if a is None else (a & ~1 if thumb else a) - 1)
    known = sorted(set(x for x in script + asis + call if x is not None))
    answer = dict(zip(known, symbolize(vmlinux, known)))
    # where the script's addr2line and the oracle part, what it said
    a2l_at = [b for f, b in zip(vm, script) if b is not None and f[3] !=
              norm(answer.get(b), src)]
    a2l = dict(zip(a2l_at, subprocess.run(
        [pre + 'addr2line', '-e', vmlinux], input=''.join('%#x\n' % b for b in a2l_at),
        capture_output=True, text=True).stdout.splitlines())) if a2l_at else {}
    for f, b, a, c in zip(vm, script, asis, call):
        f[5] = norm(answer.get(b), src) if b is not None else None
        f.append(norm(a2l.get(b), src) if b in a2l else None)
        f.append(b is None)
        f[6] = norm(answer.get(c), src) if c is not None else '<no unique symbol>'
        # the same symbol: on a Thumb-2 kernel nm's value (the script's)
        # carries the Thumb bit, so the script looks up sym+off+1
        f.append(b is not None and a is not None and b - (a & ~1 if thumb else a) in
                 ((0, 1, 2) if thumb else (0,)))
    for f in frames:
        m = f[1]
        if m is None or not m.group(4):
            continue
        f.extend([None, False, True])   # the module's names are its own
        if m.group(4) != 'lltest' or oracle is None:
            f[5] = f[6] = '<no oracle for [%s]>' % m.group(4)
            continue
        res = []
        for back in (0, 1):
            addr, a2l, llvm = oracle.lookup(m.group(1), int(m.group(2), 16), back, thumb)
            if addr is None:
                res.append('<%s not in %s>' % (m.group(1), ko))
            else:
                sec = oracle.section.get(m.group(1), '.text')
                res.append(norm(llvm if sec == '.text' and norm(llvm, src) else a2l, src))
        f[5], f[6] = res
    decoded = agree = pcs = pcs_same = rets = rets_same = other = dups = 0
    nosym = a2l_file = 0
    bad = []
    line_of = lambda x: x.rpartition(':')[2] if x else None
    same = lambda got, printed: got == printed or (
        got is not None and got.endswith('/' + printed))
    for f in frames:
        i, m, exact, got, printed, want, want_call = f[:7]
        decoded += got is not None
        if m is None:
            other += 1
            bad.append('no frame kind: %s' % lines[i].strip())
            continue
        a2l_said, no_sym, same_sym = f[7:10]
        name = '%s+%s%s' % (m.group(1), m.group(2), ' [%s]' % m.group(4) if m.group(4) else '')
        if got is not None and got == want:
            agree += 1
        elif no_sym and got is None:
            nosym += 1      # no t/T symbol of that name: the script cannot
            continue
        elif got is not None and got == a2l_said and want and line_of(got) == line_of(want):
            # binutils' addr2line (the script's) names another file for the
            # same row: its DWARF 5 file-table reading (hosttool/README)
            a2l_file += 1
            continue
        else:
            bad.append('%s: decoded %s, oracle %s' % (name, got, want))
        if i in variant and m.group(4):
            continue
        if not same_sym:
            dups += 1       # the script's symbol of that name is not the kernel's
            continue
        if exact:
            pcs += 1
            if inlines and not m.group(4):
                got = outer.get(i)
            if same(got, printed):
                pcs_same += 1
            else:
                bad.append('%s (pc): decoded %s, the kernel printed %s' % (name, got, printed))
        else:
            rets += 1
            rets_same += same(got, printed)
    print('%d %d %d %d %d %d %d %d %d %d %d | %s' % (
        len(frames), decoded, agree, pcs, pcs_same, rets, rets_same, other, dups, nosym,
        a2l_file, '; '.join(bad[:4])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
