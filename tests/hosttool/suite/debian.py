# SPDX-License-Identifier: GPL-2.0
"""The debian part: Debian's cloud-amd64 vmlinux and modules
(scripts/debian-dbg.sh): --stats, random .text addresses against
llvm-symbolizer and addr2line, the compact tables the kernel would hold,
every row against llvm-dwarfdump, kernel paths, lineloc-i686; seeded
modules per section, the module loader's tables, the sections of line
tables a finalised module gets, and the shared codes regenerated.
"""
import os
import re
import subprocess
import time

from .common import (DEBIAN, LL, LL32, LLK, QUICK, TOP, check_dwarfdump,
                     check_kernel_paths, check_outside_cu, check_rel, compare,
                     debian_tree, explain_a2l, lineloc_e, ll32, note,
                     parse_rows, result, rows, run, same32, skip, stats,
                     text_sample, text_size, via_module)
# matrix/oracles.py, on sys.path since .common was imported
from oracles import oracle_a2l, oracle_llvm
from .inlines import check_chains


def test_debian(work, rnd):
    print('== Debian linux-image-cloud-amd64-dbg', flush=True)
    root, vm = debian_tree()
    if not root:
        # a skip only when asked for, with a reason: otherwise a failure
        if os.environ.get('LINELOC_NO_DEBIAN'):
            skip('Debian vmlinux', vm)
        else:
            result(False, 'Debian vmlinux: scripts/debian-dbg.sh', vm)
        return
    note('%s %s (scripts/debian-dbg.sh: the newest by dpkg\'s order)' %
         (DEBIAN['package'], DEBIAN['version']))
    st = stats(vm)
    result(st is not None and st.get('versions') == '5' and
           int(st.get('rows', 0)) > 4000000,
           'vmlinux --stats', 'versions %s, rows %s, bytes %s' %
           (st and st.get('versions'), st and st.get('rows'),
            st and st.get('bytes')))
    n = 2000 if QUICK else 20000
    addrs = text_sample(vm, n, rnd)
    t0 = time.time()
    ours, raw = lineloc_e(vm, addrs)
    t1 = time.time()
    llvm = oracle_llvm(vm, addrs)
    t2 = time.time()
    a2l = oracle_a2l('addr2line', vm, addrs)
    t3 = time.time()
    note('lookup of %d addresses: lineloc %.2fs, llvm-symbolizer %.2fs, '
         'addr2line %.2fs' % (n, t1 - t0, t2 - t1, t3 - t2))
    orc = {'llvm': llvm}
    if a2l:
        orc['addr2line'] = a2l
    ag, diffs = compare('vmlinux: %d random .text addresses vs '
                        'llvm-symbolizer' % n, vm, addrs, orc, ours,
                        show=3, need='llvm')
    explain_a2l(diffs)
    check_outside_cu('vmlinux', vm, addrs, llvm)
    # the chains of inlined calls (-i) at the same addresses, and what
    # the inlined subroutines of .debug_info are
    t0 = time.time()
    check_chains('vmlinux: chains of inlined calls at %d random .text '
                 'addresses vs llvm-symbolizer' % n, vm, addrs)
    note('chains of %d addresses, both tools: %.2fs' % (n, time.time() - t0))
    # the same chains through the tables the kernel would hold with them,
    # and what they cost over the tables without them
    check_chains('vmlinux: chains through the tables (--via-table -i) at %d '
                 'random .text addresses vs llvm-symbolizer' % n, vm, addrs,
                 extra=('--via-table',))
    p = subprocess.run([LL, '-i', '--table-size', vm], capture_output=True,
                       text=True)
    m = re.search(r'^chains bytes: .*chains cost (-?\d+) bytes$', p.stdout,
                  re.M)
    result(p.returncode == 0 and m is not None and int(m.group(1)) <= 1500000,
           'vmlinux: chains of inlined calls cost at most 1.5 MB over the '
           'tables', m.group(0) if m else p.stderr.strip()[-300:])
    for ln in p.stdout.splitlines():
        if ln.startswith(('chains', 'lookup')):
            note(ln)
    rc, out, err = run([LL, '--inline-stats', vm])
    ist = dict(l.split(': ', 1) for l in out.splitlines() if ': ' in l)
    result(rc == 0 and ist.get('units_unreadable') == '0' and
           ist.get('unnamed') == '0' and int(ist.get('inlined', 0)) > 300000,
           'vmlinux: --inline-stats, every unit read, every instance named',
           ', '.join('%s %s' % kv for kv in ist.items()) if rc == 0 else err.strip())
    # The compact tables the kernel would hold (issue 10): what they cost,
    # and that they answer as the rows do, and as llvm-symbolizer does.
    p = subprocess.run([LL, '--table-size', vm], capture_output=True, text=True)
    m = re.search(r'table: (\d+) rows, (\d+) bytes, ([\d.]+) B/row', p.stdout)
    result(m is not None and int(m.group(2)) <= 2000000,
           'vmlinux: compact tables at most 2.0 MB', m.group(0) if m else p.stderr[-200:])
    p = subprocess.run([LL, '--table-check', vm], capture_output=True, text=True)
    result(p.returncode == 0, 'vmlinux: --table-check',
           (p.stdout + p.stderr).strip()[-200:])
    via, _ = lineloc_e(vm, addrs, extra=('--no-strip', '--via-table'))
    via = via or []
    same = sum(1 for x, y in zip(via, ours or []) if x == y)
    result(ours is not None and len(via) == len(ours) and same == len(ours),
           'vmlinux: %d random .text addresses, --via-table == -e' % n,
           '%d/%d identical' % (same, len(ours)))
    result(st is not None and st.get('clip') == 'unit ranges' and
           st.get('info_units') == st.get('units') and
           st.get('info_units_unreadable') == '0' and
           st.get('tables_clipped') == st.get('units'),
           'vmlinux: every line table clipped to the ranges of its unit',
           ', '.join('%s %s' % (k, st.get(k)) for k in (
               'info_units', 'info_units_ranges_aranges',
               'info_units_ranges_die', 'tables_clipped',
               'tables_without_unit', 'clip_rows_dropped', 'clip_rows_added',
               'clip_sequences_dropped', 'clip_sequences_split'))
           if st else '')
    t0 = time.time()
    check_dwarfdump('vmlinux --all-rows (every row)', vm)
    note('row comparison took %.1fs' % (time.time() - t0))
    check_kernel_paths('vmlinux', vm, addrs)
    same32('vmlinux i686 == x86_64 (--rows, every row)', ['--rows', vm])
    same32('vmlinux i686 == x86_64 (--all-rows --rows)',
           ['--all-rows', '--rows', vm])
    same32('vmlinux i686 == x86_64 (--stats)', ['--stats', vm])
    same32('vmlinux i686 == x86_64 (--inline-stats)', ['--inline-stats', vm])
    same32('vmlinux i686 == x86_64 (-a -i -f, 200 addresses)',
           ['-a', '-i', '-f', '-e', vm] + ['%x' % a for a in addrs[:200]])
    if not os.path.exists(LL32):
        skip('vmlinux i686 -e', 'no lineloc-i686')
    else:
        o32, _ = lineloc_e(vm, addrs, tool=ll32())
        result(o32 == ours, 'vmlinux i686 == x86_64 (-e, %d addresses)' % n)

    mods = []
    for dp, dn, fn in os.walk(os.path.join(root, 'usr', 'lib', 'debug',
                                           'lib', 'modules')):
        mods += [os.path.join(dp, x) for x in fn if x.endswith('.ko')]
    mods.sort()
    result(len(mods) > 1000, 'Debian modules found', '%d' % len(mods))
    pick = rnd.sample(mods, min(len(mods), 4 if QUICK else 16))
    for m in pick:
        name = 'module %s' % os.path.basename(m)
        text, err = rows(m)
        if text is None:
            result(False, name, err.strip())
            continue
        check_rel(name, m, parse_rows(text), 'addr2line', rnd, n_random=60)
        same32(name + ' i686 == x86_64', ['--rows', m])
    check_debian_modules(mods, rnd)
    check_module_sections(mods, rnd, work)
    check_shared_codes(mods, work)


