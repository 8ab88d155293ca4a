# SPDX-License-Identifier: GPL-2.0
"""The generated part: generated objects, each toolchain of the matrix
and clang-14 x DWARF versions (line tables written by gas and by gcc,
64-bit DWARF, zlib, no .debug_aranges), executables and .o: version and
offset size read back, every row against llvm-dwarfdump, lookups against
llvm-symbolizer and addr2line, addresses outside every unit's ranges, each
section of a .o with -j and through the module loader's table, and
lineloc-i686 printing the same bytes; the chains of inlined calls of each
executable (suite/inlines.py).  Then the same objects through the
big-endian host's lineloc.
"""
import os
import shutil

from .common import (BUILDS, LL, QUICK, TOOLCHAINS, be_compare, be_qemu, build,
                     check_dwarfdump, check_outside_cu, check_rel, compare,
                     lineloc_e, note, parse_rows, result, rows, run, same32,
                     sample_addrs, skip, stats)
# matrix/cell.py and oracles.py, on sys.path since .common was imported
import cell  # noqa: E402  (the arch facts)
from oracles import oracle_a2l, oracle_llvm
from .inlines import check_chain_rule, check_chains


# the line-table version gas writes for plain -g where gcc does not say
AS_LINE_VERSION = {a: int(cell.load_arch(a)['AS_LINE_VERSION'])
                   for a in cell.all_arches() if cell.load_arch(a)['AS_LINE_VERSION']}

# name, flags, expected version (per arch where it differs), offset size
VARIANTS = [
    ('default', ['-g'], 5, AS_LINE_VERSION, 4),
    ('gdwarf-2', ['-gdwarf-2'], 3, {}, 4),
    ('as-v3', ['-gdwarf-3', '-Wa,--gdwarf-3'], 3, {}, 4),
    ('as-v4', ['-gdwarf-4', '-Wa,--gdwarf-4'], 4, {}, 4),
    ('gcc-v2', ['-gdwarf-2', '-gno-as-loc-support'], 2, {}, 4),
    ('gcc-v3', ['-gdwarf-3', '-gno-as-loc-support'], 3, {}, 4),
    ('gcc-v4', ['-gdwarf-4', '-gno-as-loc-support'], 4, {}, 4),
    ('gcc-v5', ['-gdwarf-5', '-gno-as-loc-support'], 5, {}, 4),
    ('dwarf64-v4', ['-gdwarf-4', '-gdwarf64', '-gno-as-loc-support'], 4, {}, 8),
    ('dwarf64-v5', ['-gdwarf-5', '-gdwarf64', '-gno-as-loc-support'], 5, {}, 8),
    ('zlib', ['-g', '-gz=zlib'], 5, AS_LINE_VERSION, 4),
    # .debug_aranges removed: unit ranges from the DIEs (DW_AT_ranges)
    ('no-aranges', ['-g'], 5, AS_LINE_VERSION, 4),
]

# clang-14 (x86_64): DWARF 5 units give their ranges as DW_FORM_rnglistx,
# addresses as DW_FORM_addrx (.debug_addr), and list no .debug_aranges
CLANG = ('clang', 'clang-14', '')
CLANG_VARIANTS = [
    ('default', ['-g'], 5, {}, 4),
    ('gdwarf-4', ['-gdwarf-4'], 4, {}, 4),
    ('sections-v5', ['-g', '-ffunction-sections'], 5, {}, 4),
    ('sections-v4', ['-gdwarf-4', '-ffunction-sections'], 4, {}, 4),
]
QUICK_VARIANTS = ('default', 'gcc-v2', 'dwarf64-v5', 'no-aranges',
                  'sections-v5')


