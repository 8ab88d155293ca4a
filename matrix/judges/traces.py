# SPDX-License-Identifier: GPL-2.0
"""The plan's triggers and the frames of their traces: each trigger's
marker, its backtrace (the module's call chain, in order) and the source
line it announced, confirmed by an oracle on the module; the probe's
interrupted pc; lltest's %pSl lines (loc, textlocs); LKDTM's crashes; and
every vmlinux frame printed with a location against llvm-symbolizer."""
from collections import namedtuple

from console import (AT, FIRES, FRAME, INIT, LKDTM_ENTRY, LKDTM_REPORT, LOC, LOCATED, OOPS,
                     WARNING, fault_pc, inlines_before, trace_frames)
from oracles import (Symbols, chain_differs, module_strip, strip_path, symbolize,
                     symbolize_chains, symbolize_outer)


def vmlinux_locations(a, addrs):
    """What the kernel prints for each address of vmlinux, by the oracle:
    llvm-symbolizer's line, or with the chains of inlined calls on
    (a.inlines_on) its line in the function the symbol names."""
    return (symbolize_outer if a.inlines_on else symbolize)(a.vmlinux, addrs, a.strip)


# A vmlinux frame of a trace: its console line's index, sym+off/size, whether
# it is looked up as is (a faulting or interrupted pc), its printed location.
Frame = namedtuple('Frame', 'line sym off size exact printed')
CHAIN = ['lltest_fire', 'lltest_chain_b', 'lltest_chain_a', 'lltest_write']


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
            want = vmlinux_locations(a, [addr])[0] if addr is not None else None
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
    oracle = vmlinux_locations(a, [addr for addr, _ in got])
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
    """LKDTM's @crash was performed once and its report follows: in the
    kernel's lines after it, up to LKDTM's next entry or the test module's
    next trigger.  The init's lines do not end it: a report printed in NMI
    context (6.12's riscv runs a kernel-mode ebreak as one) reaches the
    console only after the writer has returned and the init has gone on."""
    start = [i for i, l in enumerate(lines)
             if l.endswith('lkdtm: Performing direct entry %s' % crash)]
    if not cell.check('lkdtm %s: performed' % crash, len(start) == 1,
                      'seen %d times' % len(start)):
        return
    seg = []
    for l in lines[start[0] + 1:]:
        if LKDTM_ENTRY.search(l) or FIRES.match(l):
            break
        if not l.startswith(INIT):
            seg.append(l)
    rep = next((l for l in seg if LKDTM_REPORT[crash].search(l)), None)
    cell.check('lkdtm %s: report' % crash, rep is not None, rep or 'no report')


def judge_inlines(cell, lines, a, frames, addrs, figures, chains=None):
    """With the chains of inlined calls on, each located frame of vmlinux
    and the "[inline]" lines printed before it are llvm-symbolizer's chain
    at its address (oracles.chain_differs: every level's path:line, every
    inlined level's name), and some frame is two levels deep or more;
    without them, no "[inline]" line is printed."""
    printed = [inlines_before(lines, f.line) for f in frames]
    if not a.inlines_on:
        n = sum(1 for p in printed if p)
        cell.check('inlined calls: none printed with the option off', n == 0,
                   '%d frames with "[inline]" lines' % n)
        return
    known = [(f, p, x) for f, p, x in zip(frames, printed, addrs)
             if x is not None and f.printed]
    if chains is None:      # llvm-symbolizer's, by address
        want = [x for _, _, x in known]
        chains = dict(zip(want, symbolize_chains(a.vmlinux, want, a.strip)))
    chains = [chains[x] for _, _, x in known]
    bad, inlined, deep = [], 0, 0
    for (f, p, _), theirs in zip(known, chains):
        why = chain_differs(p + [(f.sym, f.printed)], theirs)
        if why:
            bad.append('%s+%#x: %s' % (f.sym, f.off, why))
        elif p:
            inlined += 1
            deep += len(p) >= 2
    figures['frames']['inlined'] = inlined
    figures['frames']['inlined_2deep'] = deep
    cell.check('inlined calls: every located frame\'s chain is llvm-symbolizer\'s',
               known and not bad and len(chains) == len(known),
               '%d of %d agree, %d inside inlined code%s' % (
                   len(known) - len(bad), len(known), inlined,
                   '; ' + '; '.join(bad[:3]) if bad else ''))
    cell.check('inlined calls: a frame two levels deep or more, agreeing', deep > 0,
               '%d such frames' % deep)


