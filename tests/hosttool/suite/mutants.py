# SPDX-License-Identifier: GPL-2.0
"""The mutants part: lineloc's own parsing (ELF, relocations, .debug_info,
paths) under ASan and UBSan on corrupted objects and executables, from a
seed (HT_MUTANT_SEED; "random" explores): exit 0 or 1, one error line, no
sanitizer report.  Then every size, offset, count and index field the ELF
reader reads, set to extreme values, through the ASan build and through
lineloc-i686, which must print the same bytes.
"""
import os
import random
import re
import shutil
import struct
import subprocess
import tempfile

from .common import (CC, HT_INC, HT_TOOL_SRCS, LL32, QUICK, build, elf_file,
                     elf_sections, ll32, note, result, run)


MUTANT_SEED = 5     # the default; HT_MUTANT_SEED overrides
KEEP = os.path.join(tempfile.gettempdir(), 'lineloc-bad-mutants')


def mutant_seed():
    """HT_MUTANT_SEED: a number replays that run, 'random' picks one."""
    v = os.environ.get('HT_MUTANT_SEED', str(MUTANT_SEED))
    if v == 'random':
        return random.SystemRandom().randrange(1 << 32)
    return int(v, 0)


def elf_fields(data):
    """(label, offset, width) of the sizes, offsets, counts and indexes
    lineloc's ELF reader takes from @data: the ELF header's, those of
    section 0 and of every section lineloc reads, compression headers, and
    the first relocations of each relocation section.  The headers are read
    by pyelftools; the offsets and widths of their fields are what the
    mutants overwrite."""
    elf = elf_file(data)
    order = '<' if elf.little_endian else '>'

    def u(fmt, off):
        return struct.unpack_from(order + fmt, data, off)[0]

    if elf.elfclass == 64:
        fields = [('e_shoff', 40, 8), ('e_shentsize', 58, 2),
                  ('e_shnum', 60, 2), ('e_shstrndx', 62, 2)]
        shf = [('sh_flags', 8, 8), ('sh_offset', 24, 8), ('sh_size', 32, 8),
               ('sh_link', 40, 4), ('sh_info', 44, 4)]
        chf, relent, relf = [('ch_type', 0, 4), ('ch_size', 8, 8)], 24, [
            ('r_offset', 0, 8), ('r_info', 8, 8)]
    else:
        fields = [('e_shoff', 32, 4), ('e_shentsize', 46, 2),
                  ('e_shnum', 48, 2), ('e_shstrndx', 50, 2)]
        shf = [('sh_flags', 8, 4), ('sh_offset', 16, 4), ('sh_size', 20, 4),
               ('sh_link', 24, 4), ('sh_info', 28, 4)]
        chf, relent, relf = [('ch_type', 0, 4), ('ch_size', 4, 4)], 8, [
            ('r_offset', 0, 4), ('r_info', 4, 4)]
    shoff, shentsize = elf.header['e_shoff'], elf.header['e_shentsize']
    shstrndx = elf.header['e_shstrndx']
    for i, sec in enumerate(elf.iter_sections()):
        h = shoff + i * shentsize
        nm = sec.name if i else 'section 0'
        typ, off, flags = sec['sh_type'], sec['sh_offset'], sec['sh_flags']
        if not (i == 0 or i == shstrndx or nm.startswith(
                ('.debug_', '.rel.debug_', '.rela.debug_')) or
                nm in ('.symtab', '.text')):
            continue
        fields += [('%s %s' % (nm, f), h + o, w) for f, o, w in shf]
        if flags & 0x800:       # SHF_COMPRESSED
            fields += [('%s %s' % (nm, f), off + o, w) for f, o, w in chf]
        if typ in ('SHT_RELA', 'SHT_REL'):
            ent = relent if typ == 'SHT_RELA' else relent * 2 // 3
            for k in range(2):
                fields += [('%s[%d] %s' % (nm, k, f), off + k * ent + o, w)
                           for f, o, w in relf]
        # the first header of the DWARF sections read for unit ranges
        if flags & 0x800 or nm not in DWARF_HEADERS or \
                u('I', off) == 0xffffffff:
            continue
        hf = DWARF_HEADERS[nm]
        if nm == '.debug_info':
            hf = hf[u('H', off + 4) >= 5]
        fields += [('%s %s' % (nm, f), off + o, w) for f, o, w in hf]
    return fields


