#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Self-test of matrix/judge.py on recorded console logs.

Each recorded log (logs/<arch>.console.log, a real green boot of that arch)
must be judged green; then faults are planted in copies of it (a hang, a
panic, a missing marker, a broken chain, a wrong line, silence on a wrong
console) and each must be judged red, with a reason that names what
happened.  Closes with "judge: N passed, M failed".
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
JUDGE = os.path.join(HERE, '..', '..', 'matrix', 'judge.py')
PLAN = os.path.join(HERE, '..', 'plans', 'lltest.plan')
LOGS = os.path.join(HERE, 'logs')
# WARN_PC per arch, as in arch-configs/<arch>.arch
WARN_PC = {'arm': 'return'}

passed = failed = 0


def result(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print('%s %s' % ('ok  ' if ok else 'FAIL', what))


def judge(arch, text, rc=0, timeout=30):
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, 'console.log')
        out = os.path.join(d, 'result.json')
        with open(log, 'w') as f:
            f.write(text)
        p = subprocess.run([sys.executable, JUDGE, '--arch', arch, '--console', log,
                            '--plan', PLAN, '--qemu-rc', str(rc), '--timeout', str(timeout),
                            '--warn-pc', WARN_PC.get(arch, 'trap'), '--out', out],
                           capture_output=True, text=True)
        with open(out) as f:
            return p.returncode, json.load(f)


def expect_red(arch, what, text, want, rc=0):
    code, res = judge(arch, text, rc)
    ok = code == 1 and re.search(want, res['reason']) is not None
    result(ok, '%s: %s -> red (%s)' % (arch, what, res['reason'][:90]))


def cut_after(text, needle):
    i = text.index(needle)
    return text[:text.index('\n', i) + 1]


def main():
    arches = sorted(f.split('.')[0] for f in os.listdir(LOGS) if f.endswith('.console.log'))
    result(len(arches) == 4, 'recorded logs for four arches: %s' % arches)
    for arch in arches:
        with open(os.path.join(LOGS, arch + '.console.log'), errors='replace') as f:
            good = f.read()
        code, res = judge(arch, good)
        result(code == 0 and res['tests_passed'] == res['tests_total'] >= 11,
               '%s: recorded boot -> green, %d/%d checks' % (arch, res['tests_passed'],
                                                              res['tests_total']))
        # A trigger that hangs: the log stops at the write, QEMU is killed.
        hang = cut_after(good, 'lltest-init: write /sys/kernel/debug/lltest/warn 1: start')
        expect_red(arch, 'hang', hang, r'timed out after 30s, last init line: write .*warn 1: start',
                   rc=124)
        # A wrong console: nothing at all, then the timeout or QEMU's exit.
        expect_red(arch, 'wrong console (timeout)', '', r'timed out.*no console output', rc=124)
        expect_red(arch, 'wrong console (exit)', '', r'no console output')
        # An unplanned panic, even though QEMU then exits 0 (panic=-1).
        panic = cut_after(good, 'lltest: dump returned') + \
            '[    1.0] Kernel panic - not syncing: Attempted to kill init!\n'
        expect_red(arch, 'panic', panic, r'unplanned panic: Kernel panic')
        # The plan stopped: no success marker.
        expect_red(arch, 'no marker', good.replace('lltest-init: ALL DONE', 'lltest-init: x'),
                   r'success marker not reached')
        # Marker, but the guest did not restart by itself.
        expect_red(arch, 'no restart', re.sub(r'reboot: .*', '', good),
                   r'no guest restart')
        # A frame of the chain missing from every backtrace.
        expect_red(arch, 'broken chain', re.sub(r'lltest_chain_a', 'other_func', good),
                   r'backtrace.*missing')
        # The WARNING names another line than the trigger announced.
        expect_red(arch, 'wrong WARN line',
                   re.sub(r'(WARNING: CPU: .* at \S+:)(\d+)', lambda m: m.group(1) + '1' + m.group(2), good),
                   r'warn: WARNING line')
        # A trigger fired twice (its marker is not unique).
        dup = re.search(r'.*lltest: dump fires at .*\n', good).group(0)
        expect_red(arch, 'marker twice', good.replace(dup, dup + dup), r'dump: marker: seen 2 times')
    print('judge: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
