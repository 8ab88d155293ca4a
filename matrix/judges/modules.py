# SPDX-License-Identifier: GPL-2.0
"""The test module's frames and its loads: every lltest frame against
addr2line on the .ko, the load-time variants (one warning or a table, as
the manifest says), the line sources of the built, installed and
stripped module, the table size after init, and the load times."""
import json
import os
import re
import subprocess

from console import (ANY_LOCATION, CRASH, FIRES, INIT, INSMOD_OK, LOADTIME, LOCATED,
                     LOC_INIT_AFTER, WARN_NO_LINES, trace_frames)
from oracles import ModuleOracle, module_strip, strip_path


def variant_segments(lines):
    """The lines of each variant the init loaded ("variant FILE" up to the
    next variant or the "variants DIR: N loaded" line): {file: (start, end)}."""
    out, cur = {}, None
    for i, l in enumerate(lines):
        if l.startswith(INIT + 'variant ') or l.startswith(INIT + 'variants '):
            if cur:
                out[cur[0]] = (cur[1], i)
            cur = (l[len(INIT + 'variant '):].strip(), i + 1) \
                if l.startswith(INIT + 'variant ') else None
    if cur:
        out[cur[0]] = (cur[1], len(lines))
    return out


def check_frames(lines, a, oracle, syms, skip=()):
    """lltest frames of @lines against @oracle: (seen, located, agreeing,
    bad).  A printed location must be addr2line's (every section) and, in
    .text, llvm-symbolizer's too where it answers (LLVM 14 may answer ??
    in a relocatable object).  Line indexes in @skip are left out."""
    seen = located = agree = 0
    bad = []
    cache = {}
    known = lambda x: x and not x.startswith('??') and not re.search(r':(\?|0)$', x)
    for i, m, exact in trace_frames(lines, a.facts, syms.in_entry_text):
        if i in skip or m.group(4) != 'lltest' or m.group(1) not in oracle.syms:
            continue
        key = (m.group(1), int(m.group(2), 16), 0 if exact else 1)
        if key not in cache:
            addr, a2l, llvm = oracle.lookup(key[0], key[1], key[2], a.thumb)
            # "file:?" and "file:0": addr2line knows the file, not a line
            cache[key] = (strip_path(a2l, module_strip(a.strip, a.obj)) if known(a2l) else None,
                          strip_path(llvm, module_strip(a.strip, a.obj)) if known(llvm) else None)
        want, want_llvm = cache[key]
        loc = LOCATED.match(lines[i], m.start())
        got = '%s:%s' % (loc.group(5), loc.group(6)) if loc else None
        seen += 1
        if got:
            located += 1
        cut = got and got.startswith('...')
        if got and want_llvm and not (want_llvm.endswith(got[3:]) if cut else want_llvm == got):
            bad.append('%s+%#x%s: printed %s, llvm-symbolizer %s' % (
                key[0], key[1], '' if exact else ' -1', got, want_llvm))
        elif cut and want and want.endswith(got[3:]):
            agree += 1          # cut short to fit the line: its end agrees
        elif got == want:
            agree += int(got is not None)
        else:
            bad.append('%s+%#x%s: printed %s, addr2line %s' % (
                key[0], key[1], '' if exact else ' -1', got, want))
    return seen, located, agree, bad


def judge_module_frames(cell, lines, a, oracle, syms, figures):
    """Every lltest frame agrees with the oracles on the .ko: printed with
    a location, the one addr2line -j SECTION gives at the same section
    offset (the pc as is, a return address at - 1, Thumb bit dropped),
    and printed without one only where addr2line has none.  Module line
    locations are on in both configurations.  After init, the init WARN's
    address (loc_init) has no location."""
    if oracle is None or syms is None:
        return
    # the variants' loads are judged with the variants (their own oracles)
    skip = set(k for b, e in variant_segments(lines).values() for k in range(b, e))
    seen, located, agree, bad = check_frames(lines, a, oracle, syms, skip)
    figures['module_frames'] = {'seen': seen, 'located': located, 'agreeing': agree}
    print('[%s] module frames: %d seen, %d located, %d agreeing with addr2line' % (
        a.arch, seen, located, agree))
    cell.check('module frames: locations agree with addr2line (and llvm-symbolizer in .text)',
               located > 0 and not bad,
               '%d/%d of %d%s' % (agree, located, seen, '; ' + '; '.join(bad[:3]) if bad else ''))
    after = [l for l in lines if LOC_INIT_AFTER.match(l)]
    if after:
        cell.check('module init text: no location after init',
                   not LOCATED.search(after[0]) and not ANY_LOCATION.search(after[0]),
                   after[0])


