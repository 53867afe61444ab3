#!/usr/bin/env python3
"""Did tc-instrument do with each generated method what shapes.tsv expects?

usage: gen_check.py SHAPES_TSV INSTRUMENT_STATS_JSON OUT_SMALI_DIR [PROBE_CLASS]

  hook          the method is not reported and its output calls i(I)V;
  hook_at       the same, and it calls at(Landroid/app/Activity;Z)V (an Activity's
                onWindowFocusChanged);
  refuse:TEXT   the method is reported as not instrumented with TEXT in the reason, and
                its output has no probe (it is left as it was; smali_diff.py compares
                the text).
Prints the counts (per expected outcome, and per shape family of the failures) and
exits 1 on any mismatch.
"""
import collections
import csv
import json
import os
import re
import sys

DEFAULT_PROBE = 'Lcom/tencent/matrix/trace/core/AppMethodBeat;'


def probed_methods(root, probe):
    out = {}
    for d, _, files in os.walk(root):
        for fn in files:
            if not fn.endswith('.smali'):
                continue
            cls, cur = None, None
            with open(os.path.join(d, fn), encoding='utf-8') as f:
                for line in f:
                    line = line.strip()
                    if line.startswith('.class '):
                        cls = line.split()[-1]
                    elif line.startswith('.method '):
                        cur = '%s->%s' % (cls, line.split()[-1])
                        out[cur] = set()
                    elif cur and probe + '->i(I)V' in line:
                        out[cur].add('i')
                    elif cur and probe + '->at(Landroid/app/Activity;Z)V' in line:
                        out[cur].add('at')
    return out


def main():
    if len(sys.argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 2
    shapes, stats, smali = sys.argv[1:4]
    probe = sys.argv[4] if len(sys.argv) == 5 else DEFAULT_PROBE
    problems = {}
    for p in json.load(open(stats))['problems']:
        m = re.match(r'(\S+?;->\S+?): not instrumented: (.*)$', p['problem'])
        if m:
            problems[m.group(1)] = m.group(2)
    probed = probed_methods(smali, probe)
    outcome = collections.Counter()
    bad = []
    with open(shapes) as f:
        for row in csv.DictReader(f, delimiter='\t'):
            key = '%s->%s%s' % (row['class'], row['method'], row['desc'])
            exp = row['expect']
            why = problems.get(key)
            shape = row['shape']
            if key not in probed:
                bad.append((shape, '%s (%s): missing from the output' % (key, shape)))
            elif exp in ('hook', 'hook_at'):
                want = {'i', 'at'} if exp == 'hook_at' else {'i'}
                if why or not want <= probed[key]:
                    bad.append((shape, '%s (%s): expected %s, got %s' % (key, shape, exp, why or 'calls %s' % (
                        sorted(probed[key]) or 'no probe'))))
            elif not why or exp[len('refuse:'):] not in why or 'i' in probed[key]:
                got = 'hooked' if 'i' in probed[key] else (why or 'unchanged but not reported')
                bad.append((shape, '%s (%s): expected %s, got %s' % (key, shape, exp, got)))
            outcome[exp] += 1
    for exp, n in sorted(outcome.items()):
        print('# %6d %s' % (n, exp))
    for _, b in bad[:30]:
        print(b)
    if bad:
        fam = collections.Counter(shape for shape, _ in bad)
        print('%d mismatches; by shape: %s' % (len(bad), ', '.join('%s %d' % kv for kv in fam.most_common(12))))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
