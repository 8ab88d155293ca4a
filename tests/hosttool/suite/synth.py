# SPDX-License-Identifier: GPL-2.0
"""The synth part: hand-assembled line programs (tests/hosttool/synth.py),
ELF32/64 x little/big-endian: v2 with opcode_base 10, define_file, an
unknown extended opcode, v4 max_ops 3, v3 opcode_base 14, every v5 form and
64-bit DWARF, rows and lookups as expected and the same whatever the ELF
class and byte order; rows clipped to the address ranges of their units;
addresses above 4 GiB (a kernel's), which the i686 build keeps in all 64
bits; a .debug_line beyond 4 GiB in a sparse ELF64 file.
"""
import os

from .common import (LL, LL32, check_dwarfdump, check_outside_cu, compare,
                     lineloc_e, ll32, result, rows, run, same32, stats)
# matrix/oracles.py, on sys.path since .common was imported
from oracles import oracle_llvm


def test_synth(work):
    import synth
    print('== hand-assembled line programs, ELF32/64 x little/big-endian',
          flush=True)
    outs = {}
    for fl in synth.FLAVOURS:
        hand, oracle = synth.build(fl)
        fh = os.path.join(work, 'synth-%s-hand' % fl[0])
        fo = os.path.join(work, 'synth-%s-oracle' % fl[0])
        open(fh, 'wb').write(hand)
        open(fo, 'wb').write(oracle)
        text, err = rows(fh)
        want = synth.EXPECT_V2 + synth.EXPECT_VLIW
        got = text.splitlines() if text is not None else [err.strip()]
        result(got == want, '%s: v2 opcode_base 10, define_file, unknown '
               'extended opcode, v4 max_ops 3: rows as expected' % fl[0],
               '' if got == want else 'got %r' % got)
        addrs = sorted(synth.LOOKUP_V2)
        ours, _ = lineloc_e(fh, addrs)
        exp = [synth.LOOKUP_V2[a] for a in addrs]
        result(ours == exp, '%s: lookups' % fl[0],
               '' if ours == exp else 'got %r want %r' % (ours, exp))
        st = stats(fo)
        result(st and st.get('versions') == '3,5' and
               st.get('offset_sizes') == '4,8',
               '%s: v3 opcode_base 14 + v5 all forms + v5 64-bit DWARF: '
               'versions/offset sizes' % fl[0],
               st and '%s / %s' % (st.get('versions'), st.get('offset_sizes')))
        check_dwarfdump('%s: v3/v5 forms' % fl[0], fo)
        same32('%s i686 == x86_64' % fl[0], ['--rows', fo])
        outs[fl[0]] = (run([LL, '--rows', fh])[1], run([LL, '--rows', fo])[1])
    result(len(set(outs.values())) == 1,
           'same rows whatever the ELF class and byte order')
    # Rows clipped to the address ranges of their units.
    for fl in synth.FLAVOURS:
        for low_form in ('addrx', 'addrx1'):
            f = os.path.join(work, 'synth-clip-%s-%s' % (fl[0], low_form))
            open(f, 'wb').write(synth.build_clip(fl, low_form))
            name = '%s clip (low_pc %s)' % (fl[0], low_form)
            text, err = rows(f)
            got = text.splitlines() if text is not None else [err.strip()]
            result(got == synth.EXPECT_CLIP, '%s: rows cut to unit ranges '
                   '(rnglistx, every DW_RLE_*, .debug_ranges base selection, '
                   'aranges over the DIE, a table without unit, out-of-order '
                   'rows)' % name, '' if got == synth.EXPECT_CLIP else
                   'got %r' % got)
            st = stats(f) or {}
            diff = {k: (st.get(k), v) for k, v in
                    synth.EXPECT_CLIP_STATS.items() if st.get(k) != v}
            result(not diff, '%s: --stats counts' % name,
                   'got/want %r' % diff if diff else '')
            same32('%s: i686 == x86_64 (--rows)' % name, ['--rows', f])
            same32('%s: i686 == x86_64 (--stats)' % name, ['--stats', f])
            if low_form != 'addrx':
                continue    # llvm-symbolizer 14 ignores an addrx1 low_pc
            check_dwarfdump('%s: --all-rows' % name, f)
            lo, hi = synth.CLIP_UNSORTED
            grid = sorted({x for a in range(0xff0, 0x6040, 8)
                           for x in (a, a - 1) if not lo <= x <= hi})
            ours, _ = lineloc_e(f, grid)
            llvm = oracle_llvm(f, grid)
            compare('%s: %d addresses vs llvm-symbolizer' % (name, len(grid)),
                    f, grid, {'llvm': llvm}, ours, show=5)
            check_outside_cu(name, f, grid, llvm)
    # Addresses above 4 GiB (a kernel's): the i686 build keeps all 64 bits.
    for fl in synth.FLAVOURS:
        if not fl[1]:
            continue
        f = os.path.join(work, 'synth-high-%s' % fl[0])
        open(f, 'wb').write(synth.elf(fl, [('.debug_line',
                                            synth.prog_high(fl[2]))]))
        text, err = rows(f)
        got = text.splitlines() if text is not None else [err.strip()]
        result(got == synth.EXPECT_HIGH, '%s: rows above 4 GiB' % fl[0],
               '' if got == synth.EXPECT_HIGH else 'got %r' % got)
        addrs = sorted(synth.LOOKUP_HIGH)
        exp = [synth.LOOKUP_HIGH[a] for a in addrs]
        ours, _ = lineloc_e(f, addrs)
        result(ours == exp, '%s: lookups above 4 GiB' % fl[0],
               '' if ours == exp else 'got %r want %r' % (ours, exp))
        same32('%s: above 4 GiB: i686 == x86_64 (--rows)' % fl[0],
               ['--rows', f])
        if os.path.exists(LL32):
            o32, _ = lineloc_e(f, addrs, tool=ll32())
            result(o32 == exp, '%s: above 4 GiB: i686 lookups' % fl[0],
                   '' if o32 == exp else 'got %r want %r' % (o32, exp))
    # Large-file safety: .debug_line beyond 4 GiB in a sparse ELF64 file.
    fl = synth.FLAVOURS[1]
    far = os.path.join(work, 'synth-far')
    synth.write_far(far, fl, [('.debug_line', synth.prog_v2('>', 8))],
                    0x123456000)
    text, err = rows(far)
    result(text is not None and text.splitlines() == synth.EXPECT_V2,
           'section at file offset 0x123456040 (sparse 4.5 GiB file)',
           err.strip())
    same32('i686 reads past 4 GiB too', ['--rows', far])
    os.unlink(far)
