#!/usr/bin/env python3
"""Whether an archive tc-instrument wrote is a sound zip for readers that are not ours:
`unzip -t` (Info-ZIP: CRCs, and every local extra block as a sequence of whole fields)
and Python's zipfile (`testzip`, which reads every entry through its local header).

usage: zipcheck.py OUTPUT [INPUT]
With INPUT (the archive OUTPUT was made from), an INPUT that fails the same checks
makes the check vacuous: the promise is "sound whenever the input was". Exit 0 when
sound, 1 with what was wrong on stdout.
"""
import subprocess
import sys
import zipfile


def problems(path):
    bad = []
    r = subprocess.run(["unzip", "-tqq", path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        out = r.stdout.decode("utf-8", "replace").strip().splitlines()
        bad.append("unzip -t: exit %d: %s" % (r.returncode, " | ".join(out[:4])))
    try:
        with zipfile.ZipFile(path) as z:
            first = z.testzip()
            if first is not None:
                bad.append("zipfile: entry %s is damaged" % first)
    except Exception as e:  # BadZipFile, or an error reading an entry
        bad.append("zipfile: %s: %s" % (type(e).__name__, e))
    return bad


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    if len(sys.argv) == 3 and problems(sys.argv[2]):
        print("input %s is not sound itself: not checked" % sys.argv[2])
        return 0
    bad = problems(sys.argv[1])
    for b in bad:
        print("%s: %s" % (sys.argv[1], b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