# (field, offset, width) of the first header of a 32-bit DWARF section
DWARF_HEADERS = {
    '.debug_info': ([('unit_length', 0, 4), ('version', 4, 2),
                     ('debug_abbrev_offset', 6, 4), ('address_size', 10, 1)],
                    [('unit_length', 0, 4), ('version', 4, 2),
                     ('unit_type', 6, 1), ('address_size', 7, 1),
                     ('debug_abbrev_offset', 8, 4)]),
    '.debug_aranges': [('unit_length', 0, 4), ('version', 4, 2),
                       ('debug_info_offset', 6, 4), ('address_size', 10, 1),
                       ('segment_selector_size', 11, 1)],
    '.debug_rnglists': [('unit_length', 0, 4), ('version', 4, 2),
                        ('address_size', 6, 1), ('offset_entry_count', 8, 4)],
    '.debug_addr': [('unit_length', 0, 4), ('version', 4, 2),
                    ('address_size', 6, 1)],
}


def field_mutants(data):
    """Each field of elf_fields() in turn set to values that break naive
    size arithmetic: 0 and the top of a 16-bit field; 2^31, 2^32 - 1 and
    one past the file in a 32-bit one; the old value plus 2^32 (where a
    32-bit size_t wraps), 0x7f000000000000e3 and one past the file in a
    64-bit one; sh_flags with SHF_COMPRESSED flipped."""
    order = 'little' if elf_file(data).little_endian else 'big'
    for label, off, w in elf_fields(data):
        old = int.from_bytes(data[off:off + w], order)
        if label.endswith('sh_flags'):
            vals = {old ^ 0x800}
        elif w == 1:
            vals = {0, 3, 0xff}
        elif w == 2:
            vals = {0, 0xff00, 0xffff}
        elif w == 4:
            vals = {0x80000000, 0xffffffff, len(data) + 1}
        else:
            vals = {(1 << 32) | (old & 0xffffffff), 0x7f000000000000e3,
                    len(data) + 1}
        for v in sorted(vals):
            v &= (1 << (8 * w)) - 1
            if v != old:
                b = bytearray(data)
                b[off:off + w] = v.to_bytes(w, order)
                yield '%s = 0x%x' % (label, v), bytes(b)


def mutant_ok(f, p):
    """Exit 0, or 1 with exactly one line naming @f; no sanitizer report."""
    e = p.stderr.decode('utf-8', 'replace')
    lines = e.splitlines()
    return not (p.returncode not in (0, 1) or 'Sanitizer' in e or
                'runtime error' in e or
                (p.returncode == 1 and (len(lines) != 1 or not lines[0]
                                        .startswith('lineloc: %s: ' % f))))


