# SPDX-License-Identifier: GPL-2.0
"""The hardened configurations (HARDENED=y): the checkers announced, no
KASAN report, the reports kept for merge.py's hold against the baseline,
and the load/unload races."""

from console import ARMED, CYCLE, CYCLE_READER, HOLD, RACE, RCU_STALL, splats


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
