#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seeds for fuzz_modlines.c, from relocatable objects compiled here.

A tiny C file (below) with a header under include/linux/ (so that modlines
learns a kernel root), a static helper, a function in .text and one in
.init.text (and, in one seed, a header whose path is longer than modlines
takes), compiled with -c -g -O2 by each cross compiler present; from
each object: .debug_line, its .rela/.rel section, .symtab and
.debug_line_str, written in fuzz_modlines.c's input layout with the object's
text sections laid out as the module loader would (core and init, each
section at a 16-byte boundary after the one before).  For each DWARF 5
object, one more seed (ARCH-section) holds its section of core line
tables (hosttool/lineloc-kbuild --module-sections, built first) in
.debug_line's place.

Reproducible: the sources are compiled in a temporary folder mapped to
/fixture (-fdebug-prefix-map), and the script checks that no trace of
that folder is left in what it writes.  The same compilers give the same
bytes.

usage: make_modlines_corpus.py [OUTDIR]  (default: hosttool/fuzz/corpus_modlines)
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

try:
    from elftools.elf.elffile import ELFFile
except ImportError:
    # Debian's python3-pyelftools, for a python3 that is not Debian's
    sys.path.append('/usr/lib/python3/dist-packages')
    from elftools.elf.elffile import ELFFile

HERE = os.path.dirname(os.path.abspath(__file__))
# the kernel build's lineloc, built from hosttool/ (make hosttool)
LLK = os.path.join(HERE, '..', 'lineloc-kbuild')
OUT = os.path.join(HERE, 'corpus_modlines')

HEADER = r'''/* include/linux/seed.h */
static inline int seed_twice(int x)
{
	return x * 2 + (x >> 3);
}
'''

SOURCE = r'''#include "include/linux/seed.h"

int seed_data[16];

static int __attribute__((noinline)) seed_helper(int x)
{
	int i, s = 0;

	for (i = 0; i < x; i++)
		s += seed_twice(seed_data[i & 15]);
	return s;
}

int seed_core(int x)
{
	if (x < 0)
		return -1;
	return seed_helper(x) + seed_twice(x);
}

int __attribute__((section(".init.text"))) seed_init(void)
{
	return seed_helper(3) - 1;
}

#ifdef SEED_LONG
#include "s.h"

int seed_long(int x)
{
	return seed_deep(x) + 3;
}
#endif
'''

# A header in a folder of LONG_DIR characters (-iquote): joined with /fixture
# and its name, its path is over LINELOC_PATH_MAX (4096), and over the
# 2047 characters modlines takes for a directory that may name a root.
LONG_HEADER = r'''static inline int seed_deep(int x)
{
	return x ^ 0x5a;
}
'''
LONG_DIR = 4088

# name, compiler, flags, machine index of fuzz_modlines.c, big-endian
SEEDS = [
    ('x86_64-dwarf5', 'gcc', ['-ffunction-sections'], 0, False),
    ('x86_64-longpath', 'gcc', ['-DSEED_LONG', '-iquote', 'LONG'], 0, False),
    ('x86_64-dwarf4', 'gcc', ['-gdwarf-4'], 0, False),
    ('i386-dwarf5', 'i686-linux-gnu-gcc', [], 1, False),
    ('i386-dwarf4', 'i686-linux-gnu-gcc', ['-gdwarf-4'], 1, False),
    ('arm-dwarf5', 'arm-linux-gnueabi-gcc', [], 2, False),
    ('armeb-dwarf5', 'arm-linux-gnueabi-gcc', ['-mbig-endian'], 2, True),
    ('arm64-dwarf5', 'aarch64-linux-gnu-gcc', [], 3, False),
    ('arm64be-dwarf4', 'aarch64-linux-gnu-gcc', ['-mbig-endian', '-gdwarf-4'],
     3, True),
]

SHF_ALLOC, SHF_EXECINSTR = 2, 4


def section(elf, name):
    s = elf.get_section_by_name(name)
    return s.data() if s is not None else b''


