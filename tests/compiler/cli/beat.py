#!/usr/bin/env python3
"""Checks instrumented class files against methodMapping.txt, by reading them with
javap (the JDK's disassembler, independent of tracecanary) or with tc-dump.

    beat.py check [--tool javap|tc-dump] [--dump PATH] [--beat NAME]
                  [--unchanged "cls name desc"]... MAPPING CLASSFILE...

For every method of every class: when methodMapping.txt lists it (key "a.b.C name
desc"), the code must push its id and call BEAT.i(I)V exactly once, and call BEAT.o(I)V
once before each return instruction plus once in the catch-all handler, always with
that id; otherwise (or when named with --unchanged) it must not call i or o at all.
Prints "checked C classes, T traced methods" and exits 1 on the first mismatch list.

    beat.py calls [--tool ...] CLASSFILE...     prints "cls name desc i=.. o=.." lines
"""
import argparse
import re
import subprocess
import sys

PUSH = re.compile(r"^\s*\d+: (?:iconst_(\d)|bipush\s+(-?\d+)|sipush\s+(-?\d+)|"
                  r"ldc(?:_w)?\s+#\d+\s+//\s*(?:int\s+)?(-?\d+))\s*$")
INSN = re.compile(r"^\s*(\d+): (\w+)")
MODIFIERS = {"public", "protected", "private", "static", "final", "synchronized", "native",
             "abstract", "strictfp", "transient", "volatile"}
RETURNS = {"ireturn", "lreturn", "freturn", "dreturn", "areturn", "return"}


def parse_javap(text):
    """-> {(file, class): {(name, desc): [insn lines]}}"""
    classes, cur, meth, name, path, this = {}, None, None, None, None, None
    for line in text.splitlines():
        m = re.match(r"^Classfile (.*)$", line)
        if m:
            path = m.group(1)
            continue
        m = re.match(r"^\s*this_class: #\d+\s+// (\S+)", line)
        if m:
            cur = classes.setdefault((path, m.group(1)), {})
            this = m.group(1)
            meth = None
            continue
        m = re.match(r"^  ([\w<>$.,\[\] ]*?\s)?([\w$.<>]+)\((.*)\)(?: throws [\w$.,]+)?;$", line)
        if m and cur is not None:
            name = m.group(2)
            prefix = (m.group(1) or "").split()
            # Constructors are printed as the class, without a result type.
            if name == this.replace("/", ".") and all(t in MODIFIERS for t in prefix):
                name = "<init>"
            meth = None
            continue
        if re.match(r"^  static \{\};$", line):
            name, meth = "<clinit>", None
            continue
        m = re.match(r"^    descriptor: (\S+)$", line)
        if m and cur is not None and name:
            meth = cur.setdefault((name, m.group(1)), [])
            name = None
            continue
        if meth is not None and INSN.match(line):
            meth.append(line)
    return classes


def parse_tcdump(text):
    classes, cur, meth, incode, path = {}, None, None, False, None
    for line in text.splitlines():
        m = re.match(r"^# (.*)$", line)
        if m:
            path = m.group(1)
            continue
        m = re.match(r"^class (\S+)$", line)
        if m:
            cur = classes.setdefault((path, m.group(1)), {})
            meth = None
            continue
        m = re.match(r"^  \[\d+\] 0x[0-9a-f]+ .*?([^ (]+)(\(.*)$", line)
        if m and cur is not None:
            meth = cur.setdefault((m.group(1), m.group(2)), [])
            incode = False
            continue
        if re.match(r"^    \S", line):  # "Code: ...", "LineNumberTable: ..." ...
            incode = line.startswith("    Code:")
            continue
        if meth is not None and incode and re.match(r"^\s+\d+: [a-z]", line):
            meth.append(line)
    return classes


def disassemble(tool, dump, files):
    if tool == "javap":
        out = subprocess.run([dump, "-v", "-p"] + files, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("javap failed: " + out.stderr)
        return parse_javap(out.stdout)
    out = subprocess.run([dump] + files, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("tc-dump failed: " + out.stderr)
    return parse_tcdump(out.stdout)


def calls(insns, beat):
    """-> (i ids, o ids, number of return instructions)"""
    i_ids, o_ids, returns, last = [], [], 0, None
    for line in insns:
        m = PUSH.match(line)
        if m:
            last = int(next(g for g in m.groups() if g is not None))
            continue
        op = INSN.match(line).group(2)
        if op in RETURNS:
            returns += 1
        if op == "invokestatic" and beat + ".i:(I)V" in line:
            i_ids.append(last)
        elif op == "invokestatic" and beat + ".o:(I)V" in line:
            o_ids.append(last)
        last = None
    return i_ids, o_ids, returns


def load_mapping(path):
    ids = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            i, _, key = line.split(",", 2)
            ids[key] = int(i)
    return ids


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["check", "calls"])
    ap.add_argument("--tool", choices=["javap", "tc-dump"], default="javap")
    ap.add_argument("--dump", default=None)
    ap.add_argument("--beat", default="com/tencent/matrix/trace/core/AppMethodBeat")
    ap.add_argument("--unchanged", action="append", default=[])
    ap.add_argument("args", nargs="+")
    a = ap.parse_args()
    dump = a.dump or ("javap" if a.tool == "javap" else "tc-dump")
    beat = a.beat.replace(".", "/")
    if a.cmd == "calls":
        for (_, cls), methods in sorted(disassemble(a.tool, dump, a.args).items()):
            for (name, desc), insns in methods.items():
                i, o, r = calls(insns, beat)
                print("%s %s %s i=%s o=%s returns=%d" % (cls.replace("/", "."), name,
                      desc.replace("/", "."), ",".join(map(str, i)), ",".join(map(str, o)), r))
        return 0
    ids = load_mapping(a.args[0])
    classes = disassemble(a.tool, dump, a.args[1:])
    problems, traced = [], 0
    for (path, cls), methods in sorted(classes.items()):
        for (name, desc), insns in methods.items():
            key = "%s %s %s" % (cls.replace("/", "."), name, desc.replace("/", "."))
            want = ids.get(key) if key not in a.unchanged else None
            i, o, r = calls(insns, beat)
            if want is None:
                if i or o:
                    problems.append("%s: %s: not traced but calls i=%s o=%s" % (path, key, i, o))
                continue
            traced += 1
            if i != [want]:
                problems.append("%s: %s: id %d, but i() calls with %s" % (path, key, want, i))
            if o != [want] * (r + 1):
                problems.append("%s: %s: id %d, %d returns, but o() calls with %s" % (path, key, want, r, o))
    if len(classes) != len(a.args) - 1:
        problems.append("read %d classes from %d files" % (len(classes), len(a.args) - 1))
    for p in problems:
        print(p)
    print("checked %d classes, %d traced methods" % (len(classes), traced))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
