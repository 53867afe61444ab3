#!/usr/bin/env python3
"""table.py SRC: the tracers are plug-ins behind one table (issue 28, item 6; STYLE.md 16).

runtime/src/context.c walks the table of tracer_ops rows (context.h) and calls no tracer by
name; each runtime/src/tracer_NAME.c defines exactly one row, `const tracer_ops tracer_NAME`,
and exports nothing else a context could call by name (its other functions are static, or
named for a helper module, not tracer_*); every row is in the table, once. So a new tracer
is one file and one row. --self-test: the check catches each way to break it."""
import os
import re
import sys


def check(context_c, tracer_files):
    """Problems, as lines: context_c is context.c's text, tracer_files {name: text}."""
    bad = []
    code = re.sub(r"/\*.*?\*/", "", context_c, flags=re.S)
    m = re.search(r"tracers\[\]\s*=\s*\{(.*?)\};", code, flags=re.S)
    rows = re.findall(r"&tracer_([a-z0-9_]+)\b", m.group(1)) if m else []
    if not m:
        bad.append("context.c: no table `tracers[] = { &tracer_..., }`")
    for call in sorted(set(re.findall(r"\btracer_[a-z0-9]+_[a-z0-9_]+\s*\(", code))):
        bad.append("context.c calls a tracer by name: %s...)" % call)
    for name, text in sorted(tracer_files.items()):
        body = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        defs = re.findall(r"^const tracer_ops tracer_([a-z0-9_]+)\s*=", body, flags=re.M)
        if defs != [name]:
            bad.append("tracer_%s.c: defines %s, not one row tracer_%s" % (name, defs or "no row", name))
        for f in re.findall(r"^(?:int|void|bool|uint64_t)\s+(tracer_[a-z0-9_]+)\s*\(", body, flags=re.M):
            bad.append("tracer_%s.c: %s is exported: a context could call it by name (make it static)" % (name, f))
        if rows.count(name) != 1:
            bad.append("tracer_%s is %d times in context.c's table, not once" % (name, rows.count(name)))
    for r in rows:
        if r not in tracer_files:
            bad.append("the table's tracer_%s has no file tracer_%s.c" % (r, r))
    return bad


def self_test():
    good_ctx = "static const tracer_ops *const tracers[] = { &tracer_a, &tracer_b };\nvoid f(void) { g(); }\n"
    good = {"a": "const tracer_ops tracer_a = { 0 };\nstatic void tracer_a_x(void) {}\n",
            "b": "/* tracer_b_old(x) */\nconst tracer_ops tracer_b = { 0 };\n"}
    cases = {
        "a call by name": (good_ctx.replace("g();", "tracer_a_watch(ctx, 1);"), good),
        "no table": ("void f(void) {}\n", good),
        "a row missing": (good_ctx.replace(", &tracer_b", ""), good),
        "a row twice": (good_ctx.replace("&tracer_b", "&tracer_b, &tracer_b"), good),
        "a row with no file": (good_ctx.replace("&tracer_b", "&tracer_b, &tracer_c"), good),
        "an exported function": (good_ctx, dict(good, a=good["a"] + "void tracer_a_begin(tc_ctx *ctx)\n{\n}\n")),
        "a file with no row": (good_ctx, dict(good, b="static int x;\n")),
    }
    if check(*(good_ctx, good)):
        print("not ok - the good case fails: %s" % check(good_ctx, good))
        return 1
    failed = 0
    for what, (ctx, files) in cases.items():
        got = check(ctx, files)
        print("%s - %s is caught%s" % ("ok" if got else "not ok", what, ": " + got[0] if got else ""))
        failed += not got
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    src = os.path.join(sys.argv[1], "runtime", "src")
    ctx = open(os.path.join(src, "context.c")).read()
    files = {}
    for f in sorted(os.listdir(src)):
        m = re.fullmatch(r"tracer_([a-z0-9_]+)\.c", f)
        if m:
            files[m.group(1)] = open(os.path.join(src, f)).read()
    bad = check(ctx, files)
    for b in bad:
        print("not ok - " + b)
    if not bad:
        print("ok - context.c walks one table of %d tracers and calls none by name" % len(files))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
