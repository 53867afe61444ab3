#!/usr/bin/env python3
"""The balance of entry and exit probes on every path of every method, statically.

usage: probe_balance.py [--probe-class DESC] [--max N] SMALI_DIR

SMALI_DIR is `baksmali d` output of an instrumented dex. For each method that calls the
probe class, a forward data flow over its control flow graph (branches, switches, and
the exception edges of every throwing instruction to the handlers covering it) tracks
where a path may be: 0 before i(id), 1 between i and o, 2 after o. It is a violation
when, on some path,
  - i runs after i (entered twice: a back edge to the entry probe), or o runs outside 1
    (an exit without an entry, e.g. a catch-all covering a constructor's code before
    the call that initializes `this`, where the entry probe is not reached yet);
  - a return runs outside 2 (an exit without o);
  - an exception may leave the method (the instruction is covered by no catch-all)
    in 1 (entered, never exited).
Probe calls are taken not to throw. Paths are not filtered by conditions: a branch may
go either way (generated methods have no infeasible paths that matter).
Prints one line per violation, "Lcls;->name(desc): what", then a count; exit 1 if any.
"""
import argparse
import os
import re
import sys

DEFAULT_PROBE = 'Lcom/tencent/matrix/trace/core/AppMethodBeat;'
# Dalvik instructions that may throw (ART's kThrow), as opcode-name prefixes
THROWS = re.compile(r'^(invoke-|new-|filled-new-array|fill-array-data|iget|iput|sget|sput|aget|aput|'
                    r'const-string|const-class|const-method|check-cast|instance-of|array-length|throw$|'
                    r'monitor-|div-|rem-)')
ENDS = re.compile(r'^(goto|return|throw$)')
PAYLOAD_END = {'.packed-switch': '.end packed-switch', '.sparse-switch': '.end sparse-switch',
               '.array-data': '.end array-data'}


def methods(path):
    cls = None
    cur = None
    with open(path, encoding='utf-8') as f:
        for raw in f:
            line = raw.strip()
            if line.startswith('.class '):
                cls = line.split()[-1]
            elif line.startswith('.method '):
                cur = (line.split()[-1], [])
            elif line == '.end method' and cur:
                yield '%s->%s' % (cls, cur[0]), cur[1]
                cur = None
            elif cur is not None and line and not line.startswith('#'):
                cur[1].append(line)


def check(name, lines, probe):
    insns, labels, catches, payloads = [], {}, [], {}
    pending = []
    i = 0
    while i < len(lines):
        line = lines[i]
        word = line.split()[0]
        if line.startswith(':'):
            pending.append(line)
        elif word in PAYLOAD_END:
            targets = []
            i += 1
            while lines[i] != PAYLOAD_END[word]:
                targets += re.findall(r':\S+', lines[i])
                i += 1
            for lab in pending:
                payloads[lab] = targets
            pending = []
        elif word in ('.catch', '.catchall'):
            m = re.match(r'\.catch(all)?\s*(\S*)\s*\{(:\S+) \.\. (:\S+)\} (:\S+)', line)
            catches.append((m.group(1) is not None or m.group(2) == 'Ljava/lang/Throwable;',
                            m.group(3), m.group(4), m.group(5)))
        elif not word.startswith('.'):
            for lab in pending:
                labels[lab] = len(insns)
            pending = []
            insns.append(line)
        i += 1
    for lab in pending:
        labels[lab] = len(insns)
    if not any(probe in l for l in insns):
        return []
    n = len(insns)
    # handler lists: per instruction, (catch-all?, handler index) in order
    cover = [[] for _ in range(n)]
    for is_all, a, b, h in catches:
        for k in range(labels[a], labels[b]):
            cover[k].append((is_all, labels[h]))
    succ, exc, escapes = [], [], []
    for k, line in enumerate(insns):
        op = line.split()[0]
        s = []
        if not ENDS.match(op) and k + 1 < n:
            s.append(k + 1)
        targets = re.findall(r':\S+', line)
        if op.startswith('goto') or op.startswith('if-'):
            s.append(labels[targets[-1]])
        elif op in ('packed-switch', 'sparse-switch'):
            s += [labels[t] for t in payloads[targets[-1]]]
        succ.append(s)
        throws = bool(THROWS.match(op)) and probe not in line
        exc.append([h for _, h in cover[k]] if throws else [])
        escapes.append(throws and not any(a for a, _ in cover[k]))
    state = [set() for _ in range(n)]
    state[0].add(0)
    work = [0]
    bad = []
    while work:
        k = work.pop()
        line = insns[k]
        op = line.split()[0]
        out = set()
        for st in state[k]:
            if probe + '->i(' in line:
                if st != 0:
                    bad.append('%s: i() runs again (state %d) at %d: %s' % (name, st, k, line))
                out.add(1)
            elif probe + '->o(' in line:
                if st != 1:
                    bad.append('%s: o() runs without a matching i() (state %d) at %d' % (name, st, k))
                out.add(2)
            else:
                out.add(st)
            if op.startswith('return') and st != 2:
                bad.append('%s: %s runs without o() (state %d) at %d' % (name, op, st, k))
            if escapes[k] and st == 1:
                bad.append('%s: an exception may leave without o() at %d: %s' % (name, k, line))
        for t, pre in [(t, out) for t in succ[k]] + [(h, state[k]) for h in exc[k]]:
            if not pre <= state[t]:
                state[t] |= pre
                work.append(t)
    return sorted(set(bad))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--probe-class', default=DEFAULT_PROBE)
    ap.add_argument('--max', type=int, default=40)
    ap.add_argument('dir')
    args = ap.parse_args()
    nm = nbad = 0
    printed = 0
    for root, _, files in os.walk(args.dir):
        for fn in sorted(files):
            if not fn.endswith('.smali'):
                continue
            for name, lines in methods(os.path.join(root, fn)):
                nm += 1
                bad = check(name, lines, args.probe_class)
                if bad:
                    nbad += 1
                for b in bad:
                    if printed < args.max:
                        print(b)
                    printed += 1
    print('probe balance: %d methods, %d with a violation' % (nm, nbad))
    return 1 if nbad else 0


if __name__ == '__main__':
    sys.exit(main())