def judge_linesize(cell, man, seen, a):
    """The stripped module's /sys/module/lltest/linesize, read after its
    init, is the core table alone (init's is freed with the init text;
    struct mod_lines's header does not count): the core bytes lineloc
    --table-size predicts for that .ko from its sections as the loader
    lays them out."""
    v = next((v for v in man['variants'] if v['kind'] == 'stripped'), None)
    seg = seen.get(v['file']) if v else None
    if seg is None:
        return
    size = next((l.rsplit(': ', 1)[1] for l in seg
                 if l.startswith(INIT + 'cat ') and 'linesize' in l), '')
    # the build's figure (matrix/build_record.py: lineloc --table-size)
    want = a.build_figures.get('module_table') or {}
    cell.check('module table: linesize after init is lineloc --table-size\'s core bytes',
               'core' in want and size == str(want['core']),
               'linesize %s, lineloc %s' % (size or 'not printed',
                                            '%s + %s (core + init)' % (want['core'], want['init'])
                                            if 'core' in want else
                                            want.get('error', 'no answer')[:200]))


def judge_variants(cell, lines, a, figures, syms=None):
    """Each load-time variant of the module (matrix/variants.py) loads and
    unloads; a corruption the generator marks invalid warns, once, naming
    the section and offset the manifest gives (where it gives them), and
    keeps no table; any other keeps its table
    with no warning or warns once with none; the stripped module keeps its
    table.  Nothing crashes."""
    if not a.variants:
        return
    try:
        with open(a.variants) as f:
            man = json.load(f)
    except (OSError, ValueError) as e:
        cell.check('module variants', False, 'manifest: %s' % e)
        return
    segs = variant_segments(lines)
    seen = {f: lines[b:e] for f, (b, e) in segs.items()}
    bad = []
    counts = {'lines': 0, 'warned': 0}
    for v in man['variants']:
        seg = seen.get(v['file'])
        if seg is None:
            bad.append('%s: not run' % v['file'])
            continue
        loaded = any(INSMOD_OK.match(l) for l in seg)
        size = next((l.rsplit(': ', 1)[1] for l in seg
                     if l.startswith(INIT + 'cat ') and 'linesize' in l), '')
        unloaded = any(l.startswith(INIT + 'rmmod lltest: ok') for l in seg)
        warns = [l for l in seg if WARN_NO_LINES.match(l)]
        crash = [l for l in seg if CRASH.search(l)]
        has = size.isdigit() and int(size) > 0
        source = next((l.rsplit(': ', 1)[1] for l in seg
                       if l.startswith(INIT + 'cat ') and 'linesource' in l), '')
        where = ''
        if v['expect'] == 'warn':
            ok = not has and len(warns) == 1
            # the warning names the section and offset the variant broke,
            # where the manifest can say (else null: truncate, flip)
            if ok and v.get('section') is not None:
                m = WARN_NO_LINES.match(warns[0])
                ok = (m.group(1), int(m.group(2), 16)) == (v['section'], v['offset'])
                where = ', names %s+%s, not %s+%#x' % (m.group(1), m.group(2),
                                                       v['section'], v['offset'])
        elif v['expect'] == 'lines':
            ok = has and not warns
            if ok and v.get('source'):
                ok = source == v['source']
                where = ', line source %r, not %r' % (source, v['source'])
        else:
            ok = (has and not warns) or (not has and len(warns) == 1)
        ok = ok and loaded and unloaded and not crash
        counts['lines'] += has
        counts['warned'] += len(warns) == 1
        if not ok:
            bad.append('%s (%s, expect %s): loaded %s, linesize %r, %d warnings%s%s%s' % (
                v['file'], v['what'], v['expect'], loaded, size, len(warns),
                ', unloaded' if unloaded else ', not unloaded',
                ', ' + crash[0] if crash else '', where))
    judge_linesize(cell, man, seen, a)
    figures['module_variants'] = dict(counts, total=len(man['variants']))
    cell.check('module variants: %d load as specified (seed %s)' % (
        len(man['variants']), man.get('seed')), not bad,
        '%d with a line table, %d with one warning%s' % (
            counts['lines'], counts['warned'], '; ' + '; '.join(bad[:3]) if bad else ''))
    judge_load_cost(cell, lines, a, figures)
    # The module built with each line-table version: its trace's frames
    # agree with addr2line on that very .ko.
    ddir = os.path.join(os.path.dirname(a.variants), 'dwarf')
    for v in man.get('dwarf', []):
        name = 'module line table v%d (%s, %s)' % (v['version'], v['writer'], v['spec'])
        seg = segs.get(v['file'])
        if seg is None or syms is None:
            cell.check(name, False, 'not run' if seg is None else 'no vmlinux symbols')
            continue
        try:
            orc = ModuleOracle(os.path.join(ddir, v['file']), a.addr2line, a.nm, a.objdump, a.thumb)
        except (OSError, subprocess.CalledProcessError) as e:
            cell.check(name, False, str(e))
            continue
        part = lines[seg[0]:seg[1]]
        seen, located, agree, bad = check_frames(part, a, orc, syms)
        fired = any(FIRES.match(l) and FIRES.match(l).group(1) == 'dump_' + v['spec']
                    for l in part)
        cell.check(name + ': frames agree with addr2line', fired and located >= 3 and not bad,
                   '%d/%d of %d%s%s' % (agree, located, seen, '' if fired else ', no marker',
                                        '; ' + '; '.join(bad[:2]) if bad else ''))