def test_mutants(work, seed):
    """lineloc's own parsing (ELF, relocations, .debug_info, paths) under
    ASan and UBSan on corrupted objects: exit 0 or 1, one error line, no
    sanitizer report.  (dwarf_line.c gets the libFuzzer target.)  The
    objects are reproducible and the corruption comes from @seed, so a
    run is replayed with HT_MUTANT_SEED=@seed.  Then every size, offset,
    count and index field the ELF reader reads, set to extreme values."""
    rnd = random.Random(seed)
    n = 40 if QUICK else 250
    print('== %d corrupted objects and executables through an ASan/UBSan '
          'lineloc, seed %d (HT_MUTANT_SEED=%d replays, HT_MUTANT_SEED=random '
          'explores)' % (8 * n, seed, seed), flush=True)
    asan = os.path.join(work, 'lineloc-asan')
    rc, out, err = run(['gcc', '-std=c11', '-g', '-O1', '-DHAVE_ZLIB',
                        '-D_FILE_OFFSET_BITS=64', '-fsanitize=address,undefined',
                        '-fno-sanitize-recover=all', '-o', asan] + HT_INC +
                       HT_TOOL_SRCS + ['-lz'])
    if rc:
        return result(False, 'build ASan lineloc', err[-300:])
    bases = []
    exes = []
    for tc, cc, flags in (('x86_64', CC['x86_64'], ['-g']),
                          ('arm', 'arm-linux-gnueabi-gcc',
                           ['-gdwarf-2', '-gno-as-loc-support']),
                          ('arm64', 'aarch64-linux-gnu-gcc',
                           ['-gdwarf-5', '-gdwarf64', '-gno-as-loc-support']),
                          ('i386', 'i686-linux-gnu-gcc', ['-g', '-gz=zlib'])):
        if shutil.which(cc):
            exe, obj, err = build(os.path.join(work, 'mut'), tc, cc, flags,
                                  '-O1')
            if obj:
                bases.append(open(obj, 'rb').read())
            if exe:
                exes.append(open(exe, 'rb').read())
    env = dict(os.environ, ASAN_OPTIONS='detect_leaks=0:allocator_may_return_null=1')
    bad = []
    runs = 0
    # Objects: bytes anywhere.  Executables: bytes of their DWARF sections,
    # where the unit DIEs, .debug_aranges and the range lists are read.
    targets = [(b, [(0, len(b))]) for b in bases]
    for b in exes:
        _, sh = elf_sections(b)
        targets.append((b, [(h[2], h[3]) for k, h in sorted(sh.items())
                            if k.startswith('.debug_') and h[3]]))
    for base, regions in targets:
        for i in range(n):
            b = bytearray(base)
            for _ in range(rnd.choice((1, 2, 4, 8))):
                r0, rn = rnd.choice(regions)
                off = r0 + rnd.randrange(rn)
                b[off] = rnd.choice((0, 0xff, 0x7f, 0x80, rnd.randrange(256)))
            if rnd.random() < 0.1:
                b = b[:rnd.randrange(len(b))]
            f = os.path.join(work, 'mutant')
            open(f, 'wb').write(bytes(b))
            mode = rnd.choice((['--rows', f], ['--stats', f],
                               ['-e', f, '-j', '.text', '0', '10', '20']))
            p = subprocess.run([asan] + mode, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=env)
            runs += 1
            if not mutant_ok(f, p):
                keep = os.path.join(KEEP, 'bad-mutant-%d-%d' % (seed, runs))
                os.makedirs(KEEP, exist_ok=True)
                shutil.copy(f, keep)
                bad.append((p.returncode, p.stderr.decode('utf-8', 'replace')
                            .strip()[:400],
                            ' '.join(mode[:1] + [keep] + mode[2:])))
    result(not bad and runs > 0, 'corrupted objects and executables: no '
           'crash, one error line', 'seed %d, %d runs, %d bad' %
           (seed, runs, len(bad)))
    for rc, e, cmd in bad[:3]:
        note('rc %d: lineloc %s: %s' % (rc, cmd, e))

    # Field mutants: deterministic, no seed.  Each through the ASan build
    # (--stats reads what -e reads) and through lineloc-i686, which must
    # print the same bytes: sizes past 4 GiB are where a 32-bit host's
    # size_t would wrap.
    bad, diff32, runs, errs = [], [], 0, {}
    f = os.path.join(work, 'field-mutant')
    muts = [m for base in bases + exes for m in field_mutants(base)]
    if QUICK:
        muts = muts[::5]
    print('== %d field mutants: sizes, offsets, counts, indexes of the ELF '
          'reader set to extreme values' % len(muts), flush=True)
    for label, blob in muts:
        open(f, 'wb').write(blob)
        mode = ['--stats', f] if runs % 2 else ['--rows', f]
        runs += 1
        p = subprocess.run([asan] + mode, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env)
        if not mutant_ok(f, p):
            keep = os.path.join(KEEP, 'bad-field-mutant-%d' % runs)
            os.makedirs(KEEP, exist_ok=True)
            shutil.copy(f, keep)
            bad.append((label, p.returncode, p.stderr.decode(
                'utf-8', 'replace').strip()[:400], mode[0] + ' ' + keep))
        elif p.returncode:
            k = re.sub(r'0x[0-9a-f]+|\d+', 'N', p.stderr.decode()
                       .split(': ', 2)[-1].strip())
            errs[k] = errs.get(k, 0) + 1
        if os.path.exists(LL32):
            b = subprocess.run(ll32() + mode, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            if (p.returncode, p.stdout, p.stderr) != \
                    (b.returncode, b.stdout, b.stderr) and \
                    b'without zlib' not in b.stderr:
                diff32.append((label, p.stderr.decode().strip()[:200],
                               b.stderr.decode().strip()[:200]))
    result(not bad and runs > 0, 'field mutants: no crash, one error line '
           'naming the file', '%d runs, %d bad, %d kinds of error' %
           (runs, len(bad), len(errs)))
    for label, rc, e, cmd in bad[:5]:
        note('%s: rc %d: lineloc %s: %s' % (label, rc, cmd, e))
    if os.path.exists(LL32):
        result(not diff32, 'field mutants: lineloc-i686 prints the same bytes',
               '%d differ' % len(diff32))
        for label, a, b in diff32[:5]:
            note('%s: x86_64 %s | i686 %s' % (label, a, b))
    for k, v in sorted(errs.items(), key=lambda x: -x[1])[:8]:
        note('%4d x %s' % (v, k))