def test_generated(work, rnd):
    print('== generated objects: %d toolchains x %d variants, clang x %d' %
          (len(TOOLCHAINS), len(VARIANTS), len(CLANG_VARIANTS)), flush=True)
    check_chain_rule()
    total = {'exe_llvm': [0, 0], 'exe_a2l': [0, 0], 'rel_any': [0, 0],
             'outside_cu': [0, 0], 'chains': [0, 0]}
    for (tc, cc, pre), variants in [(t, VARIANTS) for t in TOOLCHAINS] + \
            [(CLANG, CLANG_VARIANTS)]:
        if not shutil.which(cc):
            skip(tc, 'no ' + cc)
            continue
        a2l = pre + 'addr2line'
        for vname, flags, ver, arch_ver, osz in variants:
            if QUICK and vname not in QUICK_VARIANTS:
                continue
            want_ver = arch_ver.get(tc, ver)
            opt = '-O2'
            exe, obj, err = build(os.path.join(work, 'gen'), tc, cc, flags,
                                  opt)
            name = '%s %s' % (tc, vname)
            if not exe:
                result(False, name + ' build', err.strip()[:200])
                continue
            if vname == 'no-aranges':
                rc, out, err = run([pre + 'objcopy', '-R', '.debug_aranges',
                                    exe, exe + '-noar'])
                exe += '-noar'
                st = stats(exe)
                result(rc == 0 and st and
                       st.get('info_units_ranges_aranges') == '0' and
                       st.get('info_units_ranges_die') == '2',
                       name + ': unit ranges from the DIEs', err.strip())
            for kind, f in (('exe', exe), ('.o', obj)):
                st = stats(f)
                if st is None:
                    result(False, '%s %s stats' % (name, kind),
                           run([LL, '--stats', f])[2].strip())
                    continue
                result(st.get('versions') == str(want_ver) and
                       st.get('offset_sizes') == str(osz),
                       '%s %s version/offset size read back' % (name, kind),
                       'version %s (want %d), offset size %s (want %d)' %
                       (st.get('versions'), want_ver, st.get('offset_sizes'),
                        osz))
                # every row of the line programs, as llvm-dwarfdump prints
                text, err = rows(f, ('--no-strip', '--all-rows'))
                if text is None:
                    result(False, '%s %s rows' % (name, kind), err.strip())
                    continue
                rws = parse_rows(text)
                if kind == 'exe':
                    check_dwarfdump('%s exe' % name, f, rws)
                    # sampled from every sequence, also past unit ranges
                    addrs = sample_addrs(rws, rnd, 200)
                    ours, _ = lineloc_e(f, addrs)
                    orc = {'llvm': oracle_llvm(f, addrs),
                           'addr2line': oracle_a2l(a2l, f, addrs)}
                    orc = {k: v for k, v in orc.items() if v is not None}
                    ag, _ = compare('%s exe vs oracles' % name, f, addrs,
                                    orc, ours, need='llvm')
                    total['exe_llvm'][0] += ag.get('llvm', 0)
                    total['exe_llvm'][1] += len(addrs)
                    total['exe_a2l'][0] += ag.get('addr2line', 0)
                    total['exe_a2l'][1] += len(addrs)
                    # the chains of inlined calls (-i) at the same addresses
                    n, deep = check_chains('%s exe: chains of inlined calls vs '
                                           'llvm-symbolizer' % name, f, addrs)
                    total['chains'][0] += n
                    total['chains'][1] += len(addrs)
                    same32('%s exe i686 == x86_64 (-a -i -f)' % name,
                           ['--no-strip', '-a', '-i', '-f', '-e', f] +
                           ['%x' % a for a in addrs[:100]],
                           expect_err='without zlib')
                    # gas writes the .subsection 1 code of other.c into
                    # the .text sequence; gcc's own tables and clang's
                    # unit ranges leave none outside
                    n = check_outside_cu('%s exe' % name, f, addrs,
                                         orc.get('llvm'), need=tc != 'clang'
                                         and '-gno-as-loc-support' not in
                                         flags)
                    total['outside_cu'][0] += n
                    total['outside_cu'][1] += 1 if n else 0
                    same32('%s exe i686 == x86_64 (--all-rows --rows)' %
                           name, ['--no-strip', '--all-rows', '--rows', f],
                           expect_err='without zlib')
                else:
                    check_rel(name + ' .o', f, rws, a2l, rnd, total)
                same32('%s %s i686 == x86_64 (--rows)' % (name, kind),
                       ['--no-strip', '--rows', f], expect_err='without zlib')
                same32('%s %s i686 == x86_64 (--stats)' % (name, kind),
                       ['--stats', f], expect_err='without zlib')
    for k, (a, n) in total.items():
        if k == 'outside_cu':
            note('total: %d addresses outside every unit\'s ranges but '
                 'inside a sequence, in %d executables: lineloc ??:0 on all'
                 % (a, n))
        else:
            note('total %s: %d/%d agree' % (k, a, n))


def test_bigendian_generated(rnd):
    """The same on the generated part's objects, in that part: every
    toolchain and line-table version, DWARF64, zlib-compressed sections
    (the s390x build has zlib too)."""
    print('== big-endian host: the generated objects', flush=True)
    qemu = be_qemu('big-endian host: generated objects')
    if not qemu:
        return
    files = []
    for root, tc, cc, flags, opt, objs in BUILDS:
        for o in (objs[1], objs[2]):
            files.append(('%s %s' % (os.path.basename(root) + '/' +
                                     os.path.dirname(o), os.path.basename(o)),
                          os.path.join(root, o)))
    result(bool(files), 'big-endian host: the generated part built objects to compare',
           '%d objects' % len(files))
    be_compare(qemu, files, rnd)
