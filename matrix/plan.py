"""The boot plans (qemu/plans/*.plan) that the initramfs's init runs: the
matrix's one reader of them.

The grammar is init's (qemu/init/init.c, whose header lists every verb):
one step a line, a verb and its arguments separated by spaces; blank lines
and lines whose first word starts with '#' are not steps.  A plan that
names a verb init does not know is refused here, by file and line, before
a boot would stop at it.
"""
import os
import re
from dataclasses import dataclass

# init's verbs and the form of their arguments (None: no argument; say
# takes any text or none)
VERBS = {
    'say': r'.*',
    'insmod': r'\S+( .+)?',
    'rmmod': r'\S+',
    'write': r'\S+ .+',
    'writesym': r'\S+ \S+',
    'textlocs': r'\S+ \d+ \d+',
    'kallsyms': None,
    'cat': r'\S+',
    'variants': r'\S+ \S+( \S+)?',
    'cycle': r'\d+ \S+ \S+',
    'loadtime': r'\d+ \S+ \S+',
    'sleep': r'\d+',
    'done': None,
}

# the writes that fire lltest's triggers and LKDTM's crashes
_TRIGGER = re.compile(r'^/sys/kernel/debug/lltest/(\w+) ')
_LKDTM = re.compile(r'^/sys/kernel/debug/provoke-crash/DIRECT (\w+)')
_TAG = re.compile(r'\btag=(\w+)')


class PlanError(ValueError):
    """A plan init could not run: its file, line and what is wrong."""


@dataclass(frozen=True)
class Step:
    """One step: its verb, the rest of its line (arg), and its line number."""
    verb: str
    arg: str
    line: int

    @property
    def text(self):
        return '%s %s' % (self.verb, self.arg) if self.arg else self.verb


class Plan:
    """The steps of the plan at @path; Plan(None) is a plan of no steps
    (a record judged without one)."""

    def __init__(self, path):
        self.path = path
        self.steps = []
        if path is None:
            return
        with open(path) as f:
            for n, raw in enumerate(f, 1):
                words = raw.rstrip('\n').split(' ', 1)
                verb = words[0]
                arg = words[1].strip() if len(words) > 1 else ''
                if not verb or verb.startswith('#'):
                    continue
                if verb not in VERBS:
                    raise PlanError('%s:%d: unknown step %r' % (path, n, verb))
                form = VERBS[verb]
                if not re.fullmatch(form or '', arg):
                    raise PlanError('%s:%d: %s takes %s, not %r' % (
                        path, n, verb, form and '/%s/' % form or 'no argument', arg))
                self.steps.append(Step(verb, arg, n))

    def __bool__(self):
        return self.path is not None

    @property
    def name(self):
        return os.path.basename(self.path or '')

    def has(self, prefix):
        """Whether a step's text starts with @prefix ("insmod /lltest.ko")."""
        return any(s.text.startswith(prefix) for s in self.steps)

    def of(self, verb):
        return [s for s in self.steps if s.verb == verb]

    def triggers(self):
        """The triggers the plan fires, in order: "init" where it loads
        lltest with init_warn=1, then each write to a trigger file but
        loc and loc_init (the writesym files), suffixed with the tag of
        the insmod before it."""
        out, tag = [], ''
        for s in self.steps:
            if s.verb == 'insmod':
                t = _TAG.search(s.arg)
                tag = t.group(1) if t else ''
                words = s.arg.split()
                if words[0] == '/lltest.ko' and 'init_warn=1' in words[1:]:
                    out.append('init')
            elif s.verb == 'write':
                m = _TRIGGER.match(s.arg)
                if m and m.group(1) not in ('loc', 'loc_init'):
                    out.append(m.group(1) + tag)
        return out

    def lkdtm(self):
        """The LKDTM crash types the plan performs, in order."""
        return [m.group(1) for m in (_LKDTM.match(s.arg) for s in self.of('write')) if m]

    def last_step(self):
        """The step before "done" (or the last step), or None."""
        steps = [s for s in self.steps if s.verb != 'done']
        return steps[-1] if steps else None

    def textlocs(self):
        """The addresses the textlocs steps write, summed ("textlocs FILE
        COUNT SEED")."""
        return sum(int(s.arg.split()[1]) for s in self.of('textlocs'))

    def cycles(self):
        """N of the first "cycle N PATH NAME" step, or None."""
        c = self.of('cycle')
        return int(c[0].arg.split()[0]) if c else None
