#!/usr/bin/env python3
"""A toy instrumenter on baksmali text, for the oracle harness's self-test only: it puts
the probe shapes the real instrumenter (tc-instrument) is meant to produce into a smali
tree, so that the oracles can be shown to accept them and to reject broken variants
before the real instrumenter exists. It is not a model of tc-instrument's code.

Shapes, per method with code (classes matching --classes, a regex on the descriptor):
  * registers grow by 2 (slicer's fallback, dex.md section 3): with parameters, the frame
    grows and every parameter word is copied back to its old place at entry with
    move/16, move-object/16 or move-wide/16; the two new top registers vS = v(R) and
    vE = v(R+1) (R = original .registers) are the scratch registers;
  * entry: `const/16 vS, #id; invoke-static {vS}, PROBE->i(I)V` (`const` for ids above
    0x7fff) before the labels of the
    first instruction (after the `invoke-direct {this..}, ..-><init>` in constructors;
    a constructor without one is left alone);
  * before every return*: `const/16 vS, #id; invoke-static {vS}, PROBE->o(I)V`, the
    return's labels moved to the probe so that branches reach it;
  * a trailing handler `move-exception vE; const/16 vS, #id; invoke-static {vS}, o; throw vE`
    covering every original instruction whose handler list has no catch-all yet (after
    the <init> call in constructors); methods with monitor-enter get no handler;
  * try ranges recomputed per instruction so that no probe is covered by any handler.
  Probes use invoke-static/range when vS > 15; methods needing vE > 255 are left alone.

Broken variants (--break), each applied to the first method, in class order, that has
the shape:
  move-result       a probe put between an invoke and its move-result;
  unbalanced=REGEX  in methods whose `Lclass;->name(desc)` matches REGEX, the o probe
                    before the first return is left out.

usage: toy.py [--probe-class L..;] [--classes REGEX] [--break KIND] SMALI_DIR
Rewrites the matching classes of SMALI_DIR in place (work on a copy); prints a summary.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smali_diff as sd  # noqa: E402  (the same smali reader as the differ)


class Toy:
    def __init__(self, probe, brk):
        self.probe = probe
        self.brk = brk
        self.next_id = 1
        self.broken = 0
        self.methods = 0
        self.skipped = 0

    def invoke(self, s, name):
        if s <= 15:
            return 'invoke-static {v%d}, %s->%s(I)V' % (s, self.probe, name)
        return 'invoke-static/range {v%d .. v%d}, %s->%s(I)V' % (s, s, self.probe, name)

    def probe_lines(self, s, pid, name):
        op = 'const/16' if pid <= 0x7fff else 'const'   # const/16 sign-extends 16 bits
        return ['%s v%d, 0x%x' % (op, s, pid), self.invoke(s, name)]

    def method(self, cls, key, flags, body):
        m = sd.Method(key, flags, body)
        if m.registers is None or not m.units:
            return None
        kinds = sd.param_words(key, flags)
        ins = sum(2 if k == 'w' else 1 for k in kinds)
        r = m.registers
        s, e = r, r + 1
        if e > 255:
            self.skipped += 1
            return None
        ctor = key.startswith('<init>(')
        entry_at = 0
        if ctor:
            this = 'v%d' % (r - ins)
            entry_at = None
            for k, u in enumerate(m.units):
                if (u.op.startswith('invoke-direct') and '-><init>(' in u.args
                        and re.match(r'\{' + this + r'\b', u.args)):
                    entry_at = k + 1
                    break
            if entry_at is None:
                self.skipped += 1
                return None
        pid = self.next_id
        self.next_id += 1
        self.methods += 1
        full = '%s->%s' % (cls, key)
        catchall = not any(u.op == 'monitor-enter' for u in m.units)
        unbalanced = (self.brk.startswith('unbalanced=') and self.broken == 0
                      and re.search(self.brk.split('=', 1)[1], full))
        out = ['.registers %d' % (r + 2)]
        for line in m.meta:
            mm = re.match(r'\.param v(\d+)(.*)$', line)
            out.append('.param v%d%s' % (int(mm.group(1)) + 2, mm.group(2)) if mm else line)
        # Entry moves: parameters from their new place back to the old one.
        off = 0
        for k in kinds:
            op = {'w': 'move-wide/16', 'o': 'move-object/16', 'i': 'move/16'}[k]
            out.append('%s v%d, v%d' % (op, r - ins + off, r + 2 - ins + off))
            off += 2 if k == 'w' else 1
        # Units with their new handler lists; None marks a probe line (never covered).
        seq = []   # (labels, text, handlers)

        def add_probe(name):
            for t in self.probe_lines(s, pid, name):
                seq.append(([], t, []))
        for k, u in enumerate(m.units):
            labels = list(u.labels)
            if k == entry_at:
                add_probe('i')
            if u.op.startswith('return'):
                if unbalanced:
                    unbalanced = False
                    self.broken += 1
                else:
                    seq.append((labels, self.probe_lines(s, pid, 'o')[0], []))
                    seq.append(([], self.probe_lines(s, pid, 'o')[1], []))
                    labels = []
            hl = list(u.handlers)
            if (catchall and u.op not in sd.PAYLOAD_START and not any(t == '*' for t, _ in hl)
                    and (not ctor or k >= entry_at)):
                hl.append(('*', ':tc_catchall'))
            seq.append((labels, u.text, hl))
            if (self.brk == 'move-result' and self.broken == 0 and u.op.startswith('invoke')
                    and k + 1 < len(m.units) and m.units[k + 1].op.startswith('move-result')):
                add_probe('o')
                self.broken += 1
        if catchall:
            seq.append(([':tc_catchall'], 'move-exception v%d' % e, []))
            add_probe('o')
            seq.append(([], 'throw v%d' % e, []))
        # Emit, run-length encoding equal handler lists into try ranges.
        tries = []
        start = None
        for i, (labels, text, hl) in enumerate(seq + [([], None, [])]):
            if start is not None and hl != seq[start][2]:
                out.append(':tc_e%d' % len(tries))
                tries.append((start, seq[start][2]))
                start = None
            if text is None:
                break
            out.extend(labels)
            if hl and start is None:
                start = i
                out.append(':tc_s%d' % len(tries))
            out.append(text)
        out.extend(m.end_labels)
        for n, (_, hl) in enumerate(tries):
            for t, h in hl:
                if t == '*':
                    out.append('.catchall {:tc_s%d .. :tc_e%d} %s' % (n, n, h))
                else:
                    out.append('.catch %s {:tc_s%d .. :tc_e%d} %s' % (t, n, n, h))
        return out


def rewrite(path, toy):
    name, _, methods = sd.read_class(path)
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('.method '):
            words = line.split()
            key, flags = words[-1], ' '.join(words[1:-1])
            j = i + 1
            while lines[j].strip() != '.end method':
                j += 1
            body = methods[key][1]
            new = toy.method(name, key, flags, body)
            if new is None:
                out.extend(lines[i:j + 1])
            else:
                out.append(line)
                out.extend('    ' + x for x in new)
                out.append('.end method')
            i = j + 1
            continue
        out.append(line)
        i += 1
    with open(path, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--probe-class', default=sd.DEFAULT_PROBE)
    ap.add_argument('--classes', default='.')
    ap.add_argument('--break', dest='brk', default='')
    ap.add_argument('dir')
    a = ap.parse_args()
    toy = Toy(a.probe_class, a.brk)
    tree = sd.read_tree(a.dir)
    pat = re.compile(a.classes)
    for cls in sorted(tree):
        if pat.search(cls):
            rewrite(tree[cls], toy)
    print('toy: %d methods instrumented, %d left alone%s'
          % (toy.methods, toy.skipped, ', %d broken (%s)' % (toy.broken, a.brk) if a.brk else ''))
    if a.brk and not toy.broken:
        print('toy: nothing matched --break %s' % a.brk, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
