# SPDX-License-Identifier: GPL-2.0
"""The cli part: dwarf_line.c built freestanding, as kernel code, for each
toolchain; then command-line behaviour: -o (atomic, what stdout gets),
stdin, coprocess, path stripping, and bad inputs: one error line naming
file, section and offset, no -o file, exit 1 (also after output began).
"""
import os
import re
import shutil
import struct
import subprocess

from .common import (CC, LL, TOOLCHAINS, TOP, WORK_MAP, build, elf_file,
                     elf_sections, parse_rows, result, rows, run, same32, skip)


KERNEL_HELPERS = {'__aeabi_uidiv', '__aeabi_idiv', '__aeabi_uidivmod',
                  '__aeabi_idivmod'}   # arch/arm/lib/lib1funcs.S


def test_freestanding(work):
    """dwarf_line.c builds as kernel code: no libc headers, no symbols but
    what every kernel has (32-bit divisions on arm)."""
    print('== dwarf_line.c freestanding, as in the kernel', flush=True)
    for tc, cc, pre in TOOLCHAINS:
        if not shutil.which(cc):
            skip('freestanding ' + tc, 'no ' + cc)
            continue
        o = os.path.join(work, 'kstub-%s.o' % tc)
        rc, out, err = run([cc, '-std=gnu11', '-O2', '-ffreestanding',
                            '-nostdinc', '-fno-builtin', '-fno-pic',
                            '-D__KERNEL__', '-I',
                            os.path.join(TOP, 'tests', 'hosttool', 'kstub'),
                            '-I', os.path.join(TOP, 'hosttool', 'include'),
                            '-Wall', '-Wextra', '-Werror', '-c',
                            os.path.join(TOP, 'hosttool', 'lib', 'dwarf_line.c'),
                            '-o', o])
        und = set()
        if rc == 0:
            rc, out, err = run([pre + 'nm', '-u', o])
            und = {l.split()[-1] for l in out.splitlines() if l.strip()}
        extra = und - KERNEL_HELPERS
        result(rc == 0 and not extra, 'dwarf_line.c freestanding for %s' % tc,
               err.strip()[:300] if rc else 'undefined: %s' %
               (' '.join(sorted(und)) or 'none'))


