#!/usr/bin/env python3
"""The rules table of README.md against the cases: every rule checked ("yes") names at
least one failing case, each an existing bad/NAME.smali or a dex_verify::TEST of
../test_dex_verify.c, and every bad case is named somewhere in the README. Prints one
line per problem; exit 1 if any.

usage: rules_table.py CASES_DIR
"""
import os
import re
import sys


def main():
    d = sys.argv[1]
    readme = open(os.path.join(d, "README.md")).read()
    bad = {f[:-6] for f in os.listdir(os.path.join(d, "bad")) if f.endswith(".smali")}
    tests = set(re.findall(r"Test\(dex_verify, (\w+)\)", open(os.path.join(d, "..", "test_dex_verify.c")).read()))
    problems, rules = [], 0
    for line in readme.splitlines():
        if not line.startswith("| ") or line.startswith("| rule "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4:
            problems.append(f"not 4 cells: {line}")
            continue
        rules += 1
        names = re.findall(r"`([\w:]+)`", cells[3])
        if cells[2] == "yes" and not names:
            problems.append(f"checked, but no failing case: {cells[0]}")
        for n in names:
            if n.startswith("dex_verify::"):
                if n.split("::", 1)[1] not in tests:
                    problems.append(f"no test {n} in test_dex_verify.c ({cells[0]})")
            elif n not in bad:
                problems.append(f"no bad/{n}.smali ({cells[0]})")
    for n in sorted(bad):
        if f"`{n}`" not in readme:
            problems.append(f"bad/{n}.smali is not in the README")
    for p in problems:
        print(p)
    print(f"{rules} rules in the table, {len(bad)} bad cases, {len(problems)} problems")
    sys.exit(1 if problems or not rules else 0)


main()
