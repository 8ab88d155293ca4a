#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one matrix cell from its console log.

A cell is green only on positive evidence: the init's success marker, the
guest's own restart after it, and for every trigger in the plan its marker
line, its backtrace (the module's call chain, in order) and the source line
it announced, confirmed by an oracle on the module.  QEMU's exit status alone
never makes a cell green; a timeout, an unplanned panic or a missing marker
makes it red with a reason that says what happened.

Writes a result JSON (read by matrix/report.py) and prints one progress line
per check.  Exit status: 0 green, 1 red.
"""
import argparse
import difflib
import fnmatch
import json
import os
import re
import subprocess
import sys

import cell as cells
import stack_usage
from oracles import ModuleOracle, Symbols, module_strip, strip_path, symbolize
from plan import Plan
from console import (ANY_LOCATION, ARMED, AT, COSTS, CRASH, CYCLE, CYCLE_READER, FIRES,
                     FRAME, HOLD, INIT, INSMOD_OK, KUNIT_MODULE_SUITE, KUNIT_SUITE,
                     LKDTM_REPORT, LOADTIME, LOC, LOCATED, LOC_INIT_AFTER, MEMORY, OOPS,
                     PANIC, RACE, RCU_STALL, READ_KALLSYMS, RESTART, SUCCESS, WARNING,
                     WARN_NO_LINES, fault_pc, kallsyms_listing, kunit_results, read,
                     splats, trace_frames)

CHAIN = ['lltest_fire', 'lltest_chain_b', 'lltest_chain_a', 'lltest_write']
# The series' own functions: the only lines that /proc/kallsyms may gain
# when CONFIG_KALLSYMS_LINE_LOCATIONS is turned on (matrix/data/kallsyms-extra.txt).
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTRA = os.path.join(TOP, 'matrix', 'data', 'kallsyms-extra.txt')


class Cell:
    def __init__(self, arch):
        self.arch = arch
        self.checks = []

    def check(self, name, ok, detail=''):
        # paths of over 1 KiB (the long-path trigger) keep their ends
        detail = re.sub(r'/[^\s:,]{100,}/', lambda m: '/...%s/' % m.group(0)[-60:-1], detail)
        self.checks.append({'name': name, 'ok': bool(ok), 'detail': detail})
        print('[%s] %s %s%s' % (self.arch, 'ok  ' if ok else 'FAIL', name,
                                ': ' + detail if detail else ''))
        return ok


def is_subsequence(want, seq):
    it = iter(seq)
    return all(any(x == w for x in it) for w in want)


def judge_interrupted(cell, seg, syms, oracle, a):
    """The probe trigger's backtrace crosses the breakpoint exception: the
    frame after it is the pc where the probe hit, at the first instruction
    of a function (lltest_probed, or lltest_target where the branch was
    simulated before the handler ran); it must print as that pc, and the
    check must be able to fail: the pc - 1 lies in another function."""
    frames = [(m, exact) for _, m, exact in trace_frames(seg, a.facts, syms.in_entry_text)
              if m.group(4) == 'lltest' and m.group(1) in ('lltest_probed', 'lltest_target')]
    pcs = [m for m, exact in frames if exact]
    ok = len(pcs) == 1 and int(pcs[0].group(2), 16) == 0
    cell.check('probe: interrupted pc printed as is', ok,
               pcs[0].group(0) if pcs else 'no interrupted-pc frame among %s' %
               [m.group(0) for m, _ in frames])
    if not ok or oracle is None:
        return
    sym = pcs[0].group(1)
    pc = oracle.syms[sym]
    before = oracle.function_at(pc - 1) if pc else None
    _, line_pc, _ = oracle.lookup(sym, 0, 0, False)
    line_before = oracle.lookup(before, pc - 1 - oracle.syms[before], 0, False)[1] \
        if before else '??:0'
    cell.check('probe: discriminating', oracle.function_at(pc) == sym and before != sym,
               'pc %s+0x0 (%s), pc - 1 in %s (%s)' % (sym, line_pc, before, line_before)
               if before != sym else 'not discriminating: pc - 1 is in %s too' % sym)


def judge_trigger(cell, lines, name, oracle, a, syms):
    warn_pc, thumb = a.warn_pc, a.thumb
    idx = [i for i, l in enumerate(lines)
           if (m := FIRES.match(l)) and m.group(1) == name]
    if not cell.check('%s: marker' % name, len(idx) == 1,
                      'seen %d times' % len(idx)):
        return
    i = idx[0]
    m = FIRES.match(lines[i])
    where = '%s:%s' % (m.group(2), m.group(3))
    seg = []
    for l in lines[i + 1:]:
        if l.startswith('lltest:') or l.startswith(INIT):
            break
        seg.append(l)
    frames = []
    for l in seg:
        for f in FRAME.finditer(l):
            if not frames or frames[-1] != f.group(1):
                frames.append(f.group(1))
    if name != 'init':      # module_init runs from do_init_module
        cell.check('%s: backtrace' % name, is_subsequence(CHAIN, frames),
               '%d frames, chain %s' % (len(frames),
                                        'in order' if is_subsequence(CHAIN, frames)
                                        else 'missing: want %s in %s' % (CHAIN, frames[:12])))

    # The frame whose source line the trigger announced, and how to look it
    # up: a faulting PC as is, a return address at - 1 (the call).
    pick = None
    if name in ('warn', 'init'):
        w = [WARNING.search(l) for l in seg]
        w = [x for x in w if x]
        if cell.check('%s: WARNING line' % name, len(w) == 1 and
                      '%s:%s' % (w[0].group(1), w[0].group(2)) == where,
                      w[0].group(0) if w else 'no WARNING line'):
            # A trap-based WARN (x86, arm64) reports the trapping PC; one
            # through warn_slowpath_fmt() (arm) reports its return address.
            pick = (w[0].group(3), int(w[0].group(4), 16), 1 if warn_pc == 'return' else 0)
    elif name == 'oops':
        cell.check('%s: Oops report' % name, any(OOPS.search(l) for l in seg),
                   next((l for l in seg if OOPS.search(l)), 'no Oops line'))
        pcs = [fault_pc(a.facts).search(l) for l in seg]
        pcs = [x for x in pcs if x]
        if cell.check('%s: faulting PC' % name, pcs and pcs[0].group(1) == CHAIN[0],
                      pcs[0].group(0) if pcs else 'no faulting-PC line'):
            pick = (pcs[0].group(1), int(pcs[0].group(2), 16), 0)
    else:
        # the long trigger's dump_stack() is called from lltest_long
        callee = 'lltest_long' if name.startswith('long') else CHAIN[0]
        for l in seg:
            f = FRAME.search(l.split(' from ')[-1])
            if f and f.group(1) == callee:
                pick = (f.group(1), int(f.group(2), 16), 1)
                break
        cell.check('%s: return address in %s' % (name, callee), pick is not None)
        if name == 'probe' and syms:
            judge_interrupted(cell, seg, syms, oracle, a)
        if name == 'saved' and a.lines_on:
            located = [l for l in seg if LOCATED.search(l)]
            cell.check('saved: the saved stack is located', located,
                       located[0].strip() if located else 'no located frame')
    if pick is None or oracle is None:
        return
    sym, off, back = pick
    addr, a2l, llvm = oracle.lookup(sym, off, back, thumb)
    if addr is None:
        cell.check('%s: source line' % name, False, '%s not in the module' % sym)
        return
    detail = '%s+%#x%s: marker %s, addr2line %s, llvm-symbolizer %s' % (
        sym, off, ' -1' if back else '', where, a2l, llvm)
    # Both oracles must agree with the marker; llvm-symbolizer may answer
    # ?? for a relocatable object (LLVM 14), which is said, never hidden.
    # A marker "...TAIL:LINE" (the long path) gives the end of the path.
    same = (lambda x: x.endswith(where[3:])) if where.startswith('...') else \
        (lambda x: x == where)
    ok = same(a2l) and (same(llvm) or llvm.startswith('??'))
    cell.check('%s: source line' % name, ok, detail)
    # The kernel's own location of that frame, wherever the trace prints it
    # (module line locations are on in both configurations); a location
    # too long for the line is cut at its start, "...END:LINE".
    full = strip_path(a2l, module_strip(a.strip, a.obj))
    printed = [m for l in seg for m in LOCATED.finditer(l)
               if m.group(1) == sym and int(m.group(2), 16) == off]
    got = sorted(set('%s:%s' % (m.group(5), m.group(6)) for m in printed))
    if where.startswith('...'):
        ok = len(got) == 1 and got[0].startswith('...') and full.endswith(got[0][3:]) \
            and len(got[0]) > 20
        cell.check('%s: printed location is cut short, its end right' % name, ok,
                   '%s+%#x printed %s (%d characters), addr2line %d characters' % (
                       sym, off, got or 'no location', len(got[0]) if got else 0, len(full)))
    else:
        want = strip_path(where, module_strip(a.strip, a.obj))
        cell.check('%s: printed location is the marker' % name, got == [want],
                   '%s+%#x printed %s, marker %s' % (sym, off, got or 'no location', want))


def judge_loc(cell, lines, a, syms):
    """lltest's loc file prints an address of vmlinux with %pSl: init text
    has no location once init memory is freed (start_kernel), other text
    keeps it (vfs_write, checked against llvm-symbolizer)."""
    got = {}
    for l in lines:
        m = LOC.match(l)
        if m:
            loc = LOCATED.match(l, m.start(1))
            got[m.group(1)] = (m, '%s:%s' % (loc.group(5), loc.group(6)) if loc else None)
    if 'start_kernel' in got:
        cell.check('init text: no location after boot', got['start_kernel'][1] is None,
                   got['start_kernel'][0].group(0) + (' (%s)' % got['start_kernel'][1]
                                                      if got['start_kernel'][1] else ''))
    if 'vfs_write' in got:
        m, loc = got['vfs_write']
        if a.lines_on:
            addr = syms.address(m.group(1), int(m.group(2), 16), int(m.group(3), 16))
            want = symbolize(a.vmlinux, [addr], a.strip)[0] if addr is not None else None
            cell.check('loc: vfs_write located as is', loc is not None and loc == want,
                       'printed %s, llvm-symbolizer %s' % (loc, want))
    cell.check('loc: both addresses printed', len(got) == 2, ' '.join(sorted(got)))


def judge_textlocs(cell, lines, a, figures):
    """The plan's textlocs step: every seeded address of the kernel's text
    is printed once (lltest's at file), and with the option on each has
    the location llvm-symbolizer gives for that address as is (line 0 or
    ?? meaning none), the linked table checked whole against an oracle
    that shares no code with it."""
    want_n = a.plan.textlocs()
    if not want_n:
        return
    got = []
    for l in lines:
        m = AT.match(l)
        if m:
            loc = LOCATED.search(l, m.end())
            got.append((int(m.group(1), 16), '%s:%s' % (loc.group(5), loc.group(6)) if loc else None))
    cell.check('textlocs: %d seeded text addresses printed' % want_n, len(got) == want_n,
               '%d printed' % len(got))
    if not a.lines_on:
        located = [g for g in got if g[1]]
        cell.check('textlocs: none located with the option off', not located,
                   '%#x %s' % located[0] if located else '')
        return
    oracle = symbolize(a.vmlinux, [addr for addr, _ in got], a.strip)
    bad = []
    for (addr, printed), want in zip(got, oracle):
        if want.startswith('??:') or want.endswith(':0'):
            want = None
        if printed != want:
            bad.append('%#x printed %s, llvm-symbolizer %s' % (addr, printed, want))
    figures['textlocs'] = len(got)
    figures['textlocs_located'] = sum(1 for g in got if g[1])
    cell.check('textlocs: every address agrees with llvm-symbolizer (as is)',
               got and not bad and len(oracle) == len(got),
               '%d of %d agree, %d located%s' % (len(got) - len(bad), len(got),
                                                 figures['textlocs_located'],
                                                 '; ' + '; '.join(bad[:4]) if bad else ''))


def judge_lkdtm(cell, lines, crash):
    start = [i for i, l in enumerate(lines)
             if l.endswith('lkdtm: Performing direct entry %s' % crash)]
    if not cell.check('lkdtm %s: performed' % crash, len(start) == 1,
                      'seen %d times' % len(start)):
        return
    seg = []
    for l in lines[start[0] + 1:]:
        if l.startswith(INIT):
            break
        seg.append(l)
    rep = next((l for l in seg if LKDTM_REPORT[crash].search(l)), None)
    cell.check('lkdtm %s: report' % crash, rep is not None, rep or 'no report')


def judge_locations(cell, lines, a, figures):
    """Every frame printed with a location agrees with llvm-symbolizer on
    vmlinux at the same address: the address itself for a faulting PC, the
    call (- 1, Thumb bit dropped) for a return address.  Frames of vmlinux
    under the module's triggers are located."""
    syms = Symbols(a.vmlinux, a.nm)
    frames = []          # (line index, sym, off, size, exact, printed location or None)
    for i, m, exact in trace_frames(lines, a.facts, syms.in_entry_text):
        if m.group(4):          # a module frame: not located yet
            continue
        loc = LOCATED.match(lines[i], m.start())
        frames.append((i, m.group(1), int(m.group(2), 16), int(m.group(3), 16), exact,
                       '%s:%s' % (loc.group(5), loc.group(6)) if loc else None))
    addrs = []
    for f in frames:
        base = syms.address(f[1], f[2], f[3])
        if base is not None and not f[4]:
            base = (base & ~1 if a.thumb else base) - 1
        addrs.append(base)
    known = [x for x in addrs if x is not None]
    answers = dict(zip(known, symbolize(a.vmlinux, known, a.strip)))
    located = agree = unlocated_known = 0
    bad = []
    for f, addr in zip(frames, addrs):
        want = answers.get(addr) if addr is not None else None
        if f[5]:
            located += 1
            if want == f[5]:
                agree += 1
            else:
                bad.append('%s+%#x: printed %s, llvm-symbolizer %s' % (f[1], f[2], f[5], want))
        elif want and not want.startswith('??'):
            unlocated_known += 1
            bad.append('%s+%#x: no location printed, llvm-symbolizer %s' % (f[1], f[2], want))
    figures['frames'] = {'seen': len(frames), 'located': located, 'agreeing': agree}
    print('[%s] frames: %d seen, %d located, %d agreeing with llvm-symbolizer' % (
        a.arch, len(frames), located, agree))
    cell.check('locations agree with llvm-symbolizer', located > 0 and agree == located,
               '%d/%d%s' % (agree, located, '; ' + '; '.join(bad[:3]) if bad else ''))
    cell.check('every frame llvm-symbolizer can place is located', unlocated_known == 0,
               '%d not located' % unlocated_known)
    # The faulting PC of LKDTM's EXCEPTION and BUG: the faulting line itself.
    for crash in ('EXCEPTION', 'BUG'):
        start = [i for i, l in enumerate(lines) if l.endswith('performing direct entry %s' % crash)
                 or l.endswith('Performing direct entry %s' % crash)]
        if not start:
            continue
        pcs = [f for f in frames if f[0] > start[0] and f[4]]
        ok = bool(pcs) and pcs[0][5] is not None and pcs[0][5] == answers.get(
            syms.address(pcs[0][1], pcs[0][2], pcs[0][3]))
        cell.check('lkdtm %s: faulting PC located' % crash, ok,
                   '%s+%#x (%s)' % (pcs[0][1], pcs[0][2], pcs[0][5]) if pcs else 'no PC frame')


def variant_segments(lines):
    """The lines of each variant the init loaded ("variant FILE" up to the
    next variant or the "variants DIR: N loaded" line): {file: (start, end)}."""
    out, cur = {}, None
    for i, l in enumerate(lines):
        if l.startswith(INIT + 'variant ') or l.startswith(INIT + 'variants '):
            if cur:
                out[cur[0]] = (cur[1], i)
            cur = (l[len(INIT + 'variant '):].strip(), i + 1) \
                if l.startswith(INIT + 'variant ') else None
    if cur:
        out[cur[0]] = (cur[1], len(lines))
    return out


def check_frames(lines, a, oracle, syms, skip=()):
    """lltest frames of @lines against @oracle: (seen, located, agreeing,
    bad).  A printed location must be addr2line's (every section) and, in
    .text, llvm-symbolizer's too where it answers (LLVM 14 may answer ??
    in a relocatable object).  Line indexes in @skip are left out."""
    seen = located = agree = 0
    bad = []
    cache = {}
    known = lambda x: x and not x.startswith('??') and not re.search(r':(\?|0)$', x)
    for i, m, exact in trace_frames(lines, a.facts, syms.in_entry_text):
        if i in skip or m.group(4) != 'lltest' or m.group(1) not in oracle.syms:
            continue
        key = (m.group(1), int(m.group(2), 16), 0 if exact else 1)
        if key not in cache:
            addr, a2l, llvm = oracle.lookup(key[0], key[1], key[2], a.thumb)
            # "file:?" and "file:0": addr2line knows the file, not a line
            cache[key] = (strip_path(a2l, module_strip(a.strip, a.obj)) if known(a2l) else None,
                          strip_path(llvm, module_strip(a.strip, a.obj)) if known(llvm) else None)
        want, want_llvm = cache[key]
        loc = LOCATED.match(lines[i], m.start())
        got = '%s:%s' % (loc.group(5), loc.group(6)) if loc else None
        seen += 1
        if got:
            located += 1
        cut = got and got.startswith('...')
        if got and want_llvm and not (want_llvm.endswith(got[3:]) if cut else want_llvm == got):
            bad.append('%s+%#x%s: printed %s, llvm-symbolizer %s' % (
                key[0], key[1], '' if exact else ' -1', got, want_llvm))
        elif cut and want and want.endswith(got[3:]):
            agree += 1          # cut short to fit the line: its end agrees
        elif got == want:
            agree += int(got is not None)
        else:
            bad.append('%s+%#x%s: printed %s, addr2line %s' % (
                key[0], key[1], '' if exact else ' -1', got, want))
    return seen, located, agree, bad


def judge_module_frames(cell, lines, a, oracle, syms, figures):
    """Every lltest frame agrees with the oracles on the .ko: printed with
    a location, the one addr2line -j SECTION gives at the same section
    offset (the pc as is, a return address at - 1, Thumb bit dropped),
    and printed without one only where addr2line has none.  Module line
    locations are on in both configurations.  After init, the init WARN's
    address (loc_init) has no location."""
    if oracle is None or syms is None:
        return
    # the variants' loads are judged with the variants (their own oracles)
    skip = set(k for b, e in variant_segments(lines).values() for k in range(b, e))
    seen, located, agree, bad = check_frames(lines, a, oracle, syms, skip)
    figures['module_frames'] = {'seen': seen, 'located': located, 'agreeing': agree}
    print('[%s] module frames: %d seen, %d located, %d agreeing with addr2line' % (
        a.arch, seen, located, agree))
    cell.check('module frames: locations agree with addr2line (and llvm-symbolizer in .text)',
               located > 0 and not bad,
               '%d/%d of %d%s' % (agree, located, seen, '; ' + '; '.join(bad[:3]) if bad else ''))
    after = [l for l in lines if LOC_INIT_AFTER.match(l)]
    if after:
        cell.check('module init text: no location after init',
                   not LOCATED.search(after[0]) and not ANY_LOCATION.search(after[0]),
                   after[0])


TABLE_SIZE = re.compile(r'module table: .*?(\d+) \+ (\d+) bytes \(core \+ init\)')


def judge_linesize(cell, man, seen, a):
    """The stripped module's /sys/module/lltest/linesize, read after its
    init, is the core table alone (init's is freed with the init text;
    struct mod_lines's header does not count): the core bytes lineloc
    --table-size predicts for that .ko from its sections as the loader
    lays them out."""
    v = next((v for v in man['variants'] if v['kind'] == 'stripped'), None)
    seg = seen.get(v['file']) if v else None
    if seg is None:
        return
    size = next((l.rsplit(': ', 1)[1] for l in seg
                 if l.startswith(INIT + 'cat ') and 'linesize' in l), '')
    # the project's build of lineloc (make builds it for the matrix): the
    # kernel's scripts/lineloc is built only with the vmlinux option on
    ll = os.path.join(TOP, 'hosttool', 'lineloc')
    ko = os.path.join(os.path.dirname(a.variants), v['file'])
    p = subprocess.run([ll, '--table-size', ko], capture_output=True, text=True)
    m = TABLE_SIZE.search(p.stdout)
    cell.check('module table: linesize after init is lineloc --table-size\'s core bytes',
               m is not None and size == m.group(1),
               'linesize %s, lineloc %s' % (size or 'not printed',
                                            '%s + %s (core + init)' % m.groups() if m else
                                            (p.stderr.strip() or 'no answer')[:200]))


def judge_variants(cell, lines, a, figures, syms=None):
    """Each load-time variant of the module (qemu/variants.py) loads and
    unloads; a corruption the generator marks invalid warns, once, naming
    the section and offset the manifest gives (where it gives them), and
    keeps no table; any other keeps its table
    with no warning or warns once with none; the stripped module keeps its
    table.  Nothing crashes."""
    if not a.variants:
        return
    try:
        with open(a.variants) as f:
            man = json.load(f)
    except (OSError, ValueError) as e:
        cell.check('module variants', False, 'manifest: %s' % e)
        return
    segs = variant_segments(lines)
    seen = {f: lines[b:e] for f, (b, e) in segs.items()}
    bad = []
    counts = {'lines': 0, 'warned': 0}
    for v in man['variants']:
        seg = seen.get(v['file'])
        if seg is None:
            bad.append('%s: not run' % v['file'])
            continue
        loaded = any(INSMOD_OK.match(l) for l in seg)
        size = next((l.rsplit(': ', 1)[1] for l in seg
                     if l.startswith(INIT + 'cat ') and 'linesize' in l), '')
        unloaded = any(l.startswith(INIT + 'rmmod lltest: ok') for l in seg)
        warns = [l for l in seg if WARN_NO_LINES.match(l)]
        crash = [l for l in seg if CRASH.search(l)]
        has = size.isdigit() and int(size) > 0
        source = next((l.rsplit(': ', 1)[1] for l in seg
                       if l.startswith(INIT + 'cat ') and 'linesource' in l), '')
        where = ''
        if v['expect'] == 'warn':
            ok = not has and len(warns) == 1
            # the warning names the section and offset the variant broke,
            # where the manifest can say (else null: truncate, flip)
            if ok and v.get('section') is not None:
                m = WARN_NO_LINES.match(warns[0])
                ok = (m.group(1), int(m.group(2), 16)) == (v['section'], v['offset'])
                where = ', names %s+%s, not %s+%#x' % (m.group(1), m.group(2),
                                                       v['section'], v['offset'])
        elif v['expect'] == 'lines':
            ok = has and not warns
            if ok and v.get('source'):
                ok = source == v['source']
                where = ', line source %r, not %r' % (source, v['source'])
        else:
            ok = (has and not warns) or (not has and len(warns) == 1)
        ok = ok and loaded and unloaded and not crash
        counts['lines'] += has
        counts['warned'] += len(warns) == 1
        if not ok:
            bad.append('%s (%s, expect %s): loaded %s, linesize %r, %d warnings%s%s%s' % (
                v['file'], v['what'], v['expect'], loaded, size, len(warns),
                ', unloaded' if unloaded else ', not unloaded',
                ', ' + crash[0] if crash else '', where))
    judge_linesize(cell, man, seen, a)
    figures['module_variants'] = dict(counts, total=len(man['variants']))
    cell.check('module variants: %d load as specified (seed %s)' % (
        len(man['variants']), man.get('seed')), not bad,
        '%d with a line table, %d with one warning%s' % (
            counts['lines'], counts['warned'], '; ' + '; '.join(bad[:3]) if bad else ''))
    judge_load_cost(cell, lines, a, figures)
    # The module built with each line-table version: its trace's frames
    # agree with addr2line on that very .ko.
    ddir = os.path.join(os.path.dirname(a.variants), 'dwarf')
    for v in man.get('dwarf', []):
        name = 'module line table v%d (%s, %s)' % (v['version'], v['writer'], v['spec'])
        seg = segs.get(v['file'])
        if seg is None or syms is None:
            cell.check(name, False, 'not run' if seg is None else 'no vmlinux symbols')
            continue
        try:
            orc = ModuleOracle(os.path.join(ddir, v['file']), a.addr2line, a.nm, a.objdump, a.thumb)
        except (OSError, subprocess.CalledProcessError) as e:
            cell.check(name, False, str(e))
            continue
        part = lines[seg[0]:seg[1]]
        seen, located, agree, bad = check_frames(part, a, orc, syms)
        fired = any(FIRES.match(l) and FIRES.match(l).group(1) == 'dump_' + v['spec']
                    for l in part)
        cell.check(name + ': frames agree with addr2line', fired and located >= 3 and not bad,
                   '%d/%d of %d%s%s' % (agree, located, seen, '' if fired else ', no marker',
                                        '; ' + '; '.join(bad[:2]) if bad else ''))


def plan_part(lines, path):
    """The console lines of the first load of @path outside the variants'
    loads, up to the rmmod that follows it."""
    skip = set(k for b, e in variant_segments(lines).values() for k in range(b, e))
    start = next((i for i, l in enumerate(lines) if i not in skip and
                  l.startswith(INIT + 'insmod %s: ' % path)), None)
    if start is None:
        return []
    end = next((i for i in range(start, len(lines))
                if lines[i].startswith(INIT + 'rmmod ')), len(lines))
    return lines[start:end]


def judge_sources(cell, lines, a, oracle, syms):
    """Where each load of the test module took its line tables from
    (/sys/module/lltest/linesource): the module as built and as an install
    strips it (strip --strip-debug) from its sections, the one stripped of
    them but keeping .debug_line from .debug_line.  The stripped module's
    trace agrees with addr2line on the unstripped .ko."""
    want = [('/lltest.ko', 'section'), ('/m/lltest-strip.ko', 'section'),
            ('/m/lltest-min.ko', 'debug_line')]
    got = []
    for path, src in want:
        part = plan_part(lines, path)
        have = next((l.rsplit(': ', 1)[1] for l in part
                     if l.startswith(INIT + 'cat /sys/module/lltest/linesource')), None)
        got.append((path, have, src))
    cell.check('module line source: built and installed from the sections, '
               'without them from .debug_line',
               all(h == w for _, h, w in got),
               ', '.join('%s %s' % (f, h) for f, h, _ in got))
    part = plan_part(lines, '/m/lltest-strip.ko')
    if oracle is None or syms is None:
        cell.check('module stripped as installed: frames agree with addr2line', False,
                   'no oracle' if oracle is None else 'no vmlinux symbols')
        return
    seen, located, agree, bad = check_frames(part, a, oracle, syms)
    fired = any(FIRES.match(l) and FIRES.match(l).group(1) == 'dump_strip' for l in part)
    cell.check('module stripped as installed (strip --strip-debug): frames agree with '
               'addr2line on the unstripped .ko', fired and located >= 3 and not bad,
               '%d/%d of %d%s%s' % (agree, located, seen, '' if fired else ', no marker',
                                    '; ' + '; '.join(bad[:2]) if bad else ''))


def judge_load_cost(cell, lines, a, figures):
    """module.line_locations=0 loads the stripped module with no table and
    no warning; loaded again with it on, the table is there.  The mean
    load times (20 loads each, under TCG) of the same module with line
    locations off, decoding its .debug_line, and with its sections are
    figures, with the bytes of .debug_line."""
    param = INIT + 'write /sys/module/module/parameters/line_locations '
    got, times, which = {}, {}, None
    for i, l in enumerate(lines):
        if l.startswith(param) and l.endswith(': start'):
            which = l[len(param):].split(':')[0].strip()
            # the next six steps of init, with whatever the kernel printed
            # between them (a clocksource watchdog on a loaded host)
            steps = [j for j in range(i + 1, len(lines)) if lines[j].startswith(INIT)][:6]
            window = lines[i + 1:steps[-1] + 1] if steps else []
            ins = next((m for m in map(INSMOD_OK.match, window)
                        if m and m.group(1) == '/m/lltest-min.ko' and m.group(2)), None)
            size = next((x.rsplit(': ', 1)[1] for x in window
                         if x.startswith(INIT + 'cat /sys/module/lltest/linesize')), '')
            warned = any(WARN_NO_LINES.match(x) for x in window)
            got[which] = (int(ins.group(2)) if ins else None, size, warned)
        m = LOADTIME.match(l)
        if m and which is not None:
            key = 'lines_off' if which == '0' else \
                'section' if m.group(1) == 'lltest-strip' else 'lines_on'
            times[key] = round(int(m.group(3)) / int(m.group(2)))
    if not got:
        return
    off, on = got.get('0'), got.get('1')
    ok = off and on and off[0] is not None and on[0] is not None and off[1] == '0' and \
        not off[2] and on[1].isdigit() and int(on[1]) > 0
    cell.check('module.line_locations=0: no table, no warning; =1: a table', ok,
               'off %s, on %s' % (off, on))
    cell.check('module load times measured three ways (20 loads each)',
               sorted(times) == ['lines_off', 'lines_on', 'section'],
               ', '.join('%s %s us' % kv for kv in sorted(times.items())))
    if ok:
        ko = os.path.join(os.path.dirname(a.variants), 'lltest-min.ko')
        p = subprocess.run([cells.tool(a.facts, 'readelf'), '-SW', ko],
                           capture_output=True, text=True)
        m = re.search(r'\] \.debug_line\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)', p.stdout)
        figures['module_load_us'] = dict(times, debug_line_bytes=int(m.group(1), 16) if m else 0,
                                         table_bytes=int(on[1]))


def judge_table(cell, a, figures):
    """The line tables linked into vmlinux are the ones the kernel's own
    scripts/lineloc builds from vmlinux, and they agree with its rows
    (lineloc --table-check: every row start, start - 1, every end)."""
    ll = os.path.join(a.rec.get('obj', ''), 'scripts', 'lineloc', 'lineloc')
    linked = os.path.join(a.rec.get('obj', ''), '.tmp_vmlinux.lines.bin')
    again = os.path.join(os.path.dirname(a.out), 'lines.bin')
    strip = [x for s in a.strip for x in ('--strip', s)]
    p = subprocess.run([ll] + strip + ['-o', again, '--kernel-table', a.vmlinux],
                       capture_output=True, text=True)
    same = p.returncode == 0 and os.path.exists(linked) and \
        open(linked, 'rb').read() == open(again, 'rb').read()
    cell.check('line table: the linked table is lineloc\'s table of vmlinux', same,
               p.stderr.strip()[-120:] or '%d bytes' % os.path.getsize(again))
    # the check is the user tool's (the kernel build's lineloc only
    # writes): the project's build of the same sources
    p = subprocess.run([os.path.join(TOP, 'hosttool', 'lineloc')] + strip +
                       ['--table-check', a.vmlinux], capture_output=True, text=True)
    out = (p.stdout + p.stderr).strip().splitlines()
    cell.check('line table: lineloc --table-check', p.returncode == 0,
               out[-1] if out else 'no output (exit %d)' % p.returncode)
    p = subprocess.run([os.path.join(TOP, 'hosttool', 'lineloc')] + strip +
                       ['--table-size', a.vmlinux], capture_output=True, text=True)
    m = re.search(r'table: (\d+) rows, (\d+) bytes', p.stdout)
    if m:
        figures['table_rows'], figures['table_bytes'] = int(m.group(1)), int(m.group(2))


def judge_stack(cell, a, figures):
    """The stack of the line lookup in a backtrace (matrix/stack_usage.py):
    the lookup path's objects compiled again from the O= folder's kbuild
    commands with -fstack-usage, the deepest chain of a %pBl from printk's
    vsnprintf() within the bounds, no frame of it unbounded."""
    name = 'stack: the line lookup path uses at most %d bytes from vsnprintf(), ' \
        '%d below symbol_string() (-fstack-usage)' % (stack_usage.BOUND,
                                                      stack_usage.LOOKUP_BOUND)
    try:
        r = stack_usage.measure(a.obj or '')
    except (stack_usage.Error, OSError) as e:
        cell.check(name, False, 'not measured: %s' % e)
        return
    ok, detail = stack_usage.verdict(r)
    cell.check(name, ok, detail)
    figures['lookup_stack_bytes'] = r['bytes']


def judge_common(cell, lines, a, figures):
    """Checks of both variants beyond the triggers: LKDTM, test_printf,
    KUnit, and the figures the boot prints."""
    for crash in a.plan.lkdtm():
        judge_lkdtm(cell, lines, crash)
    tp = [l for l in lines if l.startswith('test_printf: ')]
    want = int(a.facts.get('PRINTF_TESTS') or 0)
    cell.check('test_printf: all %d tests passed' % want,
               'test_printf: all %d tests passed' % want in tp,
               next((l for l in tp if 'passed' in l or 'failed' in l), 'no result'))
    # KTAP through the tree's own parser: the suite, then each of its cases
    try:
        suites = kunit_results(lines, a.src)
    except ImportError as e:
        suites = None
        cell.check('KUnit %s' % KUNIT_SUITE, False, str(e))
    expected = kunit_expected()
    for suite in (KUNIT_SUITE, KUNIT_MODULE_SUITE) if suites is not None else ():
        status, cases = suites.get(suite, ('not seen', []))
        cell.check('KUnit %s' % suite, status == 'SUCCESS' and cases,
                   '%s, %d cases' % (status, len(cases)))
        names = [n for n, _ in cases]
        want = expected.get(suite, [])
        cell.check('KUnit %s: the expected cases, in order' % suite, names == want,
                   '%d cases' % len(names) if names == want else
                   'ran %s; %s lists %s' % (' '.join(names) or 'none',
                                            os.path.relpath(KUNIT_CASES, TOP),
                                            ' '.join(want) or 'none'))
        # with the vmlinux option off, its cases that need line locations
        # skip; the module suite runs whole in both configurations
        for name, st in cases:
            cell.check('KUnit %s: %s' % (suite, name),
                       st == 'SUCCESS' or (st == 'SKIPPED' and not a.lines_on and
                                           suite == KUNIT_SUITE), st)
    for l in lines:
        m = COSTS.search(l)
        if m:
            figures['lookup_name_ns'], figures['on_each_symbol_us'], \
                figures['sprint_backtrace_ns'], figures['line_lookup_ns'] = map(int, m.groups()[:4])
            if m.group(5):
                figures['kallsyms_lookup_ns'] = int(m.group(5))
                figures['line_lookup_ratio'] = float(m.group(6))
        m = MEMORY.search(l)
        if m:
            figures['memory_available_k'], figures['memory_total_k'] = int(m.group(1)), int(m.group(2))
            figures['kernel_code_k'], figures['rwdata_k'], figures['rodata_k'], \
                figures['init_k'] = map(int, m.groups()[2:])
        m = READ_KALLSYMS.match(l)
        if m:
            figures['proc_kallsyms_lines'], figures['proc_kallsyms_read_us'] = \
                int(m.group(2)), int(m.group(3))
    if a.vmlinux:
        out = subprocess.run([a.size, a.vmlinux], capture_output=True, text=True).stdout.split('\n')
        if len(out) > 1 and out[1].split():
            t, d, b = out[1].split()[:3]
            figures['text'], figures['data'], figures['bss'] = int(t), int(d), int(b)
        if a.image and os.path.exists(a.image):
            figures['image'] = os.path.getsize(a.image)
    # /proc/kallsyms without addresses, for the comparison of the variants
    listing = kallsyms_listing(lines)
    if a.out and listing is not None:
        with open(os.path.join(os.path.dirname(a.out), 'kallsyms.txt'), 'w') as f:
            f.write('\n'.join(listing) + '\n')


KUNIT_CASES = os.path.join(TOP, 'matrix', 'data', 'kunit-cases.txt')


def kunit_expected():
    """{suite: [case, ...]} from matrix/data/kunit-cases.txt."""
    out = {}
    with open(KUNIT_CASES) as f:
        for l in f:
            if l.strip() and not l.startswith('#'):
                suite, case = l.split()
                out.setdefault(suite, []).append(case)
    return out


def judge_record(cell, a):
    """The record has what its plan needs: a vmlinux always, the test
    module where the plan loads it, the variants manifest where the plan
    loads variants.  Without them a cell would be judged on markers alone."""
    need = [('vmlinux', a.vmlinux)]
    if a.plan.has('insmod /lltest.ko'):
        need.append(('module', a.module))
    if a.plan.has('variants /m '):
        need.append(('variants manifest', a.variants))
    missing = ['%s (%s)' % (what, path or 'not in the record') for what, path in need
               if not path or not os.path.exists(path)]
    cell.check('record: the artifacts the plan needs (%s)' % ', '.join(w for w, _ in need),
               not missing, 'missing: ' + ', '.join(missing) if missing else '')


def judge_hardened(cell, lines, a, figures):
    """The hardened configuration (KCONFIG=hardened): KASAN, kmemleak,
    lockdep and both CPUs announce themselves; no KASAN report at all; the
    checkers' reports are kept (figures 'splats') for merge() to hold
    against the baseline boot.  With a cycle step: every load and unload
    ran while the reader read /proc/kallsyms, and lltest_race looked up
    locations on the other CPU, found some and saw every load."""
    missing = [k for k, rx in ARMED.items() if not any(rx.search(l) for l in lines)]
    cell.check('hardened: KASAN, kmemleak, lockdep and 2 CPUs are on', not missing,
               'not announced: ' + ', '.join(missing) if missing else '')
    found = splats(lines)
    figures['splats'] = found
    figures['rcu_stalls'] = sum(bool(RCU_STALL.search(l)) for l in lines)
    kasan = [x for x in found if x.startswith('kasan: ')]
    cell.check('hardened: no KASAN report', not kasan, '; '.join(kasan[:3]))
    # the holds: each table whose life ends, held across that end
    for step, init, name in (('insmod /lltest_race.ko hold=1', False,
                              'races: an unload waits for a lookup holding the table'),
                             ('insmod /lltest_race.ko hold_init=1', True,
                              "races: init's end waits for a lookup holding the init table")):
        if not a.plan.has(step):
            continue
        held = next((m for m in map(HOLD.search, lines) if m and bool(m.group(2)) == init),
                    None)
        cell.check(name, held and held.group(4).startswith('read 0x'),
                   held.group(0) if held else 'no lltest_race hold line')
    want = a.plan.cycles()
    if want is None:
        return
    cyc = next((m for m in map(CYCLE.match, lines) if m), None)
    reads = next((m for m in map(CYCLE_READER.match, lines) if m), None)
    race = next((m for m in map(RACE.search, lines) if m), None)
    cell.check('races: %d loads and unloads while /proc/kallsyms is read' % want,
               cyc and int(cyc.group(2)) == want and reads and int(reads.group(1)) > 0,
               '%s loads in %s ms, %s reads' % (cyc and cyc.group(2), cyc and cyc.group(3),
                                                reads and reads.group(1)))
    if race:
        lookups, located, loads, cpu = map(int, race.groups())
        figures['races'] = {'cycles': int(cyc.group(2)) if cyc else 0,
                            'cycle_ms': int(cyc.group(3)) if cyc else 0,
                            'kallsyms_reads': int(reads.group(1)) if reads else 0,
                            'lookups': lookups, 'located': located, 'loads_seen': loads}
    cell.check('races: lookups on the other CPU saw every load and found locations',
               race and int(race.group(4)) == 1 and int(race.group(3)) == want and
               int(race.group(2)) > 0,
               race.group(0) if race else 'no lltest_race summary')


def hold_splats(cell, b, v, figures):
    """A hardened boot may print no report that its baseline did not."""
    new = sorted(set(figures[v].get('splats', [])) - set(figures[b].get('splats', [])))
    cell.check('%s: no report beyond %s (KASAN, oops, lockdep, RCU, kmemleak)' % (v, b),
               not new, '%d reports, %d in the baseline%s' % (
                   len(set(figures[v].get('splats', []))),
                   len(set(figures[b].get('splats', []))),
                   '; new: ' + '; '.join(new[:4]) if new else ''))


def hold_kallsyms(cell, b, v, lists):
    """/proc/kallsyms lists the same (type, name) sequence in @b and @v
    but for the series' own functions (EXTRA)."""
    off, on = lists.get(b) or [], lists.get(v) or []
    allowed = [l.strip() for l in open(EXTRA) if l.strip() and not l.startswith('#')]

    def name(l):
        return l.split()[1] if len(l.split()) > 1 else ''

    def ok_name(n):
        return any(fnmatch.fnmatchcase(n.split('.')[0], pat) for pat in allowed)
    diff = []
    sm = difflib.SequenceMatcher(None, off, on, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op != 'equal':
            diff += ['-' + l for l in off[i1:i2]] + ['+' + l for l in on[j1:j2]]
    bad = [d for d in diff if not ok_name(name(d[1:]))]
    cell.check('/proc/kallsyms: %s and %s list the same (type, name) sequence' % (b, v),
               len(off) > 100 and not bad,
               '%d lines %s, %d %s; differences (all the series\' own functions): %s%s' % (
                   len(off), b, len(on), v, ' '.join(d.replace(' ', '') for d in diff) or 'none',
                   '; NOT ALLOWED: ' + ' '.join(bad[:8]) if bad else ''))


def merge(out, paths, seconds):
    """One cell from its configurations' results, and the checks between
    them."""
    parts = []
    for p in paths:
        r = cells.read_result(p)
        parts.append((r['config'], r, os.path.dirname(p)))
    arch = parts[0][1]['arch']
    cell = Cell(arch)
    checks, figures = [], {}
    for v, r, _ in parts:
        checks += [dict(c, name='%s: %s' % (v, c['name'])) for c in r['checks']]
        figures[v] = r.get('figures', {})
    lists = {}
    for v, _, d in parts:
        try:
            with open(os.path.join(d, 'kallsyms.txt')) as f:
                lists[v] = f.read().split('\n')
        except OSError:
            lists[v] = None
    # Each configuration against its baseline (facts BASELINE and
    # BASELINE_CHECK) when both were judged: a configuration that stopped
    # at a stage is red by its own result already.
    judged = {v for v, r, _ in parts if r['build'] == 'ok' and r['boot'] == 'ok'}
    for v, _, _ in parts:
        facts = cells.load_arch(arch, v)
        b, how = facts.get('BASELINE'), facts.get('BASELINE_CHECK')
        if not b or not {b, v} <= judged:
            continue
        if how == 'splats':
            hold_splats(cell, b, v, figures)
        elif how == 'kallsyms':
            hold_kallsyms(cell, b, v, lists)
    checks += cell.checks
    boot = next((r['boot'] for _, r, _ in parts if r['boot'] != 'ok'), 'ok')
    build = next((r['build'] for _, r, _ in parts if r['build'] != 'ok'), 'ok')
    reason = next((r['reason'] for _, r, _ in parts if r['reason']), '')
    res = cells.result(arch, '+'.join(v for v, _, _ in parts), checks, figures,
                       build=build, boot=boot, reason=reason,
                       seconds=seconds)
    cells.write_result(out, res)
    return 0 if res['green'] else 1


class Run:
    """What the judge knows of a boot: its cell record (qemu/boot.py wrote
    it) and the arch facts the record carries."""

    def __init__(self, rec, out):
        self.rec, self.out = rec, out
        self.facts = rec['facts']
        self.arch, self.variant = rec['arch'], rec['config']
        # line locations on: the configuration's LINES (a record without
        # it is one of the two classic configurations, named after it)
        self.lines_on = self.facts.get('LINES', self.variant) == 'on'
        self.console = rec['console']
        self.plan = Plan(cells.resolve_path(rec.get('plan') or '') or None)
        self.module = rec.get('module') or None
        self.variants = rec.get('variants') or None
        self.vmlinux = rec.get('vmlinux') or None
        self.image = rec.get('image') or None
        self.strip = rec.get('strip', [])
        self.src = rec.get('src', '')
        self.obj = rec.get('obj', '')
        self.qemu_rc, self.timed_out = rec.get('qemu_rc', 0), rec.get('timed_out', False)
        self.timeout, self.missing = rec.get('timeout', 0), rec.get('missing', '')
        self.seconds = rec.get('seconds', 0)
        self.nm, self.addr2line = cells.tool(self.facts, 'nm'), cells.tool(self.facts, 'addr2line')
        self.objdump, self.size = cells.tool(self.facts, 'objdump'), cells.tool(self.facts, 'size')
        self.thumb = bool(self.facts['THUMB'])
        self.warn_pc = self.facts['WARN_PC']
        # a recorded log judged alone (tests/judge): no artifacts to ask for
        self.console_only = False


def boot_verdict(a, lines):
    """Why the boot failed, or '' for a boot that reached the success
    marker and restarted the guest by itself."""
    init_lines = [l for l in lines if l.startswith(INIT)]
    last_init = init_lines[-1] if init_lines else None
    panics = [l for l in lines if PANIC.search(l)]
    success = [i for i, l in enumerate(lines) if l == SUCCESS]
    if a.missing:
        return '%s not found (scripts/install-deps.sh installs it)' % a.missing
    if a.timed_out:
        reason = 'QEMU timed out after %ds' % a.timeout
        if not lines:
            reason += ', no console output (wrong console?)'
        elif last_init:
            reason += ', last init line: ' + last_init[len(INIT):]
        else:
            reason += ', init never spoke; last line: ' + lines[-1][:80]
        return reason
    if panics:
        return 'unplanned panic: ' + panics[0][:100]
    if not lines:
        return 'no console output (QEMU exit %d)' % a.qemu_rc
    if not success:
        return 'success marker not reached; last init line: %s' % (
            last_init[len(INIT):] if last_init else '(none)')
    if not any(RESTART.search(l) for l in lines[success[0]:]):
        return 'no guest restart after the success marker'
    if a.qemu_rc != 0:
        return 'QEMU exited %d' % a.qemu_rc
    return ''


def judge(a):
    cell = Cell(a.arch)
    try:
        lines = read(a.console)
    except OSError as e:
        lines = []
        print('[%s] cannot read console log: %s' % (a.arch, e))
    reason = boot_verdict(a, lines)
    cell.check('boot', not reason, reason or 'marker reached, guest restarted')
    boot = 'ok' if not reason else ('timeout' if a.timed_out else 'FAIL')
    if not a.console_only:
        judge_record(cell, a)

    oracle = None
    if a.module:
        try:
            oracle = ModuleOracle(a.module, a.addr2line, a.nm, a.objdump, a.thumb)
        except (OSError, subprocess.CalledProcessError) as e:
            cell.check('module symbols', False, str(e))
    syms = Symbols(a.vmlinux, a.nm) if a.vmlinux else None
    triggers = a.plan.triggers()
    for name in triggers:
        judge_trigger(cell, lines, name, oracle, a, syms)
    if syms and a.plan.has('writesym '):
        judge_loc(cell, lines, a, syms)
    figures = {}
    if a.vmlinux and a.plan and lines:
        judge_textlocs(cell, lines, a, figures)
    if lines:
        judge_common(cell, lines, a, figures)
    if a.vmlinux and lines:
        if triggers:
            judge_module_frames(cell, lines, a, oracle, syms, figures)
        if a.plan.has('variants /m '):
            judge_variants(cell, lines, a, figures, syms)
        if a.plan.has('insmod /m/lltest-strip.ko tag=_strip'):
            judge_sources(cell, lines, a, oracle, syms)
        if a.facts.get('HARDENED') == 'y':
            judge_hardened(cell, lines, a, figures)
        if a.lines_on:
            if triggers or a.plan.lkdtm():
                judge_locations(cell, lines, a, figures)
            judge_table(cell, a, figures)
            # the bound is for the kernel as configured for use, not
            # for a KASAN build (KCONFIG=hardened), whose frames grow
            if not a.facts.get('KCONFIG'):
                judge_stack(cell, a, figures)
        else:
            loc = [l for l in lines if (m := LOCATED.search(l)) and m.group(4) != 'lltest']
            cell.check('no vmlinux locations with the option off', not loc,
                       loc[0] if loc else '')
    floor = int(a.facts.get('MIN_CHECKS') or 0)
    cell.check('floor: at least %d checks judged (MIN_CHECKS)' % floor,
               len(cell.checks) >= floor, '%d checks' % len(cell.checks))
    res = cells.result(a.arch, a.variant, cell.checks, figures, boot=boot,
                       seconds=a.seconds, reason=reason)
    cells.write_result(a.out, res)
    return 0 if res['green'] else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('record', nargs='?', help='the cell record (cell.json) of one boot')
    ap.add_argument('--out', help='the result (default: result.json beside the record)')
    ap.add_argument('--merge', nargs='+', metavar='RESULT',
                    help='merge the configurations\' results of one cell into --out')
    ap.add_argument('--seconds', type=int, default=0, help='with --merge: the cell\'s time')
    ap.add_argument('--console-only', action='store_true',
                    help='judge a recorded console log without the artifacts its plan '
                    'needs (the judge\'s self-test)')
    a = ap.parse_args()
    if a.merge:
        if not a.out or a.record:
            ap.error('--merge takes --out and no record')
        return merge(a.out, a.merge, a.seconds)
    if not a.record:
        ap.error('no cell record')
    rec = cells.read_record(a.record)
    run = Run(rec, a.out or os.path.join(os.path.dirname(a.record), 'result.json'))
    run.console_only = a.console_only
    return judge(run)


if __name__ == '__main__':
    sys.exit(main())
