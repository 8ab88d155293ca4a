# SPDX-License-Identifier: GPL-2.0
"""The boot itself: did it reach the init's success marker and restart
the guest by itself (boot_verdict), does the record name what its plan
needs (judge_record), and the figures the boot prints (console_figures)."""
import os

from console import COSTS, INIT, MEMORY, PANIC, READ_KALLSYMS, RESTART, SUCCESS


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


def boot_verdict(a, lines):
    """Why the boot failed, or '' for a boot that reached the success
    marker and restarted the guest by itself, or ended at the plan's BUG
    where the arch's BUG panics."""
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
    if panics and a.facts.get('BUG_PANICS') == 'y':
        why = bug_panic(a, lines, panics)
        if not why:
            return '' if a.qemu_rc == 0 else 'QEMU exited %d' % a.qemu_rc
        return 'unplanned panic: %s (%s)' % (panics[0][:100], why)
    if panics:
        return 'unplanned panic: ' + panics[0][:100]
    if a.facts.get('BUG_PANICS') == 'y' and a.plan.lkdtm()[-1:] == ['BUG']:
        return "BUG_PANICS, but LKDTM's BUG did not end the boot"
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


def bug_panic(a, lines, panics):
    """Where a kernel-mode BUG panics (arch fact BUG_PANICS: an oops in
    interrupt context), the plan's last step is LKDTM's BUG and the boot
    ends there: '' for a boot that did exactly that, else what differs.
    The init's last line is that step's start, so every step before it
    ran; LKDTM performed the BUG, the kernel reported it, then panicked
    with die()'s words, once."""
    last = a.plan.last_step()
    bug = 'write /sys/kernel/debug/provoke-crash/DIRECT BUG'
    if not last or last.text != bug:
        return "the plan's last step is not LKDTM's BUG"
    init_lines = [l for l in lines if l.startswith(INIT)]
    if not init_lines or init_lines[-1] != INIT + bug + ': start':
        return 'not at the BUG step; last init line: %s' % (
            init_lines[-1][len(INIT):] if init_lines else '(none)')
    if len(panics) != 1 or not panics[0].endswith('Fatal exception in interrupt'):
        return 'not one "Fatal exception in interrupt"'
    seen = [i for i, l in enumerate(lines) if l.endswith('lkdtm: Performing direct entry BUG')]
    report = [i for i, l in enumerate(lines) if 'kernel BUG at' in l]
    panic = next(i for i, l in enumerate(lines) if PANIC.search(l))
    if not (seen and report and seen[0] < report[0] < panic):
        return 'no BUG report before it'
    return ''


def console_figures(lines, figures):
    """The figures the boot prints: the lookups' costs (lltest), the
    Memory: line, the time to read /proc/kallsyms."""
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