def check_shared_codes(mods, work):
    """The shared codes of module tables (hosttool/lib/linetab_codes.h)
    are what lineloc-kbuild --shared-codes makes from Debian's modules:
    regenerated here byte for byte.  The file names the modules and rows
    it was made from; from another Debian version (other rows) the
    comparison is a counted skip, not a pass."""
    lst = os.path.join(work, 'shared-codes.list')
    out = os.path.join(work, 'linetab_codes.h')
    open(lst, 'w').write(''.join(m + '\n' for m in mods))
    rc, _, err = run([LLK, '--shared-codes', out, lst])
    if rc:
        return result(False, 'shared codes regenerated from Debian\'s modules',
                      err.strip()[-200:])
    mine = open(os.path.join(TOP, 'hosttool', 'lib', 'linetab_codes.h')).read()
    new = open(out).read()
    src = re.compile(r' (\d+) modules, (\d+) rows')
    if mine != new and src.search(mine).groups() != src.search(new).groups():
        return skip('shared codes regenerated from Debian\'s modules',
                    'made from %s modules, %s rows; this corpus has %s, %s' %
                    (src.search(mine).groups() + src.search(new).groups()))
    result(mine == new, 'shared codes: hosttool/lib/linetab_codes.h is what '
           'lineloc-kbuild --shared-codes makes from Debian\'s modules',
           '%s modules, %s rows' % src.search(new).groups())