def judge_locations(cell, lines, a, figures):
    """Every frame printed with a location agrees with llvm-symbolizer on
    vmlinux at the same address: the address itself for a faulting PC, the
    call (- 1, Thumb bit dropped) for a return address; with the chains of
    inlined calls, the location in the function the symbol names, and the
    chain (judge_inlines).  Frames of vmlinux under the module's triggers
    are located."""
    syms = Symbols(a.vmlinux, a.nm)
    frames = []
    for i, m, exact in trace_frames(lines, a.facts, syms.in_entry_text):
        if m.group(4):          # a module frame: not located yet
            continue
        loc = LOCATED.match(lines[i], m.start())
        frames.append(Frame(i, m.group(1), int(m.group(2), 16), int(m.group(3), 16), exact,
                           '%s:%s' % (loc.group(5), loc.group(6)) if loc else None))
    addrs = []
    for f in frames:
        base = syms.address(f.sym, f.off, f.size)
        if base is not None and not f.exact:
            base = (base & ~1 if a.thumb else base) - 1
        addrs.append(base)
    known = [x for x in addrs if x is not None]
    # with the chains on, llvm-symbolizer --inlining runs once for both
    # the frames' lines (the outermost level) and judge_inlines()
    chains = dict(zip(known, symbolize_chains(a.vmlinux, known, a.strip))) \
        if a.inlines_on else None
    answers = {x: c[-1][1] if c else '??:0' for x, c in chains.items()} if chains \
        is not None else dict(zip(known, vmlinux_locations(a, known)))
    located = agree = unlocated_known = 0
    bad = []
    for f, addr in zip(frames, addrs):
        want = answers.get(addr) if addr is not None else None
        if f.printed:
            located += 1
            if want == f.printed:
                agree += 1
            else:
                bad.append('%s+%#x: printed %s, llvm-symbolizer %s' % (f.sym, f.off, f.printed, want))
        elif want and not want.startswith('??'):
            unlocated_known += 1
            bad.append('%s+%#x: no location printed, llvm-symbolizer %s' % (f.sym, f.off, want))
    figures['frames'] = {'seen': len(frames), 'located': located, 'agreeing': agree}
    print('[%s] frames: %d seen, %d located, %d agreeing with llvm-symbolizer' % (
        a.arch, len(frames), located, agree))
    cell.check('locations agree with llvm-symbolizer', located > 0 and agree == located,
               '%d/%d%s' % (agree, located, '; ' + '; '.join(bad[:3]) if bad else ''))
    cell.check('every frame llvm-symbolizer can place is located', unlocated_known == 0,
               '%d not located' % unlocated_known)
    judge_inlines(cell, lines, a, frames, addrs, figures, chains)
    # The faulting PC of LKDTM's EXCEPTION and BUG: the faulting line itself.
    for crash in ('EXCEPTION', 'BUG'):
        start = [i for i, l in enumerate(lines) if l.endswith('performing direct entry %s' % crash)
                 or l.endswith('Performing direct entry %s' % crash)]
        if not start:
            continue
        pcs = [f for f in frames if f.line > start[0] and f.exact]
        ok = bool(pcs) and pcs[0].printed is not None and pcs[0].printed == answers.get(
            syms.address(pcs[0].sym, pcs[0].off, pcs[0].size))
        cell.check('lkdtm %s: faulting PC located' % crash, ok,
                   '%s+%#x (%s)' % (pcs[0].sym, pcs[0].off, pcs[0].printed) if pcs else 'no PC frame')
