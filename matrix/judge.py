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
import json
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

    def __init__(self, ko, addr2line, nm):
        self.ko, self.addr2line = ko, addr2line
        self.syms = {}
        out = subprocess.run([nm, '--defined-only', ko], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in 'tT':
                self.syms[parts[2]] = int(parts[0], 16) & ~1  # Thumb bit

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


def judge_trigger(cell, lines, name, oracle, warn_pc, thumb):
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
    a = ap.parse_args()

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
            oracle = Oracle(a.module, a.addr2line, a.nm)
        except (OSError, subprocess.CalledProcessError) as e:
            cell.check('module symbols', False, str(e))
    for name in planned_triggers(a.plan) if a.plan else []:
        judge_trigger(cell, lines, name, oracle, a.warn_pc, a.thumb)

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