def exec_sections(f):
    """{name: size} of the allocated executable sections of @f."""
    rc, out, _ = run(['readelf', '-SW', f])
    secs = {}
    for l in out.splitlines():
        m = re.search(r'\] (\S+)\s+(?:PROGBITS|NOBITS)\s+\S+\s+\S+\s+([0-9a-f]+)\s+\S+\s+(\S+)', l)
        if m and 'A' in m.group(3) and 'X' in m.group(3) and int(m.group(2), 16):
            secs[m.group(1)] = int(m.group(2), 16)
    return secs


def check_module_sections(mods, rnd, work):
    """Debian's modules with the sections of line tables that the kernel
    build adds when a module is finalised (lineloc --module-sections, then
    objcopy as scripts/Makefile.modfinal runs it), stripped as
    INSTALL_MOD_STRIP=1 strips them: at offsets of every text section they
    answer as lineloc -e -j SECTION does on the unstripped module (whose
    rows check_rel() holds against addr2line).  The bytes of the sections
    against the .debug_line they replace are a figure."""
    pick = rnd.sample(mods, min(len(mods), 8 if QUICK else 40))
    d = os.path.join(work, 'modsec')
    os.makedirs(d, exist_ok=True)
    same = total = nsec = secbytes = linebytes = 0
    bad = []
    for m in pick:
        b = os.path.basename(m)
        core, init = os.path.join(d, b + '.core'), os.path.join(d, b + '.init')
        withsec, stripped = os.path.join(d, b), os.path.join(d, 'stripped-' + b)
        rc, _, err = run([LLK, '--module-sections', m, core, init])
        add = []
        for sec, f in (('.lineloc', core), ('.init.lineloc', init)):
            if rc == 0 and os.path.getsize(f):
                add += ['--add-section', '%s=%s' % (sec, f), '--set-section-flags',
                        '%s=alloc,readonly,contents' % sec]
                secbytes += os.path.getsize(f)
        if rc == 0:
            rc, _, err = run(['objcopy'] + add + [m, withsec])
        if rc == 0:
            rc, _, err = run(['strip', '--strip-debug', '-o', stripped, withsec])
        if rc:
            bad.append('%s: %s' % (b, err.strip()[-100:]))
            continue
        nsec += bool(add)
        rc, out, _ = run(['readelf', '-SW', m])
        mm = re.search(r'\] \.debug_line\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)', out)
        linebytes += int(mm.group(1), 16) if mm else 0
        for sec, n in sorted(exec_sections(m).items()):
            addrs = list(range(n)) if n <= 4000 else sorted(rnd.sample(range(n), 4000))
            ours, err = lineloc_e(m, addrs, sec, extra=())
            via, err2 = via_module(stripped, addrs, sec)
            if ours is None or via is None:
                bad.append('%s %s: %s' % (b, sec, (err or err2)[-100:]))
                continue
            total += len(addrs)
            diff = [(hex(a), x, y) for a, x, y in zip(addrs, via, ours) if x != y]
            same += len(addrs) - len(diff)
            if diff:
                bad.append('%s %s: %s' % (b, sec, diff[:2]))
    result(not bad and total > 0 and nsec > 0,
           'Debian modules: %d with sections of line tables, stripped, answer as '
           'lineloc -e -j SECTION on every text section' % len(pick),
           '%d/%d offsets identical, %d modules with sections%s' % (
               same, total, nsec, '; ' + '; '.join(bad[:3]) if bad else ''))
    note('Debian modules: %d bytes of sections of line tables for %d bytes of .debug_line '
         '(%.1f%%)' % (secbytes, linebytes, 100.0 * secbytes / linebytes if linebytes else 0))


