#!/usr/bin/python3 -O
"""Debian's enjarify used as a library: translate one dex file to a jar of Java 5 class
files, as `enjarify -f -o OUT.jar IN.dex` does (same modules, same PRETTY options, same
`python3 -O`), with one fix (negative static constants, see _sign_extended_value) and
three additions the oracles need:

  --jobs N     translate in N forked worker processes (classes are independent);
  --sample M   translate only the classes whose zlib.crc32(name) % M == 0, a sample that
               is the same for the original and the instrumented file (M=1: all);
  ERRORS.tsv   one line per class that crashed enjarify: `name<TAB>where<TAB>error`,
               where = the innermost three frames (function:line>...) and error = the
               exception's last line. A crash on an instrumented class whose original
               translated is a failure signal (a misplaced move-result or move-exception
               crashes typeinference.visitMoveResult).

Needs /usr/bin/python3 (Debian's, which has the enjarify package on its path).
usage: enjar.py [--jobs N] [--sample M] IN.dex OUT.jar ERRORS.tsv
"""
import argparse
import multiprocessing
import os
import sys
import traceback
import zipfile
import zlib

from enjarify import parsedex
from enjarify.jvm import writeclass
from enjarify.jvm.optimization import options
from enjarify.mutf8 import decode
from enjarify.util import signExtend

_dex = None
_names = None
_encoded_value = parsedex.encodedValue


def _sign_extended_value(dex, stream):
    """enjarify 1.0.3 (Debian 12) reads an encoded_value INT or LONG written in fewer
    bytes than its width without sign extension, so `static final int DONE = -1` (one
    byte, 0xff) becomes a ConstantValue of 255; javac then inlines 255 into a driver
    compiled against the jar. Same reading, sign-extended as the dex format says."""
    tag = stream.data[stream.pos]
    vtype, size = tag & 31, (tag >> 5) + 1
    res = _encoded_value(dex, stream)
    if vtype == 0x04:
        return b'I', signExtend(res[1], size * 8) % (1 << 32)
    if vtype == 0x06:
        return b'J', signExtend(res[1], size * 8) % (1 << 64)
    return res


parsedex.encodedValue = _sign_extended_value


def _work(indices):
    out = []
    for i in indices:
        cls = _dex.classes[i]
        try:
            out.append((i, writeclass.toClassFile(cls, options.PRETTY), None))
        except Exception as e:  # enjarify's own main catches Exception the same way
            tb = traceback.extract_tb(e.__traceback__)
            where = '>'.join('%s:%d' % (f.name, f.lineno) for f in tb[-3:]) or '?'
            msg = ('%s: %s' % (type(e).__name__, e)).replace('\t', ' ').replace('\n', ' ')
            out.append((i, None, where + '\t' + msg))
    return out


def main():
    global _dex, _names
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--sample', type=int, default=1)
    ap.add_argument('dex')
    ap.add_argument('jar')
    ap.add_argument('errors')
    a = ap.parse_args()
    with open(a.dex, 'rb') as f:
        _dex = parsedex.DexFile(f.read())
    _names = [decode(c.name) for c in _dex.classes]
    keep = [i for i, n in enumerate(_names)
            if a.sample <= 1 or zlib.crc32(n.encode()) % a.sample == 0]
    jobs = max(1, min(a.jobs, len(keep)))
    chunks = [keep[w::jobs] for w in range(jobs)]
    if jobs == 1:
        results = _work(keep)
    else:
        with multiprocessing.get_context('fork').Pool(jobs) as pool:
            results = [r for part in pool.map(_work, chunks) for r in part]
    results.sort()
    seen = set()
    tmp = a.jar + '.tmp'
    nok = nerr = 0
    with zipfile.ZipFile(tmp, 'w') as z, open(a.errors, 'w') as errs:
        for i, data, err in results:
            name = _names[i] + '.class'
            if name in seen:  # enjarify keeps the first of duplicate names
                continue
            seen.add(name)
            if data is None:
                errs.write('%s\t%s\n' % (_names[i], err))
                nerr += 1
                continue
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o664 << 16
            z.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED if len(data) > 10000
                       else zipfile.ZIP_STORED)
            nok += 1
    os.replace(tmp, a.jar)
    print('%s: %d classes translated, %d crashed enjarify (of %d; sample 1/%d)'
          % (os.path.basename(a.dex), nok, nerr, len(_names), max(1, a.sample)))


if __name__ == '__main__':
    sys.exit(main())