def plan_part(lines, path):
    """The console lines of the first load of @path outside the variants'
    loads, up to the rmmod that follows it."""
    skip = set(k for b, e in variant_segments(lines).values() for k in range(b, e))
    start = next((i for i, l in enumerate(lines) if i not in skip and
                  l.startswith(INIT + 'insmod %s: ' % path)), None)
    if start is None:
        return []
    end = next((i for i in range(start, len(lines))
                if lines[i].startswith(INIT + 'rmmod ')), len(lines))
    return lines[start:end]


def judge_sources(cell, lines, a, oracle, syms):
    """Where each load of the test module took its line tables from
    (/sys/module/lltest/linesource): the module as built and as an install
    strips it (strip --strip-debug) from its sections, the one stripped of
    them but keeping .debug_line from .debug_line.  The stripped module's
    trace agrees with addr2line on the unstripped .ko."""
    want = [('/lltest.ko', 'section'), ('/m/lltest-strip.ko', 'section'),
            ('/m/lltest-min.ko', 'debug_line')]
    got = []
    for path, src in want:
        part = plan_part(lines, path)
        have = next((l.rsplit(': ', 1)[1] for l in part
                     if l.startswith(INIT + 'cat /sys/module/lltest/linesource')), None)
        got.append((path, have, src))
    cell.check('module line source: built and installed from the sections, '
               'without them from .debug_line',
               all(h == w for _, h, w in got),
               ', '.join('%s %s' % (f, h) for f, h, _ in got))
    part = plan_part(lines, '/m/lltest-strip.ko')
    if oracle is None or syms is None:
        cell.check('module stripped as installed: frames agree with addr2line', False,
                   'no oracle' if oracle is None else 'no vmlinux symbols')
        return
    seen, located, agree, bad = check_frames(part, a, oracle, syms)
    fired = any(FIRES.match(l) and FIRES.match(l).group(1) == 'dump_strip' for l in part)
    cell.check('module stripped as installed (strip --strip-debug): frames agree with '
               'addr2line on the unstripped .ko', fired and located >= 3 and not bad,
               '%d/%d of %d%s%s' % (agree, located, seen, '' if fired else ', no marker',
                                    '; ' + '; '.join(bad[:2]) if bad else ''))


def judge_load_cost(cell, lines, a, figures):
    """module.line_locations=0 loads the stripped module with no table and
    no warning; loaded again with it on, the table is there.  The mean
    load times (20 loads each, under TCG) of the same module with line
    locations off, decoding its .debug_line, and with its sections are
    figures, with the bytes of .debug_line."""
    param = INIT + 'write /sys/module/module/parameters/line_locations '
    got, times, which = {}, {}, None
    for i, l in enumerate(lines):
        if l.startswith(param) and l.endswith(': start'):
            which = l[len(param):].split(':')[0].strip()
            # the next six steps of init, with whatever the kernel printed
            # between them (a clocksource watchdog on a loaded host)
            steps = [j for j in range(i + 1, len(lines)) if lines[j].startswith(INIT)][:6]
            window = lines[i + 1:steps[-1] + 1] if steps else []
            ins = next((m for m in map(INSMOD_OK.match, window)
                        if m and m.group(1) == '/m/lltest-min.ko' and m.group(2)), None)
            size = next((x.rsplit(': ', 1)[1] for x in window
                         if x.startswith(INIT + 'cat /sys/module/lltest/linesize')), '')
            warned = any(WARN_NO_LINES.match(x) for x in window)
            got[which] = (int(ins.group(2)) if ins else None, size, warned)
        m = LOADTIME.match(l)
        if m and which is not None:
            key = 'lines_off' if which == '0' else \
                'section' if m.group(1) == 'lltest-strip' else 'lines_on'
            times[key] = round(int(m.group(3)) / int(m.group(2)))
    if not got:
        return
    off, on = got.get('0'), got.get('1')
    ok = off and on and off[0] is not None and on[0] is not None and off[1] == '0' and \
        not off[2] and on[1].isdigit() and int(on[1]) > 0
    cell.check('module.line_locations=0: no table, no warning; =1: a table', ok,
               'off %s, on %s' % (off, on))
    cell.check('module load times measured three ways (20 loads each)',
               sorted(times) == ['lines_off', 'lines_on', 'section'],
               ', '.join('%s %s us' % kv for kv in sorted(times.items())))
    if ok:
        figures['module_load_us'] = dict(
            times, debug_line_bytes=a.build_figures.get('module_debug_line_bytes', 0),
            table_bytes=int(on[1]))
