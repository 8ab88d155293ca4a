#!/usr/bin/python3
"""Write each run: step of a GitHub workflow to DIR/NNN.sh (first line a
comment naming job and step), so that shellcheck can read them."""
import os
import sys

import yaml

wf = yaml.safe_load(open(sys.argv[1]))
n = 0
for jname, job in (wf.get('jobs') or {}).items():
    for i, step in enumerate(job.get('steps') or []):
        if 'run' in step:
            n += 1
            with open(os.path.join(sys.argv[2], '%03d.sh' % n), 'w') as f:
                f.write('# %s / %s\n' % (jname, step.get('name', 'step %d' % i)))
                # ${{ expressions }} are not shell: make them harmless words
                f.write(step['run'].replace('${{', '__').replace('}}', '__') + '\n')
