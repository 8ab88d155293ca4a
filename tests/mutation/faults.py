# SPDX-License-Identifier: GPL-2.0
"""The faults tests/mutation/run.py plants, one at a time, in a scratch
copy of the repository (make mutation-check).

CHECKS: name -> the shell command (run from the top of the scratch copy)
that must go red on a fault; the narrowest test that catches it, so the
whole run stays short.  Each one is run once on the unmodified copy first:
it must be green there.

FAULTS: each fault names the file it edits (repo-relative), the exact text
it replaces (which must occur exactly once in that file: a stale entry is
an error, not a silent skip), the replacement, and the checks, any one of
which going red catches it.

lineloc's sources live in hosttool/; the kernel's copy (series/6.1/) is made
from them, so hosttool/ is what is mutated.

A fault with 'tree': 'kernel' lives in the kernel only: its file is a path
of the kernel tree (a worktree of build/src/linux at branch lineloc, never
that tree itself), and it is built for its 'arch' (boot configuration
'config'), booted under QEMU and judged by the matrix (matrix/run-arch.sh);
its 'checks' are names of the judge's checks in that configuration's
result.json (fnmatch patterns allowed), any one of which going red catches
it.  The unmodified tree is built, booted and judged once per arch first:
every check a fault names must be there and green.
"""

HOSTSUITE = 'python3 tests/hosttool/hostsuite.py'

CHECKS = {
    'synth': HOSTSUITE + ' synth',
    # the generated part on its quick variant set (HT_QUICK=1): every
    # toolchain's executables and objects, REL (i386, arm) and RELA
    'generated-quick': 'HT_QUICK=1 ' + HOSTSUITE + ' generated',
    'linetab': 'tests/hosttool/linetab.sh',
    # dwarf_line.c under libFuzzer with ASan and UBSan: a fixed run count
    # from seed 1, the same inputs every run (tests/hosttool/fuzz.sh)
    'fuzz-dwarf-line': 'HT_FUZZ_RUNS=200000 HT_FUZZ_SEED=1 '
                       'tests/hosttool/fuzz.sh',
    # DWARF 5 entry forms vs llvm-dwarfdump, big-endian objects vs the
    # cross addr2line, damaged compact tables (issue 26 item 6)
    'oracles': HOSTSUITE + ' oracles',
    # the host-tool suite whole, as make test runs it: what every host
    # fault must turn red under MUTATION_WHOLE=1 (tests/mutation/run.py)
    'hosttool': 'make --no-print-directory test-hosttool HT_PARTS=tools',
}

