#!/usr/bin/env python3
"""Checks what the sample app's run produced (samples/app/run.sh OUT): the reports a
user is promised in the README, each from the method that caused it.

usage: check_sample.py OUT"""
import json
import sys

out = sys.argv[1]
ids = {}
for line in open(f"{out}/mapping/methodMapping.txt"):
    num, _, rest = line.rstrip("\n").split(",", 2)
    cls, name, _desc = rest.split(" ")
    ids[f"{cls.rsplit('.', 1)[-1]}.{name}"] = int(num)
reports = [json.loads(line) for line in open(f"{out}/reports.jsonl")]
failures = []


def check(ok, what):
    print(("ok - " if ok else "not ok - ") + what)
    if not ok:
        failures.append(what)


def stack_ids(report):
    return [int(l.split(",")[1]) for l in report.get("stack", "").splitlines() if l]


startup = [r for r in reports if r["tag"] == "Trace_StartUp"]
check(len(startup) == 1 and startup[0]["is_warm_start_up"] is False, "one cold start-up report")
evil = [r for r in reports if r["tag"] == "Trace_EvilMethod" and r.get("detail") == "NORMAL"]
refresh = [r for r in evil if ids["MainActivity.onRefresh"] in stack_ids(r)]
check(len(refresh) == 1 and 700 <= refresh[0]["cost"] <= 1500,
      "a slow-message report of about 800 ms whose stack holds MainActivity.onRefresh")
check(bool(refresh) and str(ids["Work.spin"]) in refresh[0]["stackKey"],
      "its stack key points at the slow spot (Work.spin via decodeBanner)")
lag = [r for r in reports if r["tag"] == "Trace_EvilMethod" and r.get("detail") == "LAG"]
check(len(lag) >= 1, "a lag report during the sync")
anr = [r for r in reports if r["tag"] == "Trace_EvilMethod" and r.get("detail") == "ANR"]
check(len(anr) == 1 and ids["MainActivity.onSync"] in stack_ids(anr[0]),
      "an ANR report whose stack holds MainActivity.onSync")
fps = [r for r in reports if r["tag"] == "Trace_FPS" and r.get("scene") == "sample.MainActivity"]
dropped = sum(r["dropLevel"].get("DROPPED_FROZEN", 0) + r["dropLevel"].get("DROPPED_HIGH", 0)
              + r["dropLevel"].get("DROPPED_MIDDLE", 0) + r["dropLevel"].get("DROPPED_NORMAL", 0)
              for r in fps)
check(dropped > 0, "frame reports for MainActivity with dropped frames")
sys.exit(1 if failures else 0)
