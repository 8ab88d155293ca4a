#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make mutation-check: plant known faults in lineloc, one at a time, and
check that the tests catch each one.

  run.py              every fault of tests/mutation/faults.py
  run.py NAME...      those faults only
  run.py --list       the faults and their checks

1. The repository's tracked files (git ls-files of the work tree this
   script is in, copied as they are on disk) go to a scratch folder,
   $MUTATION_DIR (default /var/cache/lineloc-ci/mutation/src, a fixed
   path outside the clone, whatever BUILD is), and lineloc, linetab and
   lineloc-i686 are built there.
2. Each check the chosen faults name runs once on the unmodified copy: it
   must be green ("baseline red" otherwise, and its faults count as not
   caught).
3. Each fault: its old text must occur exactly once in its file (else the
   list is stale: an error naming fault and file); it is replaced, the
   programs rebuilt, the checks run: the fault is caught iff a check goes
   red.  The file is then restored byte for byte (checked by hash) and the
   programs rebuilt: the build is deterministic, so that is the unmodified
   copy's programs, kept from step 1, put back (make -q confirms they are
   up to date; else make really rebuilds).
4. One line per fault, "caught NAME: CHECK red (reason)" or "MISSED NAME:
   ...", then the time taken, and last "mutation-check: caught C/N"; the
   exit status is 0 iff C == N.