FAULTS = [
    {
        'name': 'line-off-by-one',
        'what': 'the line register starts at 2, not 1: each line one high',
        'file': 'hosttool/lib/dwarf_line.c',
        'old': '\ts->r.line = 1;\n',
        'new': '\ts->r.line = 2;\n',
        'checks': ['synth'],
    },
    {
        'name': 'address-off-by-one-insn',
        'what': 'a special opcode advances one instruction too far',
        'file': 'hosttool/lib/dwarf_line.c',
        'old': '\t\t\tadvance(&s, u, adj / u->line_range);\n',
        'new': '\t\t\tadvance(&s, u, adj / u->line_range + 1);\n',
        'checks': ['synth'],
    },
    {
        'name': 'rel-addend-ignored',
        'what': 'REL relocations: the addend in the section contents ignored',
        'file': 'hosttool/lib/dwarf_reloc.c',
        'old': '\t\taddend = rd(r, r->target + off, (unsigned int)size);\n',
        'new': '\t\taddend = 0;\n',
        'checks': ['generated-quick'],
    },
    {
        'name': 'rela-addend-twice',
        'what': 'RELA relocations: the addend added twice',
        'file': 'hosttool/lib/dwarf_reloc.c',
        'old': '\tvalue += addend;\n',
        'new': '\tvalue += addend;\n\tif (r->rela)\n\t\tvalue += addend;\n',
        'checks': ['generated-quick'],
    },
    {
        'name': 'address-truncated-32bit-host',
        'what': 'an address in an unsigned long: 32 bits on a 32-bit host',
        'file': 'hosttool/lib/dwarf_line.c',
        'old': '\ts->r.address &= s->addr_mask;\n',
        'new': ('\ts->r.address = (unsigned long)(s->r.address &'
                ' s->addr_mask);\n'),
        'checks': ['synth'],
    },
    {
        'name': 'dwarf5-file-0-1-swapped',
        'what': 'DWARF 5 file entries 0 and 1 swapped',
        'file': 'hosttool/kbuild/tables.c',
        'old': '\tu->files[u->nfiles++] = id;\n\treturn 0;\n',
        'new': ('\tu->files[u->nfiles++] = id;\n'
                '\tif (u->h.version >= 5 && u->nfiles == 2) {\n'
                '\t\tid = u->files[0];\n'
                '\t\tu->files[0] = u->files[1];\n'
                '\t\tu->files[1] = id;\n'
                '\t}\n'
                '\treturn 0;\n'),
        'checks': ['synth'],
    },
    {
        'name': 'first-row-at-address',
        'what': 'of the rows at one address the first answers, not the last',
        'file': 'hosttool/modes.c',
        'old': '\t\t\treturn lo ? &r[lo - 1] : NULL;\n',
        'new': ('\t\t\twhile (lo > 1 && r[lo - 2].addr == r[lo - 1].addr)\n'
                '\t\t\t\tlo--;\n'
                '\t\t\treturn lo ? &r[lo - 1] : NULL;\n'),
        'checks': ['synth'],
    },
    {
        'name': 'read-past-section',
        'what': 'a ULEB128 read allowed at the limit: one byte past it',
        'file': 'hosttool/lib/dwarf_cursor.h',
        'old': '\tif (left(c) >= 1 && !(c->buf[c->pos] & 0x80)) {\n',
        'new': '\tif (c->pos <= c->end && !(c->buf[c->pos] & 0x80)) {\n',
        'checks': ['fuzz-dwarf-line'],
    },
    {
        'name': 'cu-ranges-ignored',
        'what': 'rows not clipped to their unit\'s address ranges',
        'file': 'hosttool/kbuild/tables.c',
        'old': '\tif (t->clip == CLIP_ON && u->clip) {\n',
        'new': '\tif (t->clip == CLIP_ON && u->clip && 0) {\n',
        'checks': ['synth'],
    },
    {
        'name': 'linetab-block-index-off-by-one',
        'what': 'the compact table\'s index entry of block 1 one byte high',
        'file': 'hosttool/lib/linetab_enc.c',
        'old': '\t\tput16(p + pos + 12 * nsuper + 4 * blk, o - so);\n',
        'new': ('\t\tput16(p + pos + 12 * nsuper + 4 * blk,'
                ' o - so + (blk == 1));\n'),
        'checks': ['linetab'],
    },
    {
        'name': 'form-data2-read-as-data4',
        'what': 'a DW_FORM_data2 entry value read as four bytes',
        'file': 'hosttool/lib/dwarf_line.c',
        'old': '\tcase DW_FORM_data2:\n\t\treturn read_un(ctx, c, 2, num);\n',
        'new': '\tcase DW_FORM_data2:\n\t\treturn read_un(ctx, c, 4, num);\n',
        'checks': ['oracles'],
    },
    {
        'name': 'form-block2-length-one-byte',
        'what': 'a DW_FORM_block2 length read as one byte',
        'file': 'hosttool/lib/dwarf_line.c',
        'old': '\tcase DW_FORM_block2:\n\t\terr = read_un(ctx, c, 2, &n);\n',
        'new': '\tcase DW_FORM_block2:\n\t\terr = read_un(ctx, c, 1, &n);\n',
        'checks': ['oracles'],
    },
    {
        'name': 'form-strx1-refused-late',
        'what': 'DW_FORM_strx1 let through the entry format, refused only '
                'at the first entry (the error names the wrong offset)',
        'file': 'hosttool/lib/dwarf_line.c',
        'old': '\tcase DW_FORM_block4:\n\t\treturn true;\n',
        'new': '\tcase DW_FORM_block4:\n\tcase DW_FORM_strx1:\n'
               '\t\treturn true;\n',
        'checks': ['oracles'],
    },
    {
        'name': 'rel-addend-little-endian',
        'what': 'the module loader\'s resolver reads a REL addend in '
                'little-endian order in a big-endian object',
        'file': 'hosttool/lib/dwarf_reloc.c',
        'old': '\t\tif (!r->rela)\t/* REL: the addend is the field\'s '
               'contents */\n\t\t\taddend = rd(r, r->target + off, '
               '(unsigned int)size);\n',
        'new': '\t\tif (!r->rela) {\t/* REL: the addend is the field\'s '
               'contents */\n\t\t\tstruct lineloc_rel le = *r;\n\n'
               '\t\t\tle.big_endian = false;\n'
               '\t\t\taddend = rd(&le, r->target + off, (unsigned int)size);\n'
               '\t\t}\n',
        'checks': ['oracles'],
    },
    {
        'name': 'linetab-code-error-as-data',
        'what': 'a damaged prefix code reported as LINELOC_E_DATA, not '
                'LINELOC_E_CODE',
        'file': 'hosttool/lib/linetab_dec.c',
        'old': '\t\t\tb->err = -LINELOC_E_CODE;\n',
        'new': '\t\t\tb->err = -LINELOC_E_DATA;\n',
        'checks': ['oracles'],
    },
    # The path rule (issue 26 item 6): paths compared whole, by the
    # documented rule, not by file name.
    {
        'name': 'modlines-v5-comp-dir-not-joined',
        'what': 'the module loader leaves a DWARF 5 relative directory '
                'unjoined to directory 0 (the compilation directory)',
        'file': 'hosttool/lib/modlines.c',
        'old': '\t\tcomp = d && s->idirs ? s->dirs[0] : NULL;\n',
        'new': '\t\tcomp = NULL;\n',
        'checks': ['oracles', 'generated-quick'],
    },
    {
        'name': 'modlines-file-name-only',
        'what': 'the module loader drops the directory: a file name alone '
                '(what a compare by file name lets through)',
        'file': 'hosttool/lib/modlines.c',
        'old': '\tif (ml_join(s->tmp, LINELOC_PATH_MAX, comp, dir, '
               's->files[i].name))\n',
        'new': '\tdir = NULL;\n\tcomp = NULL;\n'
               '\tif (ml_join(s->tmp, LINELOC_PATH_MAX, comp, dir, '
               's->files[i].name))\n',
        'checks': ['generated-quick', 'oracles'],
    },
    {
        'name': 'usr-include-taken-for-a-kernel',
        'what': 'lineloc takes /usr/include/linux for a kernel tree: a user '
                'program\'s compilation directory stripped',
        'file': 'hosttool/lib/modlines.c',
        'old': ('\tif (n >= 5 && !memcmp(root + n - 5, "/usr/", 5))\n'
                '\t\treturn true;\n'),
        'new': '',
        'checks': ['oracles'],
    },
    {
        'name': 'cross-usr-include-taken-for-a-kernel',
        'what': 'lineloc takes a cross toolchain\'s /usr/<triplet>/include/linux '
                'for a kernel tree',
        'file': 'hosttool/lib/modlines.c',
        'old': ('\tfor (i = 5; i < n - 1; i++)\n\t\tif (root[i] == \'/\')\n'
                '\t\t\treturn false;\n\treturn true;\n'),
        'new': ('\tfor (i = 5; i < n - 1; i++)\n\t\tif (root[i] == \'/\')\n'
                '\t\t\treturn false;\n\treturn false;\n'),
        'checks': ['oracles'],
    },
    # Kernel faults (tree 'kernel'): one arm kernel, built incrementally,
    # serves all three (arm's judge takes the frame after exception entry
    # as the interrupted pc, and its kernel is Thumb-2).
    {
        'name': 'init-rows-after-init',
        'what': 'vmlinux\'s init-text rows still used once init memory is freed',
        'tree': 'kernel',
        'arch': 'arm',
        'config': 'on',
        'file': 'kernel/kallsyms_lines.c',
        'old': ('\t} else if (is_kernel_inittext(addr) &&\n'
                '\t\t   system_state < SYSTEM_FREEING_INITMEM) {\n'),
        'new': '\t} else if (is_kernel_inittext(addr)) {\n',
        'checks': ['init text: no location after boot'],
    },
    {
        'name': 'interrupted-pc-minus-one',
        'what': 'ARM: the pc after exception entry looked up at pc - 1 (%pBl)',
        'tree': 'kernel',
        'arch': 'arm',
        'config': 'on',
        'file': 'arch/arm/kernel/traps.c',
        'old': ('\t\tprintk("%s %ps from %pSl\\n", loglvl, (void *)where,'
                ' (void *)from);\n'),
        'new': ('\t\tprintk("%s %ps from %pBl\\n", loglvl, (void *)where,'
                ' (void *)from);\n'),
        'checks': ['probe: interrupted pc printed as is',
                   'locations agree with llvm-symbolizer',
                   'module frames: locations agree with addr2line*'],
    },
    {
        'name': 'thumb-bit-kept',
        'what': 'Thumb-2: a return address\'s location looked up at its '
                'odd value - 1',
        'tree': 'kernel',
        'arch': 'arm',
        'config': 'on',
        'file': 'kernel/kallsyms_lines.c',
        'old': ('\t\tif (IS_ENABLED(CONFIG_THUMB2_KERNEL))\n'
                '\t\t\taddr &= ~1UL;\n\t\taddr--;\n'),
        'new': '\t\taddr--;\n',
        'checks': ['module frames: locations agree with addr2line*',
                   'locations agree with llvm-symbolizer',
                   '*: printed location is the marker',
                   'KUnit kallsyms_line_loc*'],
    },
    # The chains of inlined calls (issue 32): a level dropped from the
    # printed lines, and the frame's outermost call one line off.
    {
        'name': 'inline-level-dropped',
        'what': 'the innermost level of inlined calls not printed',
        'tree': 'kernel',
        'arch': 'arm',
        'config': 'on',
        'file': 'kernel/kallsyms_lines.c',
        'old': '\tfor (i = 0; i < n; i++) {\n\t\tif (lineloc_name(',
        'new': '\tfor (i = 1; i < n; i++) {\n\t\tif (lineloc_name(',
        'checks': ["inlined calls: every located frame's chain is llvm-symbolizer's"],
    },
    {
        'name': 'inline-outer-line-off-by-one',
        'what': 'a frame\'s outermost inlined call one line high',
        'tree': 'kernel',
        'arch': 'arm',
        'config': 'on',
        'file': 'lib/lineloc/linetab_dec.c',
        'old': '\tloc->line = ch.lv[0].line;\n',
        'new': '\tloc->line = ch.lv[0].line + 1;\n',
        'checks': ["inlined calls: every located frame's chain is llvm-symbolizer's",
                   'locations agree with llvm-symbolizer'],
    },
    {
        'name': 'module-table-freed-before-grace-period',
        'what': 'an unloaded module\'s line tables freed before the RCU '
                'grace period that lookups hold',
        'tree': 'kernel',
        'arch': 'x86_64',
        # the hardened kernel (KASAN, two CPUs), booted with the hold step
        # alone: lltest_race keeps the table in a read section across
        # the unload (qemu/plans/hardened-hold.plan)
        'config': 'hardened-hold',
        'file': 'kernel/module/main.c',
        'old': ('\t/* Wait for RCU-sched synchronizing before releasing '
                'mod->list and buglist. */\n\tsynchronize_rcu();\n'),
        'new': ('\tmodule_lines_free(mod);\n'
                '\t/* Wait for RCU-sched synchronizing before releasing '
                'mod->list and buglist. */\n\tsynchronize_rcu();\n'),
        'checks': ['hardened: no KASAN report'],
    },
    # The oracles of issue 26 on the kernel side, one x86_64 kernel (line
    # locations on) for the first four.
    {
        'name': 'text-offset-rounded',
        'what': 'vmlinux: an address looked up at its offset rounded down to '
                '16 bytes (a wrong line inside functions)',
        'tree': 'kernel',
        'arch': 'x86_64',
        'config': 'on',
        'file': 'kernel/kallsyms_lines.c',
        'old': '\t\to = addr - (unsigned long)_text;\n',
        'new': '\t\to = (addr - (unsigned long)_text) & ~0xfUL;\n',
        'checks': ['textlocs: every address agrees with llvm-symbolizer (as is)'],
    },
    {
        'name': 'variant-warning-offset-dropped',
        'what': 'a module whose .debug_line is refused: the warning names '
                '.debug_line+0x0, not the offset the decoder stopped at',
        'tree': 'kernel',
        'arch': 'x86_64',
        'config': 'on',
        'file': 'kernel/module/lines.c',
        'old': ('\t\t\tmod->name, out.err_off, lineloc_mod_strerror(err, &out),\n'),
        'new': ('\t\t\tmod->name, 0ULL, lineloc_mod_strerror(err, &out),\n'),
        'checks': ['module variants: * load as specified*'],
    },
    {
        'name': 'linesize-counts-header',
        'what': '/sys/module/*/linesize counts each table\'s header',
        'tree': 'kernel',
        'arch': 'x86_64',
        'config': 'on',
        'file': 'kernel/module/lines.c',
        'old': '\t\t\tsize += ml->size;\n',
        'new': '\t\t\tsize += ml->size + sizeof(*ml);\n',
        'checks': ["module table: linesize after init is lineloc --table-size's core bytes"],
    },
    {
        'name': 'init-table-kept-after-init',
        'what': 'a module\'s init-text table kept once its init text is freed',
        'tree': 'kernel',
        'arch': 'x86_64',
        'config': 'on',
        'file': 'kernel/module/main.c',
        'old': '\tfreeinit->lines = module_lines_take_init(mod);\n',
        'new': '\tfreeinit->lines = NULL;\n',
        'checks': ["module table: linesize after init is lineloc --table-size's core bytes"],
    },
    {
        'name': 'init-table-freed-before-grace-period',
        'what': 'a module\'s init-text table freed at the end of its init, '
                'before the RCU grace period that lookups hold',
        'tree': 'kernel',
        'arch': 'x86_64',
        # lltest_race hold_init=1 holds it across that end
        # (qemu/plans/hardened-hold.plan)
        'config': 'hardened-hold',
        'file': 'kernel/module/main.c',
        'old': '\tfreeinit->lines = module_lines_take_init(mod);\n',
        'new': ('\tkvfree(module_lines_take_init(mod));\n'
                '\tfreeinit->lines = NULL;\n'),
        'checks': ['hardened: no KASAN report'],
    },
]