def check_debian_modules(mods, rnd):
    """The module loader's tables of Debian's modules (issue 11): at every
    offset of .text they answer as lineloc -e -j .text, paths and all; and
    what they cost, aggregated."""
    pick = rnd.sample(mods, min(len(mods), 8 if QUICK else 40))
    rows = size = fixed = 0
    same = total = 0
    bad = []
    for m in pick:
        p = subprocess.run([LL, '--table-size', m], capture_output=True, text=True)
        t = re.search(r'module table: (\d+) \+ (\d+) rows, (\d+) \+ (\d+) bytes '
                      r'\(core \+ init\), of which (\d+) fixed', p.stdout)
        if not t:
            bad.append('%s: %s' % (os.path.basename(m), p.stderr.strip()[-100:]))
            continue
        r0, r1, b0, b1, fx = map(int, t.groups())
        rows += r0 + r1
        size += b0 + b1
        fixed += fx
        n = text_size(m)
        addrs = list(range(n)) if n <= 20000 else sorted(rnd.sample(range(n), 20000))
        ours, err = lineloc_e(m, addrs, '.text', extra=())
        via, err2 = via_module(m, addrs, '.text')
        if ours is None or via is None:
            bad.append('%s: %s' % (os.path.basename(m), (err or err2)[-100:]))
            continue
        total += len(addrs)
        d = [(hex(a), x, y) for a, x, y in zip(addrs, via, ours) if x != y]
        same += len(addrs) - len(d)
        if d:
            bad.append('%s: %s' % (os.path.basename(m), d[:2]))
    result(not bad and total > 0,
           'Debian modules: %d modules\' load-time tables == lineloc -e -j .text' % len(pick),
           '%d/%d offsets identical%s' % (same, total, '; ' + '; '.join(bad[:3]) if bad else ''))
    # A table's fixed bytes (header, prefix codes) do not grow with rows.
    per = (size - fixed) / rows if rows else 0
    result(rows > 0 and per <= 2.5,
           'Debian modules: load-time tables at most 2.5 B/row, fixed bytes apart',
           '%d rows in %d bytes (%d fixed): %.2f B/row all-in, %.2f B/row beyond the fixed'
           % (rows, size, fixed, size / rows if rows else 0, per))