Not planted here (kernel-only: they need a kernel rebuild and a QEMU boot,
and are not counted in N): the module line table freed before an RCU
grace period; init rows kept after the init sections are freed; the
interrupted PC (an exception frame's) looked up at PC-1; the Thumb bit
kept before the -1 of a return address.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from faults import CHECKS, FAULTS  # noqa: E402

TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
DEST = os.environ.get('MUTATION_DIR') or '/var/cache/lineloc-ci/mutation/src'
MARK = '.mutation-scratch'     # what says a folder is ours to empty
# what the checks run: lineloc, linetab and lineloc-i686 (the ASan and
# libFuzzer builds are made by the checks that use them)
BINS = ['hosttool/lineloc', 'hosttool/linetab', 'hosttool/lineloc-i686']
MAKE = ['make', '-s', '-f', 'hosttool/hosttool.mk']
BUILD = MAKE + ['-j2'] + BINS
PRISTINE = '.mutation-pristine'     # the unmodified copy's BINS


def log(msg):
    print(msg, flush=True)


def sha(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def copy_tree():
    """The tracked files of TOP, as they are on disk, into DEST (made
    anew: nothing of an earlier run is left)."""
    if not os.path.isabs(DEST):
        sys.exit('mutation-check: MUTATION_DIR must be an absolute path')
    real = os.path.realpath(DEST)
    if real == TOP or real.startswith(TOP + os.sep) or \
            TOP.startswith(real + os.sep):
        sys.exit('mutation-check: %s is inside (or holds) the clone %s' %
                 (DEST, TOP))
    out = subprocess.run(['git', 'ls-files', '-z'], cwd=TOP, check=True,
                         stdout=subprocess.PIPE).stdout
    mark = os.path.join(DEST, MARK)
    if os.path.isdir(DEST) and os.listdir(DEST):
        if not os.path.exists(mark):
            sys.exit('mutation-check: %s is not empty and not an earlier '
                     'scratch copy (no %s): not removing it' % (DEST, MARK))
        shutil.rmtree(DEST)
    os.makedirs(DEST, exist_ok=True)
    open(mark, 'w').close()
    n = 0
    for rel in out.decode().split('\0'):
        src = os.path.join(TOP, rel)
        if not rel or not os.path.lexists(src):
            continue            # deleted in the work tree, not yet in git
        dst = os.path.join(DEST, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.islink(src):
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
        n += 1
    return n


def build():
    """Build lineloc and linetab (and lineloc-i686): None, or the error."""
    p = subprocess.run(BUILD, cwd=DEST, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if p.returncode:
        return p.stdout.decode('utf-8', 'replace').strip()[-600:] or \
            'exit %d' % p.returncode
    return None


def save_pristine():
    """Keep the unmodified copy's programs, to put back after a fault."""
    for b in BINS:
        dst = os.path.join(DEST, PRISTINE, b)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(DEST, b), dst)


def rebuild_pristine():
    """After a restore: the sources are the unmodified copy's again, byte
    for byte, and the build is deterministic, so its programs are what a
    rebuild gives: put them back, newer than the sources, and let make
    confirm that nothing is out of date (else really rebuild).  Programs
    built from the fault (the ASan ones) are older than the restored file:
    make rebuilds them when a check next needs them."""
    now = time.time()
    for b in BINS:
        dst = os.path.join(DEST, b)
        shutil.copy2(os.path.join(DEST, PRISTINE, b), dst)
        os.utime(dst, (now, now))
    if subprocess.run(MAKE + ['-q'] + BINS, cwd=DEST).returncode:
        return build()
    return None


def reason(out, rc):
    """A short reason a check went red: its first FAIL line, else its
    last line."""
    lines = [x.strip() for x in out.splitlines() if x.strip()]
    for x in lines:
        if x.startswith('FAIL') or ': FAIL' in x:
            return x[:200]
    for x in lines:
        if x.startswith('SUMMARY: ') or ': runtime error: ' in x:
            return x[:200]
    return (lines[-1][:200] if lines else 'no output') + ' (exit %d)' % rc


def run_check(name):
    """Run check @name in DEST: (green, reason, seconds)."""
    t0 = time.time()
    p = subprocess.run(['sh', '-c', CHECKS[name]], cwd=DEST,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = p.stdout.decode('utf-8', 'replace')
    return p.returncode == 0, reason(out, p.returncode), time.time() - t0


def source(fault):
    """The bytes of @fault's file in DEST; exits (naming fault and file) if
    its old text is not there exactly once: the list is stale."""
    path = os.path.join(DEST, fault['file'])
    if not os.path.exists(path):
        sys.exit('mutation-check: fault %s: no file %s '
                 '(tests/mutation/faults.py is stale)' %
                 (fault['name'], fault['file']))
    with open(path, 'rb') as f:
        orig = f.read()
    n = orig.decode('utf-8').count(fault['old'])
    if n != 1:
        sys.exit('mutation-check: fault %s: its old text occurs %d times in '
                 '%s, not once (tests/mutation/faults.py is stale)' %
                 (fault['name'], n, fault['file']))
    return orig


def plant(fault):
    """Apply @fault, build, run its checks, restore and rebuild.
    Returns (caught, line); raises SystemExit if the list is stale or the
    restore fails."""
    path = os.path.join(DEST, fault['file'])
    orig = source(fault)
    want = hashlib.sha256(orig).hexdigest()
    text = orig.decode('utf-8')
    st = os.stat(path)
    try:
        with open(path, 'w') as f:
            f.write(text.replace(fault['old'], fault['new']))
        err = build()
        if err:
            # a fault the compiler refuses is not one the tests catch
            return False, 'MISSED %s: the mutant does not build: %s' % (
                fault['name'], err.splitlines()[-1])
        for c in fault['checks']:
            green, why, secs = run_check(c)
            log('  %s: %s %s in %.0f s' % (fault['name'], c,
                                           'green' if green else 'red', secs))
            if not green:
                return True, 'caught %s: %s red (%s)' % (fault['name'], c, why)
        return False, 'MISSED %s: %s stayed green' % (
            fault['name'], ', '.join(fault['checks']))
    finally:
        with open(path, 'wb') as f:
            f.write(orig)
        os.chmod(path, st.st_mode)
        if sha(path) != want:
            sys.exit('mutation-check: %s: restore failed (hash differs)' %
                     fault['file'])
        err = rebuild_pristine()
        if err:
            sys.exit('mutation-check: rebuild after restoring %s failed: %s'
                     % (fault['file'], err))


def main(argv):
    if set(argv) & {'-h', '--help'}:
        print(__doc__.strip())
        return 0
    names = [f['name'] for f in FAULTS]
    for f in FAULTS:
        for c in f['checks']:
            if c not in CHECKS:
                sys.exit('mutation-check: fault %s: unknown check %s' %
                         (f['name'], c))
    if '--list' in argv:
        for f in FAULTS:
            print('%-32s %-24s %s (%s)' % (f['name'], f['file'],
                                           ', '.join(f['checks']), f['what']))
        return 0
    bad = [a for a in argv if a not in names]
    if bad:
        print('mutation-check: unknown fault %s; --list lists them' %
              ', '.join(bad), file=sys.stderr)
        return 2
    chosen = [f for f in FAULTS if not argv or f['name'] in argv]
    t0 = time.time()
    n = copy_tree()
    log('mutation-check: %d tracked files of %s copied to %s' % (n, TOP, DEST))
    for f in chosen:
        source(f)       # a stale list stops here, before any build
    err = build()
    if err:
        log('mutation-check: the unmodified copy does not build:\n' + err)
        log('mutation-check: caught 0/%d' % len(chosen))
        return 1
    save_pristine()
    red = {}
    for c in dict.fromkeys(c for f in chosen for c in f['checks']):
        green, why, secs = run_check(c)
        log('baseline %s: %s in %.0f s%s' % (
            c, 'green' if green else 'RED', secs,
            '' if green else ' (%s)' % why))
        if not green:
            red[c] = why
    lines = []
    caught = 0
    for f in chosen:
        bred = [c for c in f['checks'] if c in red]
        if bred:
            lines.append('MISSED %s: baseline red: %s (%s)' %
                         (f['name'], bred[0], red[bred[0]]))
            continue
        ok, line = plant(f)
        caught += ok
        lines.append(line)
        log(line)
    log('')
    for line in lines:
        log(line)
    secs = time.time() - t0
    log('mutation-check: %d faults in %.0f s' % (len(chosen), secs))
    log('mutation-check: caught %d/%d' % (caught, len(chosen)))
    return 0 if caught == len(chosen) else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
