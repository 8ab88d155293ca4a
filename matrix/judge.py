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

INIT = 'lltest-init: '
SUCCESS = INIT + 'ALL DONE'
RESTART = re.compile(r'reboot: (Restarting system|Power down)')
PANIC = re.compile(r'Kernel panic - not syncing')
TIMESTAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
FIRES = re.compile(r'^lltest: (\w+) fires at (\S+):(\d+)$')
# sym+0xoff/0xsize [module]: how %pS, %pSb, %pB and %pBb print a frame.
FRAME = re.compile(r'([A-Za-z_.$][\w.$]*)\+0x([0-9a-f]+)/0x([0-9a-f]+)(?: \[(\w+)\])?')
WARNING = re.compile(r'WARNING: CPU: \d+ PID: \d+ at (\S+):(\d+) ' + FRAME.pattern)
# Where each arch's oops report prints the faulting PC.
FAULT_PC = re.compile(r'(?:RIP: [0-9a-f]{4}:|EIP: |pc : |PC is at )' + FRAME.pattern)
# x86 "Oops: 0002 [#1]", arm64 "Internal error: Oops: ... [#1]", arm
# "Internal error: Oops: 805 [#1]" or, for a domain fault, "Internal error: : 81b [#1]".
OOPS = re.compile(r'(\bOops: |Internal error: ).*\[#\d+\]')
CHAIN = ['lltest_fire', 'lltest_chain_b', 'lltest_chain_a', 'lltest_write']
TRIGGER_WRITE = re.compile(r'^write /sys/kernel/debug/lltest/(\w+) ')
LKDTM_WRITE = re.compile(r'^write /sys/kernel/debug/provoke-crash/DIRECT (\w+)')
# A frame with its source location: sym+0xoff/0xsize [module] (path:line)
LOCATED = re.compile(FRAME.pattern + r' \(([^()\s]+):(\d+)\)')
# The lines of a backtrace: a frame alone (x86, arm64: "? " marks a guess),
# or arm's "callee [mod] from caller+off/size [mod]".
TRACE_LINE = re.compile(r'^\s*(?:\? )?(?:[\w.$]+(?: \[\w+\])? from )?(?=[A-Za-z_.$][\w.$]*\+0x)')
# What each LKDTM crash type must produce, whatever the arch.
LKDTM_REPORT = {'WARNING': re.compile(r'WARNING: CPU'),
                'EXCEPTION': OOPS,
                'BUG': re.compile(r'kernel BUG at')}
KUNIT_SUITE = 'kallsyms_line_loc'
COSTS = re.compile(r'kallsyms costs: lookup_name (\d+) ns, on_each_symbol walk (\d+) us, '
                   r'sprint_backtrace (\d+) ns')
MEMORY = re.compile(r'Memory: (\d+)K/(\d+)K available \((\d+)K kernel code, (\d+)K rwdata, '
                    r'(\d+)K rodata, (\d+)K init')
READ_KALLSYMS = re.compile(r'^lltest-init: read /proc/kallsyms: (\d+) bytes, (\d+) lines in (\d+) us')
# The series' own functions: the only lines that /proc/kallsyms may gain
# when CONFIG_KALLSYMS_LINE_LOCATIONS is turned on (matrix/kallsyms-extra.txt).
EXTRA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'kallsyms-extra.txt')


class Cell:
    def __init__(self, arch):
        self.arch = arch
        self.checks = []

    def check(self, name, ok, detail=''):
        self.checks.append({'name': name, 'ok': bool(ok), 'detail': detail})
        print('[%s] %s %s%s' % (self.arch, 'ok  ' if ok else 'FAIL', name,
                                ': ' + detail if detail else ''))
        return ok


def clean(lines):
    return [TIMESTAMP.sub('', l.rstrip('\r\n')) for l in lines]


def planned_triggers(plan):
    out = []
    with open(plan) as f:
        for line in f:
            m = TRIGGER_WRITE.match(line.strip())
            if m:
                out.append(m.group(1))
    return out


def is_subsequence(want, seq):
    it = iter(seq)
    return all(any(x == w for x in it) for w in want)