def encode(obj, machine, big, piece=None):
    """The fuzz input for one object: see fuzz_modlines.c's header.  With
    @piece, that in .debug_line's place (a module's section of line
    tables, which the target also reads it as)."""
    with open(obj, 'rb') as f:
        elf = ELFFile(f)
        li = next(i for i, s in enumerate(elf.iter_sections())
                  if s.name == '.debug_line')
        line = section(elf, '.debug_line') if piece is None else piece
        rel = b''
        for s in elf.iter_sections():
            if s['sh_type'] in ('SHT_REL', 'SHT_RELA') and s['sh_info'] == li:
                rel = s.data()
        sym = section(elf, '.symtab')
        lstr = section(elf, '.debug_line_str')
        secs, end = [], [0, 0]
        for i, s in enumerate(elf.iter_sections()):
            if (s['sh_flags'] & (SHF_ALLOC | SHF_EXECINSTR)) != \
                    (SHF_ALLOC | SHF_EXECINSTR) or not s['sh_size']:
                continue
            r = 1 if s.name.startswith('.init') else 0
            end[r] = (end[r] + 15) & ~15
            secs.append(struct.pack('<BBII', i, r + 1, end[r], s['sh_size']))
            end[r] += s['sh_size']
        shnum = elf.num_sections()
    assert shnum < 256 and len(secs) <= 4, (obj, shnum, len(secs))
    for piece in (line, rel, sym, lstr):
        assert len(piece) < 65536, obj
    flags = machine | (4 if big else 0)       # bias hook off, the kernel's rows a block
    return (bytes([flags]) +
            struct.pack('<4H', len(line), len(rel), len(sym), len(lstr)) +
            line + rel + sym + lstr + bytes([shnum, 0]) + b''.join(secs))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else OUT
    subprocess.run(['make', '-s', '-f', 'hosttool/hosttool.mk',
                    'hosttool/lineloc-kbuild'], cwd=os.path.join(HERE, '..', '..'),
                   check=True)
    os.makedirs(out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix='modlines-seed-')
    try:
        os.makedirs(os.path.join(tmp, 'include', 'linux'))
        with open(os.path.join(tmp, 'include', 'linux', 'seed.h'), 'w') as f:
            f.write(HEADER)
        with open(os.path.join(tmp, 'seed.c'), 'w') as f:
            f.write(SOURCE)
        # Folders of 200 characters, made relative to tmp: the whole path
        # would be past PATH_MAX.
        parts, n = [], 0
        while n < LONG_DIR:
            k = min(200, LONG_DIR - n - (1 if parts else 0))
            parts.append('%03d' % len(parts) + 'd' * (k - 3))
            n += k + (1 if len(parts) > 1 else 0)
        longdir = '/'.join(parts)
        assert len(longdir) == LONG_DIR
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            os.makedirs(longdir)
            with open(longdir + '/s.h', 'w') as f:
                f.write(LONG_HEADER)
        finally:
            os.chdir(cwd)
        made = 0
        for name, cc, flags, machine, big in SEEDS:
            if not shutil.which(cc):
                print('skip %s: no %s' % (name, cc))
                continue
            obj = name + '.o'
            flags = [longdir if x == 'LONG' else x for x in flags]
            subprocess.run([cc, '-c', '-g', '-O2',
                            '-fdebug-prefix-map=%s=/fixture' % tmp] + flags +
                           ['-o', obj, 'seed.c'], cwd=tmp, check=True)
            data = encode(os.path.join(tmp, obj), machine, big)
            assert tmp.encode() not in data and \
                os.path.basename(tmp).encode() not in data, name
            with open(os.path.join(out, name), 'wb') as f:
                f.write(data)
            print('%s: %d bytes' % (name, len(data)))
            made += 1
            # the object's section of core line tables, as the kernel build
            # writes it (lineloc --module-sections), for lineloc_sec_check()
            if not name.endswith('-dwarf5'):
                continue
            core, init = os.path.join(tmp, 'core'), os.path.join(tmp, 'init')
            subprocess.run([LLK, '--module-sections', os.path.join(tmp, obj),
                            core, init], check=True)
            sec = open(core, 'rb').read()
            if sec:
                data = encode(os.path.join(tmp, obj), machine, big, sec)
                with open(os.path.join(out, name[:-6] + 'section'), 'wb') as f:
                    f.write(data)
                print('%s: %d bytes' % (name[:-6] + 'section', len(data)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0 if made else 1


if __name__ == '__main__':
    sys.exit(main())
