#!/usr/bin/env python3
"""What the probes do to the JIT, counted rather than timed (inlining.sh runs it).

usage: inlining.py ORIG_DIR NAME:CLASS_DIR:LOG [NAME:CLASS_DIR:LOG ...]

ORIG_DIR is jdk.compiler untraced. For each build: its methods whose bytecode grew (the
traced ones), those of them that crossed HotSpot's MaxInlineSize (35 bytes) or
FreqInlineSize (325) by their probes, and from LOG (the JVM's -XX:+PrintInlining and
-XX:+CITime output) the inlining decisions at call sites whose callee is a javac method
or the beat class, and what the JIT compiled, then every decision by its words (which
refusals the probes add). Counts, not times: they do not depend on
how loaded the machine is (they do vary a little from run to run, with the JIT's
timing)."""
import collections
import os
import re
import struct
import sys


def class_code_sizes(path):
    """{"a.b.C name desc": bytecode length} of one class file."""
    b = open(path, 'rb').read()
    p = 8
    n = struct.unpack_from('>H', b, p)[0]
    p += 2
    cp = [None] * n
    i = 1
    while i < n:
        t = b[p]
        p += 1
        if t == 1:
            ln = struct.unpack_from('>H', b, p)[0]
            cp[i] = b[p + 2:p + 2 + ln].decode('utf-8', 'replace')
            p += 2 + ln
        elif t in (3, 4, 9, 10, 11, 12, 17, 18):
            p += 4
        elif t in (5, 6):
            p += 8
            i += 1
        elif t == 7:
            cp[i] = struct.unpack_from('>H', b, p)[0]
            p += 2
        elif t in (8, 16, 19, 20):
            p += 2
        elif t == 15:
            p += 3
        else:
            raise ValueError('%s: constant tag %d' % (path, t))
        i += 1
    this = struct.unpack_from('>H', b, p + 2)[0]
    cname = cp[cp[this]].replace('/', '.')
    p += 6
    p += 2 + 2 * struct.unpack_from('>H', b, p)[0]
    out = {}
    for want in (False, True):  # fields, then methods
        cnt = struct.unpack_from('>H', b, p)[0]
        p += 2
        for _ in range(cnt):
            _, nm, ds, na = struct.unpack_from('>HHHH', b, p)
            p += 8
            for _ in range(na):
                an, al = struct.unpack_from('>HI', b, p)
                if want and cp[an] == 'Code':
                    out['%s %s %s' % (cname, cp[nm], cp[ds].replace('/', '.'))] = struct.unpack_from('>I', b, p + 10)[0]
                p += 6 + al
    return out


def code_sizes(d):
    r = {}
    for root, _, files in os.walk(d):
        for f in files:
            if f.endswith('.class') and f != 'module-info.class':
                r.update(class_code_sizes(os.path.join(root, f)))
    return r


SITE = re.compile(r'@ \d+\s+(\S+)::(\S+) \((\d+) bytes\)\s+(.*)$')
BEATS = ('com.tencent.matrix.trace.core.AppMethodBeat', 'EmptyBeat', 'MatrixBeat')
# C1 and C2 word their decisions differently: C1 "inline" / "callee is too large"
# (C1MaxInlineSize 35), C2 "inline (hot)" / "too big" (MaxInlineSize 35, a call site not
# frequent) / "hot method too big" (FreqInlineSize 325).
C2_INLINE, C2_TOO_BIG, C2_HOT_TOO_BIG = 'inline (hot)', 'too big', 'hot method too big'
C1_INLINE, C1_TOO_BIG = 'inline', 'callee is too large'
PRINT_COMPILATION = re.compile(r'(?:^|\s+)\d+\s+\d+\s')


def log_counts(path):
    c = collections.Counter()
    tiers = {}
    for line in open(path, errors='replace'):
        m = SITE.search(line)
        if m:
            cls, why = m.group(1), m.group(4).strip()
            # the compiler threads' lines interleave: a -XX:+PrintCompilation line ("  3615
            # 5768   !  2   a.b.C::m (n bytes)", time then id) may be cut into a decision
            why = PRINT_COMPILATION.split(why)[0].strip() or '(decision cut by a compilation line)'
            who = 'beat' if cls in BEATS else 'javac' if cls.startswith(('com.sun.tools.javac', 'com.sun.source')) else None
            if who:
                c[(who, why)] += 1
            continue
        t = re.match(r'\s+(C1|C2) \{speed: .*standard:\s+([\d.]+) s, (\d+) bytes, (\d+) methods;.*nmethods_code_size: (\d+) bytes', line)
        if t:
            tiers[t.group(1)] = (int(t.group(4)), int(t.group(3)), int(t.group(5)))
    return c, tiers


def main():
    orig = code_sizes(sys.argv[1])
    rows = []
    for arg in sys.argv[2:]:
        name, d, log = arg.split(':')
        after = code_sizes(d) if d else orig
        grew = [k for k, s in orig.items() if after.get(k, s) != s]
        x35 = sum(1 for k in grew if orig[k] <= 35 < after[k])
        x325 = sum(1 for k in grew if orig[k] <= 325 < after[k])
        code = sum(after.values())
        c, tiers = log_counts(log)
        rows.append((name, len(grew), x35, x325, code, c, tiers))
    cols = [('traced (grew)', lambda r: r[1]), ('crossed 35', lambda r: r[2]), ('crossed 325', lambda r: r[3]),
            ('bytecode KB', lambda r: r[4] // 1024),
            ('C2 javac inline', lambda r: r[5][('javac', C2_INLINE)]),
            ('C2 javac too big', lambda r: r[5][('javac', C2_TOO_BIG)]),
            ('C2 javac hot too big', lambda r: r[5][('javac', C2_HOT_TOO_BIG)]),
            ('C1 javac inline', lambda r: r[5][('javac', C1_INLINE)]),
            ('C1 javac too large', lambda r: r[5][('javac', C1_TOO_BIG)]),
            ('beat inlined', lambda r: r[5][('beat', C2_INLINE)] + r[5][('beat', C1_INLINE)]),
            ('beat not inlined', lambda r: r[5][('beat', C2_TOO_BIG)] + r[5][('beat', C1_TOO_BIG)] + r[5][('beat', C2_HOT_TOO_BIG)]),
            ('C1 methods', lambda r: r[6].get('C1', (0, 0, 0))[0]), ('C2 methods', lambda r: r[6].get('C2', (0, 0, 0))[0]),
            ('C1 code KB', lambda r: r[6].get('C1', (0, 0, 0))[2] // 1024),
            ('C2 code KB', lambda r: r[6].get('C2', (0, 0, 0))[2] // 1024)]
    print('| %-22s |' % 'count' + ''.join(' %10s |' % r[0] for r in rows))
    print('|' + '-' * 24 + '|' + '------------|' * len(rows))
    for title, f in cols:
        print('| %-22s |' % title + ''.join(' %10d |' % f(r) for r in rows))
    # every decision the JIT printed at a site calling a javac method, by its words (C1's
    # and C2's alike), then at the beat class's: which refusals the probes add
    for who in ('javac', 'beat'):
        whys = sorted({w for r in rows for (k, w) in r[5] if k == who},
                      key=lambda w: -max(r[5][(who, w)] for r in rows))
        print()
        print('| %-46s |' % ('%s callee: decision' % who) + ''.join(' %10s |' % r[0] for r in rows))
        print('|' + '-' * 48 + '|' + '------------|' * len(rows))
        for w in whys:
            print('| %-46s |' % w[:46] + ''.join(' %10d |' % r[5][(who, w)] for r in rows))


if __name__ == '__main__':
    main()
