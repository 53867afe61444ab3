#!/usr/bin/env python3
"""Writes a variant of AppMethodBeat.java whose i() and o() record an event another way,
for bench/runtime/javac/shape.sh (issue 33: what the event's code costs the JIT, apart
from the call). Each variant rewrites the four lines that store the event:

    long[] r = sRing;
    long s = U.getLong(r, SEQ);
    U.putLong(r, SLOT0 + ((s & sMask) << 3), EVENT);
    U.putOrderedLong(r, SEQ, s + 1);

  nonnull  the same, after `if (r == null) return;` (C2 then knows the Unsafe accesses'
           base is not null: no CPU-order barriers around the plain ones)
  array    the count read and the event stored as array elements (bounds-checked), the
           count published by putOrderedLong as now
  plain    as array, the count stored as an array element too: no release store. NOT
           correct on a weak memory model (a reader on another core may see the count
           before the event); a measurement of what the release store costs, only.

usage: beat_variant.py VARIANT IN.java OUT.java
"""
import re
import sys

variant, src, out = sys.argv[1:4]
text = open(src).read()
pat = re.compile(
    r"(?P<ind> +)long\[\] r = sRing;\n"
    r" +long s = U\.getLong\(r, SEQ\);\n"
    r" +U\.putLong\(r, SLOT0 \+ \(\(s & sMask\) << 3\), (?P<ev>[^;]*)\);\n"
    r" +U\.putOrderedLong\(r, SEQ, s \+ 1\);[^\n]*\n")


def rewrite(m):
    i, ev = m.group("ind"), m.group("ev")
    if variant == "nonnull":
        body = ["long[] r = sRing;", "if (r == null) {", "    return;", "}",
                "long s = U.getLong(r, SEQ);",
                "U.putLong(r, SLOT0 + ((s & sMask) << 3), %s);" % ev,
                "U.putOrderedLong(r, SEQ, s + 1);"]
    elif variant == "array":
        body = ["long[] r = sRing;", "long s = r[Staging.SEQ];",
                "r[Staging.SLOTS + ((int) s & sMask)] = %s;" % ev,
                "U.putOrderedLong(r, SEQ, s + 1);"]
    elif variant == "plain":
        body = ["long[] r = sRing;", "long s = r[Staging.SEQ];",
                "r[Staging.SLOTS + ((int) s & sMask)] = %s;" % ev,
                "r[Staging.SEQ] = s + 1;"]
    else:
        sys.exit("beat_variant.py: no variant %r (nonnull, array, plain)" % variant)
    return "".join(i + line + "\n" for line in body)


new, n = pat.subn(rewrite, text)
if n != 2:
    sys.exit("beat_variant.py: %s: found %d event stores, not 2 (i and o): the writer changed" % (src, n))
open(out, "w").write(new)