class Oracle:
    """Source line of a module address: the target's addr2line -j .text
    (it applies the target's REL/RELA relocations) and llvm-symbolizer."""

    def __init__(self, ko, addr2line, nm, thumb):
        self.ko, self.addr2line = ko, addr2line
        self.syms = {}
        self.text = []          # (value, name) of the functions in .text
        out = subprocess.run([nm, '--defined-only', ko], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'tT':
                # a Thumb function's symbol carries bit 0; elsewhere (x86
                # at -Os) a function may start at an odd address
                self.syms[parts[2]] = int(parts[0], 16) & ~(1 if thumb else 0)
        objdump = nm[:-2] + 'objdump' if nm.endswith('nm') else 'objdump'
        out = subprocess.run([objdump, '-t', ko], capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r'^([0-9a-f]+) .{6}F \.text\s+[0-9a-f]+ (\S+)$', line)
            if m:
                self.text.append((int(m.group(1), 16) & ~(1 if thumb else 0), m.group(2)))

    def function_at(self, addr):
        """The .text function that holds offset @addr, or None."""
        below = [x for x in self.text if x[0] <= addr]
        return max(below)[1] if below else None

    @staticmethod
    def _first(out):
        line = out.strip().splitlines()[0] if out.strip() else '??:0'
        return re.sub(r' \(discriminator \d+\)$', '', line)

    def lookup(self, sym, off, back, thumb):
        """Line of sym+off; back=1 for a return address, which is looked
        up at the call: at - 1, after dropping the Thumb bit that a Thumb
        return address carries (else - 1 lands on the next instruction)."""
        if sym not in self.syms:
            return None, None, None
        addr = self.syms[sym] + off
        if back:
            addr = (addr & ~1 if thumb else addr) - 1
        a2l = self._first(subprocess.run(
            [self.addr2line, '-e', self.ko, '-j', '.text', '%#x' % addr],
            capture_output=True, text=True).stdout)
        llvm = subprocess.run(
            ['llvm-symbolizer', '--obj=' + self.ko, '--output-style=GNU',
             '--no-inlines', '--functions=none', '%#x' % addr],
            capture_output=True, text=True).stdout
        return addr, a2l, self._first(llvm)


def trace_frames(lines, syms, interrupted_pc, first_frame_pc):
    """The frames that lines print, in order: (line index, match, exact),
    exact for a pc looked up as is, else a return address (looked up at
    the call).  A pc is: a faulting-PC line (x86 RIP:/EIP:, arm64 pc :,
    arm PC is at), the first frame of an arm64 trace from registers, and,
    where the arch prints the interrupted pc as a trace frame
    (interrupted_pc == 'trace': arm, arm64), the frame after exception
    entry code.  On arm a line "callee from caller" follows the callee."""
    out = []
    pc_seen = first_exact = False
    prev = None             # the function the walk was in just before
    for i, l in enumerate(lines):
        if 'pc : ' in l:
            pc_seen = True
        if re.search(r'Call [Tt]race:', l):
            first_exact, pc_seen, prev = first_frame_pc and pc_seen, False, None
            continue
        pcl = FAULT_PC.search(l)
        if pcl:
            m = FRAME.search(l, pcl.start() + pcl.group(0).index(pcl.group(1)))
            if m:
                out.append((i, m, True))
            continue
        t = TRACE_LINE.match(l)
        m = FRAME.match(l, t.end()) if t else None
        if not m:
            continue
        callee = re.match(r'^\s*(?:\? )?([\w.$]+)(?: \[\w+\])? from ', l)
        if callee:
            prev = callee.group(1)
        exact = first_exact or (interrupted_pc == 'trace' and prev is not None and
                                syms.in_entry_text(prev))
        first_exact = False
        out.append((i, m, exact))
        prev = m.group(1)
    return out


def judge_interrupted(cell, seg, syms, oracle, a):
    """The probe trigger's backtrace crosses the breakpoint exception: the
    frame after it is the pc where the probe hit, at the first instruction
    of a function (lltest_probed, or lltest_target where the branch was
    simulated before the handler ran); it must print as that pc, and the
    check must be able to fail: the pc - 1 lies in another function."""
    frames = [(m, exact) for _, m, exact in trace_frames(seg, syms, a.interrupted_pc,
                                                         a.first_frame_pc)
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
    cell.check('%s: backtrace' % name, is_subsequence(CHAIN, frames),
               '%d frames, chain %s' % (len(frames),
                                        'in order' if is_subsequence(CHAIN, frames)
                                        else 'missing: want %s in %s' % (CHAIN, frames[:12])))

    # The frame whose source line the trigger announced, and how to look it
    # up: a faulting PC as is, a return address at - 1 (the call).
    pick = None
    if name == 'warn':
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
        pcs = [FAULT_PC.search(l) for l in seg]
        pcs = [x for x in pcs if x]
        if cell.check('%s: faulting PC' % name, pcs and pcs[0].group(1) == CHAIN[0],
                      pcs[0].group(0) if pcs else 'no faulting-PC line'):
            pick = (pcs[0].group(1), int(pcs[0].group(2), 16), 0)
    else:
        for l in seg:
            f = FRAME.search(l.split(' from ')[-1])
            if f and f.group(1) == CHAIN[0]:
                pick = (f.group(1), int(f.group(2), 16), 1)
                break
        cell.check('%s: return address in %s' % (name, CHAIN[0]), pick is not None)
        if name == 'probe' and syms:
            judge_interrupted(cell, seg, syms, oracle, a)
        if name == 'saved' and a.variant == 'on':
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
    ok = a2l == where and (llvm == where or llvm.startswith('??'))
    cell.check('%s: source line' % name, ok, detail)


LOC = re.compile(r'^lltest: loc ' + FRAME.pattern)


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
        if a.variant == 'on':
            addr = syms.address(m.group(1), int(m.group(2), 16), int(m.group(3), 16))
            want = symbolize(a.vmlinux, [addr], a.strip)[0] if addr is not None else None
            cell.check('loc: vfs_write located as is', loc is not None and loc == want,
                       'printed %s, llvm-symbolizer %s' % (loc, want))
    cell.check('loc: both addresses printed', len(got) == 2, ' '.join(sorted(got)))


def planned_lkdtm(plan):
    with open(plan) as f:
        return [m.group(1) for m in (LKDTM_WRITE.match(l.strip()) for l in f) if m]


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


class Symbols:
    """vmlinux's text symbols, to turn sym+off/size back into an address."""

    def __init__(self, vmlinux, nm):
        out = subprocess.run([nm, '-n', '--defined-only', vmlinux], capture_output=True,
                             text=True, check=True).stdout
        syms = []
        marks = {}
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2] in ('__entry_text_start', '__entry_text_end'):
                marks[parts[2]] = int(parts[0], 16)
            if len(parts) == 3 and parts[1] in 'tTwW':
                syms.append((int(parts[0], 16), parts[2]))
        self.entry = (marks.get('__entry_text_start', 0), marks.get('__entry_text_end', 0))
        self.by_name = {}
        addrs = sorted(set(a for a, _ in syms))
        nxt = {a: b for a, b in zip(addrs, addrs[1:])}
        for a, n in syms:
            self.by_name.setdefault(n, []).append((a, nxt.get(a, a) - a))

    def in_entry_text(self, name):
        """Is the function @name exception entry code (.entry.text)?"""
        cands = self.by_name.get(name, [])
        return any(self.entry[0] <= a < self.entry[1] for a, _ in cands)

    def address(self, name, off, size):
        cands = self.by_name.get(name, [])
        if len(cands) > 1:
            cands = [c for c in cands if c[1] == size] or cands
        return cands[0][0] + off if len(cands) == 1 else None


def symbolize(vmlinux, addrs, strip):
    """llvm-symbolizer's path:line of each address, paths made relative
    to the source tree as the kernel prints them."""
    if not addrs:
        return []
    p = subprocess.run(['llvm-symbolizer', '--obj=' + vmlinux, '--output-style=GNU',
                        '--no-inlines', '--functions=none'],
                       input=''.join('%#x\n' % a for a in addrs), capture_output=True, text=True)
    out = []
    for line in p.stdout.splitlines():
        line = re.sub(r' \(discriminator \d+\)$', '', line.strip())
        path, _, num = line.rpartition(':')
        path = os.path.normpath(path) if path not in ('??', '') else '??'
        for pre in strip:
            if path.startswith(pre):
                path = path[len(pre):]
                break
        out.append('%s:%s' % (path, num))
    return out


def judge_locations(cell, lines, a, figures):
    """Every frame printed with a location agrees with llvm-symbolizer on
    vmlinux at the same address: the address itself for a faulting PC, the
    call (- 1, Thumb bit dropped) for a return address.  Frames of vmlinux
    under the module's triggers are located."""
    syms = Symbols(a.vmlinux, a.nm)
    frames = []          # (line index, sym, off, size, exact, printed location or None)
    for i, m, exact in trace_frames(lines, syms, a.interrupted_pc, a.first_frame_pc):
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


def judge_common(cell, lines, a, figures):
    """Checks of both variants beyond the triggers: LKDTM, test_printf,
    KUnit, and the figures the boot prints."""
    for crash in planned_lkdtm(a.plan) if a.plan else []:
        judge_lkdtm(cell, lines, crash)
    tp = [l for l in lines if l.startswith('test_printf: ')]
    cell.check('test_printf', any(re.match(r'test_printf: all \d+ tests passed', l) for l in tp),
               next((l for l in tp if 'passed' in l or 'failed' in l), 'no result'))
    ku = [l.strip() for l in lines if re.match(r'\s*(not )?ok \d+ %s\b' % KUNIT_SUITE, l)]
    cell.check('KUnit %s' % KUNIT_SUITE, len(ku) == 1 and ku[0].startswith('ok'),
               ku[0] if ku else 'suite result not seen')
    for l in lines:
        m = COSTS.search(l)
        if m:
            figures['lookup_name_ns'], figures['on_each_symbol_us'], \
                figures['sprint_backtrace_ns'] = map(int, m.groups())
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
        size = a.nm[:-2] + 'size' if a.nm.endswith('nm') else 'size'
        out = subprocess.run([size, a.vmlinux], capture_output=True, text=True).stdout.split('\n')
        if len(out) > 1 and out[1].split():
            t, d, b = out[1].split()[:3]
            figures['text'], figures['data'], figures['bss'] = int(t), int(d), int(b)
        img = os.path.join(os.path.dirname(a.vmlinux), 'image')
        if os.path.exists(img):
            figures['image'] = os.path.getsize(img)
    # /proc/kallsyms without addresses, for the comparison of the variants
    if a.out:
        try:
            b = lines.index(INIT + 'begin /proc/kallsyms')
            e = lines.index(INIT + 'end /proc/kallsyms')
            # a printk that cut in mid-line is dropped with its timestamp
            listing = [re.sub(r'\[\s*\d+\.\d+\].*$', '', l) for l in lines[b + 1:e]]
            listing = [l for l in listing if l]
            with open(os.path.join(os.path.dirname(a.out), 'kallsyms.txt'), 'w') as f:
                f.write('\n'.join(listing) + '\n')
        except ValueError:
            pass


def merge(a):
    """One cell from its variants' results, and the checks between them."""
    parts = []
    for p in a.merge:
        with open(p) as f:
            parts.append((os.path.basename(os.path.dirname(p)), json.load(f), os.path.dirname(p)))
    cell = Cell(a.arch)
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
    if 'off' in lists and 'on' in lists:
        off, on = lists['off'] or [], lists['on'] or []
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
        cell.check('/proc/kallsyms: off and on list the same (type, name) sequence',
                   len(off) > 100 and not bad,
                   '%d lines off, %d on; differences (all the series\' own functions): %s%s' % (
                       len(off), len(on), ' '.join(d.replace(' ', '') for d in diff) or 'none',
                       '; NOT ALLOWED: ' + ' '.join(bad[:8]) if bad else ''))
        checks += cell.checks
    res = {'arch': a.arch, 'build': 'ok', 'seconds': a.seconds, 'checks': checks,
           'figures': figures}
    res['boot'] = 'ok' if all(r['boot'] == 'ok' for _, r, _ in parts) else \
        next(r['boot'] for _, r, _ in parts if r['boot'] != 'ok')
    failed = [c for c in checks if not c['ok']]
    res['tests_total'], res['tests_passed'] = len(checks), len(checks) - len(failed)
    res['reason'] = next((r['reason'] for _, r, _ in parts if r['reason']), '') or \
        ('%s: %s' % (failed[0]['name'], failed[0]['detail']) if failed else '')
    with open(a.out, 'w') as f:
        json.dump(res, f, indent=1)
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--arch', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--seconds', type=int, default=0)
    ap.add_argument('--fail', help='stage that failed before boot (build)')
    ap.add_argument('--reason', default='')
    ap.add_argument('--console')
    ap.add_argument('--plan')
    ap.add_argument('--qemu-rc', type=int, default=0)
    ap.add_argument('--timeout', type=int, default=0)
    ap.add_argument('--module')
    ap.add_argument('--addr2line', default='addr2line')
    ap.add_argument('--nm', default='nm')
    ap.add_argument('--warn-pc', choices=('trap', 'return'), default='trap')
    ap.add_argument('--thumb', action='store_true',
                    help='return addresses may carry the Thumb bit')
    ap.add_argument('--variant', choices=('off', 'on'))
    ap.add_argument('--vmlinux')
    ap.add_argument('--strip', action='append', default=[],
                    help='path prefix to drop from llvm-symbolizer paths')
    ap.add_argument('--first-frame-pc', action='store_true',
                    help='a trace from a register dump starts at the pc, as is')
    ap.add_argument('--interrupted-pc', choices=('regs', 'trace'), default='regs',
                    help='where an exception inside a backtrace prints the interrupted pc: '
                    'in a register dump (x86), or as the frame after the entry code')
    ap.add_argument('--merge', nargs='+', help='variant results to merge')
    a = ap.parse_args()
    if a.merge:
        return merge(a)

    res = {'arch': a.arch, 'build': 'ok', 'boot': '-', 'tests_passed': 0,
           'tests_total': 0, 'seconds': a.seconds, 'reason': '', 'checks': []}
    if a.fail:
        res.update(build='FAIL' if a.fail == 'build' else 'ok',
                   boot='-' if a.fail == 'build' else 'FAIL', reason=a.reason)
        res['checks'] = [{'name': a.fail, 'ok': False, 'detail': a.reason}]
        json.dump(res, open(a.out, 'w'), indent=1)
        return 1

    cell = Cell(a.arch)
    try:
        with open(a.console, errors='replace') as f:
            lines = clean(f.readlines())
    except OSError as e:
        lines = []
        print('[%s] cannot read console log: %s' % (a.arch, e))
    init_lines = [l for l in lines if l.startswith(INIT)]
    last_init = init_lines[-1] if init_lines else None
    panics = [l for l in lines if PANIC.search(l)]
    success = [i for i, l in enumerate(lines) if l == SUCCESS]

    reason = ''
    if a.qemu_rc in (124, 137):
        reason = 'QEMU timed out after %ds' % a.timeout
        if not lines:
            reason += ', no console output (wrong console?)'
        elif last_init:
            reason += ', last init line: ' + last_init[len(INIT):]
        else:
            reason += ', init never spoke; last line: ' + lines[-1][:80]
    elif panics:
        reason = 'unplanned panic: ' + panics[0][:100]
    elif not lines:
        reason = 'no console output (QEMU exit %d)' % a.qemu_rc
    elif not success:
        reason = 'success marker not reached; last init line: %s' % (
            last_init[len(INIT):] if last_init else '(none)')
    elif not any(RESTART.search(l) for l in lines[success[0]:]):
        reason = 'no guest restart after the success marker'
    elif a.qemu_rc != 0:
        reason = 'QEMU exited %d' % a.qemu_rc
    cell.check('boot', not reason, reason or 'marker reached, guest restarted')
    res['boot'] = 'ok' if not reason else ('timeout' if a.qemu_rc in (124, 137) else 'FAIL')

    oracle = None
    if a.module:
        try:
            oracle = Oracle(a.module, a.addr2line, a.nm, a.thumb)
        except (OSError, subprocess.CalledProcessError) as e:
            cell.check('module symbols', False, str(e))
    syms = Symbols(a.vmlinux, a.nm) if a.vmlinux else None
    for name in planned_triggers(a.plan) if a.plan else []:
        judge_trigger(cell, lines, name, oracle, a, syms)
    if syms and a.plan and any(l.startswith('writesym ') for l in open(a.plan)):
        judge_loc(cell, lines, a, syms)
    figures = {}
    if a.variant and lines:
        judge_common(cell, lines, a, figures)
        if a.variant == 'on':
            judge_locations(cell, lines, a, figures)
        else:
            loc = [l for l in lines if LOCATED.search(l)]
            cell.check('no locations with the option off', not loc, loc[0] if loc else '')
    res['figures'] = figures

    res['checks'] = cell.checks
    failed = [c for c in cell.checks if not c['ok']]
    res['tests_total'] = len(cell.checks)
    res['tests_passed'] = len(cell.checks) - len(failed)
    res['reason'] = reason or ('%s: %s' % (failed[0]['name'], failed[0]['detail'])
                               if failed else '')
    with open(a.out, 'w') as f:
        json.dump(res, f, indent=1)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
