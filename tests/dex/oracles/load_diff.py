#!/usr/bin/env python3
"""The types oracle's verdict: compare two LoadAll reports (original, instrumented) and the
enjarify crash lists, per dex file.

A class regresses when it loaded, verified and initialized before (`ok`) and does not
after, or when it verified before (`ok` or `init`: its static initializer threw) and
fails to link after (verify, format, nodef, link, other). Two exceptions, counted and
listed as "unjudged", never failing:
  * after = nodef or format naming another class X that HotSpot cannot load here: X is
    in no jar (the Android framework, absent optional libraries) or X failed to load in
    the original run too (an interface with default methods, enjarify's limit).
    HotSpot's old verifier loads the classes whose types it merges at a join, and the
    added catch-all handler joins the types of every covered instruction, so the
    instrumented class needs X to verify where the original did not;
  * an enjarify crash on an output class whose original HotSpot rejected (verify or
    format): enjarify already mistranslates that class (invoke-polymorphic, dex.md 5);
  * an enjarify crash packing an exception table offset past 65535 (createBytecode):
    the translation of a method outgrew the JVM's 64 KB code limit, which dex does not
    have. enjarify translates code covered by a try less compactly, so the added
    catch-all grows a method near the limit (selendroid's AndroidAtoms.<clinit>: 54,538
    code units, 55 KB of JVM code before, over 64 KB after 17 more code units).
Any other enjarify crash on an output class whose original translated is a regression
(misplaced move-result or move-exception, dex.md 5). Classes absent from the instrumented
report (left out by a sample) are not compared.

usage: load_diff.py BEFORE.tsv AFTER.tsv MAP.tsv
  MAP.tsv: one line per dex: name, original jar, output jar, original errors, output
           errors, sample divisor M of the output (enjar.py --sample; 1: all classes)
Prints one line per dex: `NAME PASS|FAIL summary`, then the regressions (first 10 per
dex). Exit 1 when any dex has a regression or a report is incomplete.
"""
import re
import sys
import zlib

VERIFIED = {'ok', 'init'}
FORMAT_CLASS = re.compile(r' in class (\S+) ')
JVM_CODE_LIMIT = re.compile(r"createBytecode.*'H' format requires 0 <= number <= 65535")


def read_report(path):
    out = {}
    done = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line == '# done':
                done = True
                continue
            jar, cls, status, detail = (line.split('\t') + ['', ''])[:4]
            out[(jar, cls)] = (status, detail)
    return out, done


def read_errors(path):
    try:
        with open(path, encoding='utf-8') as f:
            return {line.split('\t')[0]: line.rstrip('\n') for line in f if line.strip()}
    except FileNotFoundError:
        return {}


def counts(items):
    c = {}
    for status, _ in items:
        c[status] = c.get(status, 0) + 1
    return c


def main():
    before, done_b = read_report(sys.argv[1])
    after, done_a = read_report(sys.argv[2])
    bad = not (done_b and done_a)
    if bad:
        print('LoadAll did not finish (a static initializer exited or hung?): before %s, after %s'
              % ('complete' if done_b else 'INCOMPLETE', 'complete' if done_a else 'INCOMPLETE'))
    known = {cls: v[0] for (jar, cls), v in before.items()}
    by_class_before = {}
    for (jar, cls), v in before.items():
        by_class_before.setdefault(jar, {})[cls] = v
    with open(sys.argv[3], encoding='utf-8') as f:
        rows = [line.rstrip('\n').split('\t') for line in f if line.strip()]
    for name, ojar, njar, oerr, nerr, sample in rows:
        sample = int(sample)
        b = by_class_before.get(ojar, {})
        a = {cls: v for (jar, cls), v in after.items() if jar == njar}
        regress = []
        unjudged = []
        for cls, (st, detail) in sorted(a.items()):
            was = b.get(cls)
            if was is None:
                continue
            if (was[0] == 'ok' and st != 'ok') or (was[0] in VERIFIED and st not in VERIFIED):
                line = '%s: %s -> %s %s' % (cls, was[0], st, detail[:300])
                x = detail.split()[0] if st == 'nodef' and detail else None
                if st == 'format' and FORMAT_CLASS.search(detail):
                    x = FORMAT_CLASS.search(detail).group(1)
                x = x and x.replace('/', '.')
                blocked = x and x != cls and (x not in known or known[x] not in VERIFIED)
                (unjudged if blocked else regress).append(line)
        oe, ne = read_errors(oerr), read_errors(nerr)
        if sample > 1:   # the original's crashes among the sampled classes only
            oe = {c: v for c, v in oe.items() if zlib.crc32(c.encode()) % sample == 0}
        crashes = []
        for c in sorted(set(ne) - set(oe)):
            line = '%s: enjarify crashed on the output only: %s' % (c, ne[c].split('\t', 1)[-1][:300])
            was = b.get(c.replace('/', '.'), ('?', ''))[0]
            too_long = JVM_CODE_LIMIT.search(ne[c])
            (unjudged if was in ('verify', 'format') or too_long else crashes).append(
                line + ' (before: %s)' % was + (' (over the JVM code limit)' if too_long else ''))
        cb = counts(v for cls, v in b.items() if cls in a or not a)
        ca = counts(a.values())
        verdict = 'FAIL' if regress or crashes else 'PASS'
        bad = bad or verdict == 'FAIL'
        print('%s %s %d classes compared: ok %d->%d, verify-errors %d->%d, other failures %d->%d, '
              'enjarify crashes %d->%d, regressions %d, unjudged %d'
              % (name, verdict, len(a), cb.get('ok', 0), ca.get('ok', 0), cb.get('verify', 0),
                 ca.get('verify', 0), sum(v for k, v in cb.items() if k not in ('ok', 'verify')),
                 sum(v for k, v in ca.items() if k not in ('ok', 'verify')), len(oe), len(ne),
                 len(regress) + len(crashes), len(unjudged)))
        for r in (crashes + regress)[:10]:
            print('    ' + r)
        if len(crashes + regress) > 10:
            print('    ... %d more' % (len(crashes + regress) - 10))
        for r in unjudged[:3]:
            print('    unjudged: ' + r)
        if len(unjudged) > 3:
            print('    unjudged: ... %d more' % (len(unjudged) - 3))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