def test_cli(work, rnd):
    print('== command line, errors, atomic -o', flush=True)
    d = os.path.join(work, 'cli')
    os.makedirs(d, exist_ok=True)
    exe, obj, err = build(d, 'x86_64', CC['x86_64'], ['-g'], '-O1')
    exe4, obj4, err4 = build(d + '4', 'x86_64', CC['x86_64'],
                             ['-gdwarf-4', '-gno-as-loc-support'], '-O1')
    exez, objz, errz = build(d + 'z', 'x86_64', CC['x86_64'], ['-g', '-gz=zlib'],
                             '-O1')
    if not exe or not exe4 or not objz:
        return result(False, 'cli build', err + err4 + errz)

    # -o writes exactly what stdout gets, atomically
    o = os.path.join(d, 'rows.txt')
    rc, out, err = run([LL, '--rows', exe])
    rc2, out2, err2 = run([LL, '-o', o, '--rows', exe])
    result(rc == 0 and rc2 == 0 and open(o).read() == out and out,
           '-o output equals stdout')
    result(oct(os.stat(o).st_mode & 0o777) != '0o600',
           '-o file gets normal permissions, not mkstemp 0600')

    # stdin, hex with and without 0x, garbage, and flushing per line
    text, _ = rows(exe)
    rws = parse_rows(text)
    a = rws[2][2]
    rc, out, err = run([LL, '--no-strip', '-e', exe],
                       ('%x\n0x%x\nnot-hex\n0\n' % (a, a)).encode())
    ans = out.splitlines()
    result(rc == 0 and len(ans) == 4 and ans[0] == ans[1] and
           ans[0] != '??:0' and ans[2] == '??:0' and ans[3] == '??:0',
           'stdin addresses, with/without 0x, bad and unknown ones', repr(ans))
    # -a, -i, -f: one answer an address, the address first; misused, one
    # error line, the usage, exit 1
    rc, out, err = run([LL, '--no-strip', '-a', '-i', '-f', '-e', exe],
                       ('%x\nnot-hex\n' % a).encode())
    ans = out.splitlines()
    result(rc == 0 and len(ans) >= 6 and ans[0] == '0x%x' % a and
           ans[-3:] == ['??', '??', '??:0'] and ans.count('??') == 2,
           '-a -i -f: the address, then name and path:line a level; '
           'a bad address: ??, ??, ??:0', repr(ans))
    for args, why in ((['-i', '--rows', exe], '-i is for -e FILE, --table-size and'),
                      (['-f', '-e', exe], '-f names each level of -i'),
                      (['-f', '-i', '--table-size', exe], '-f is for -e FILE'),
                      (['-i', '--via-table', '-e', obj], '-i: chains of inlined calls are in a vmlinux'),
                      (['-i', '--table-size', obj], '-i: chains of inlined calls are in a vmlinux'),
                      (['-a', '--stats', exe], '-a is for -e FILE'),
                      (['--inline-stats', exe, '--rows', exe], 'one mode only')):
        rc, out, err = run([LL] + args)
        first = err.splitlines()[0] if err else ''
        result(rc == 1 and not out and why in first and 'usage:' in err,
               'usage error: lineloc %s' % ' '.join(
                   x if x != exe else 'EXE' for x in args), first)
    rc, out, err = run([LL, '--inline-stats', obj])
    result(rc == 1 and not out and len(err.splitlines()) == 1 and
           'relocatable' in err, '--inline-stats of a .o: one error line, '
           'exit 1', err.strip())
    p = subprocess.Popen([LL, '-e', exe], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE)
    got = []
    for x in (a, a + 1):
        p.stdin.write(b'%x\n' % x)
        p.stdin.flush()
        got.append(p.stdout.readline().decode().strip())  # blocks if unflushed
    p.stdin.close()
    p.wait(timeout=10)
    result(len(got) == 2 and all(got), 'coprocess: one answer per line, '
           'flushed', repr(got))

    # kernel-style path stripping: --strip and default
    rc, out, err = run([LL, '--strip', WORK_MAP + '/src', '-e', exe,
                        '%x' % a])
    result(rc == 0 and re.match(r'(main\.c|other\.c|helper\.h):[1-9]\d*$',
                                out.strip()),
           '--strip PREFIX gives source-relative paths', out.strip())

    # bad inputs: one line naming file, section and offset; no -o file
    data = open(obj, 'rb').read()
    data4 = open(obj4, 'rb').read()
    is64, sh = elf_sections(data)
    _, sh4 = elf_sections(data4)
    dl = sh['.debug_line'][2]
    dl4 = sh4['.debug_line'][2]

    def patched(base, edits, trunc=None):
        b = bytearray(base)
        for off, val in edits:
            b[off:off + len(val)] = val
        return bytes(b[:trunc] if trunc else b)

    rela = sh['.rela.debug_line']
    q = lambda v: struct.pack('<Q', v)
    shsz = 32       # sh_size in an ELF64 section header
    eh = elf_file(data).header
    shstr = [h for h in sh.values() if h[1] == 'SHT_STRTAB' and h[6] ==
             eh['e_shoff'] + 64 * eh['e_shstrndx']][0]
    dataz = open(objz, 'rb').read()
    _, shz = elf_sections(dataz)
    cases = [
        ('empty file', b'', 'not an ELF file'),
        ('not ELF', b'hello world, this is not an ELF file at all.....'
         b'.......', 'not an ELF file'),
        ('truncated file', patched(data, [], trunc=len(data) * 2 // 3),
         'past the end of the file'),
        ('unit length past end', patched(data, [(dl, b'\xf0\xff\xff\x7f')]),
         '.debug_line+0x0: unit length past the end'),
        ('bad version', patched(data, [(dl + 4, b'\x09\x00')]),
         '.debug_line+0x4: unsupported line table version (0x9)'),
        ('line_range 0', patched(data, [(dl + 16, b'\x00')]),
         '.debug_line+0x10: line_range is 0'),
        ('opcode_base 0', patched(data, [(dl + 17, b'\x00')]),
         '.debug_line+0x11: opcode_base is 0'),
        ('unknown form', patched(data, [(dl + 32, b'\x7f')]),
         'unsupported form in entry format (0x7f)'),
        ('header_length past unit', patched(data4, [(dl4 + 6, b'\xff\xff\x00\x00')]),
         '.debug_line+0x6: header_length past the end'),
        ('relocation outside its section',
         patched(data, [(rela[2], struct.pack('<Q', 0x7ffff0))]),
         '.rela.debug_line+0x0: relocation at 0x7ffff0 is outside .debug_line'),
        ('unknown relocation type',
         patched(data, [(rela[2] + 8, struct.pack('<I', 0x7e))]),
         'unsupported relocation type 126'),
        # sizes from the file, bounded before anything is allocated
        ('.shstrtab size past the file',
         patched(data, [(shstr[6] + shsz, q(0x7f000000000000e2))]),
         'section name table (section header %d at 0x%x): sh_offset 0x%x + '
         'sh_size 0x7f000000000000e2 is past the end of the file (0x%x)' %
         ((shstr[6] - eh['e_shoff']) // 64,
          shstr[6], shstr[2], len(data))),
        ('.shstrtab size past 4 GiB',
         patched(data, [(shstr[6] + shsz, q((1 << 32) | shstr[3]))]),
         'sh_size 0x1%08x is past the end of the file' % shstr[3]),
        ('.debug_line size past the file',
         patched(data, [(sh['.debug_line'][6] + shsz, q(1 << 40))]),
         '.debug_line (section header'),
        ('.symtab size past the file',
         patched(data, [(sh['.symtab'][6] + shsz, q(0x7f00000000000018))]),
         '.symtab (section header'),
        ('e_shnum past the file', patched(data, [(60, b'\x00\xff')]),
         '65280 section headers (e_shnum) of 64 bytes at 0x'),
        ('section count in section 0 past the file',
         patched(data, [(60, b'\x00\x00'),
                        (eh['e_shoff'] + shsz,
                         q(1 << 32))]),
         '4294967296 section headers (sh_size of section header 0)'),
        ('e_shoff past the file',
         patched(data, [(40, q(0x7f00000000000000))]),
         'section header 0 (e_shoff) at 0x7f00000000000000 (0x40 bytes) is '
         'past the end of the file'),
        ('compressed ch_size impossible',
         patched(dataz, [(shz['.debug_line'][2] + 8,
                          q(0x7f000000000000e3))]),
         '.debug_line+0x8: ch_size 0x7f000000000000e3 is impossible for'),
        ('relocation symbol index past .symtab',
         patched(data, [(rela[2] + 12, struct.pack('<I', 0x7fffffff))]),
         '.rela.debug_line+0x0: bad symbol index 2147483647'),
    ]
    for cname, blob, want in cases:
        f = os.path.join(d, 'bad-' + cname.replace(' ', '_'))
        open(f, 'wb').write(blob)
        out_path = os.path.join(d, 'out-' + cname.replace(' ', '_'))
        okall = True
        detail = ''
        for mode in (['--rows'], ['--stats'], ['-e']):
            args = ['-o', out_path] + mode + [f] + (['0'] if mode == ['-e']
                                                    else [])
            p = subprocess.run([LL] + args, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            e = p.stderr.decode()
            lines = e.splitlines()
            good = (p.returncode == 1 and len(lines) == 1 and
                    lines[0].startswith('lineloc: %s: ' % f) and want in e and
                    not os.path.exists(out_path) and
                    not [x for x in os.listdir(d)
                         if x.startswith(os.path.basename(out_path))])
            if not good:
                okall = False
                detail = 'rc %d: %r' % (p.returncode, e.strip())
            else:
                detail = lines[0]
        result(okall, 'bad input: ' + cname, detail)
        same32('bad input i686: ' + cname, ['--rows', f])

    # error after output began on stdout: rows, then the error line, rc 1
    two = open(exe4, 'rb').read()
    _, she = elf_sections(two)
    dle, dlsize = she['.debug_line'][2], she['.debug_line'][3]
    first_len = struct.unpack_from('<I', two, dle)[0]
    second = dle + 4 + first_len
    hlen = struct.unpack_from('<I', two, second + 6)[0]
    prog = second + 10 + hlen
    if second + 6 < dle + dlsize and two[prog] == 0:
        # the second unit's first opcode: extended, length made 0
        f = os.path.join(d, 'bad-second-unit')
        open(f, 'wb').write(patched(two, [(prog + 1, b'\x00')]))
        p = subprocess.run([LL, '--rows', f], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        e = p.stderr.decode().splitlines()
        result(p.returncode == 1 and p.stdout and len(e) == 1 and
               'extended opcode with length 0' in e[0],
               'error after output began: rows, one error line, exit 1',
               '%d bytes out, %r' % (len(p.stdout), e))
    else:
        result(False, 'error after output began', 'no second unit to break')
