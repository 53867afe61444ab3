#!/usr/bin/env python3
"""Checks what the sample app's run produced (samples/app/run.sh OUT): the reports a
user is promised in the README, each from the method that caused it.

usage: check_sample.py OUT"""
import json, re
import os
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

# What tc-trace made of it (samples/app/run.sh): names from the mapping, a Chrome
# trace whose spans nest, flame graphs.
text = open(f"{out}/reports.txt").read()
check("sample.MainActivity.onRefresh" in text and "sample.Work.spin" in text,
      "reports.txt shows the slow stack with method names")
decoded = [json.loads(line) for line in open(f"{out}/reports-decoded.jsonl")]
check(all("stackDecoded" in r for r in decoded if r.get("stack")),
      "every report with a stack has stackDecoded")
# trace.json holds every call as B/E pairs (tc-trace chrome --min-us 0), the form
# Perfetto orders right when many spans share a millisecond: per thread the pairs are
# well parenthesized in time order, and they are the very spans of trace-all.json (the
# same export as complete events, sample_app.sh).
trace = json.load(open(f"{out}/trace.json"))
spans, stacks, last, bad = [], {}, {}, 0
for e in trace["traceEvents"]:
    if e.get("ph") not in ("B", "E"):
        continue
    tid = e["tid"]
    if e["ts"] < last.get(tid, 0):
        bad += 1
    last[tid] = e["ts"]
    st = stacks.setdefault(tid, [])
    if e["ph"] == "B":
        st.append(e)
    elif not st:
        bad += 1
    else:
        b = st.pop()
        spans.append((b["ts"], e["ts"] - b["ts"], b["name"]))
bad += sum(len(st) for st in stacks.values())
names = {n for (_, _, n) in spans}
check("sample.MainActivity.onRefresh" in names, "trace.json has onRefresh as a span")
check(bad == 0 and len(spans) > 10000, f"trace.json's B/E pairs nest, in time order ({len(spans)} spans)")
every = json.load(open(f"{out}/trace-all.json"))["traceEvents"]
xs = sorted((e["ts"], e["dur"], e["name"]) for e in every if e.get("ph") == "X")
check(sorted(spans) == xs, f"trace.json holds every span of the ring ({len(xs)}), as trace-all.json")
# trace.pftrace: the same in Perfetto's protobuf (tests/trace/perfetto.sh judges the
# format), much smaller
pf = open(f"{out}/trace.pftrace", "rb").read()
size = os.path.getsize(f"{out}/trace.json")
check(pf[:1] == b"\x0a" and len(pf) * 3 <= size,
      f"trace.pftrace is a Perfetto trace, {size / len(pf):.1f} times smaller than trace.json")
# report.html: self-contained (no src= or href= leaving the file), its data names the
# slow method and carries the reports (tests/browser clicks through such a page).
page = open(f"{out}/report.html").read()
check(page.startswith("<!DOCTYPE html>") and "sample.Work.spin" in page and "Trace_EvilMethod" in page
      and not re.search(r'(src|href)="(https?:)?//', page),
      f"report.html is one self-contained page naming Work.spin and the reports ({len(page)} bytes)")
for svg in ("flame.svg", "flame-slow-message.svg"):
    body = open(f"{out}/{svg}").read()
    check(body.startswith("<?xml") or body.startswith("<svg"), f"{svg} is an SVG")
check("sample.Work.spin" in open(f"{out}/flame-slow-message.svg").read(),
      "the slow-message flame graph names Work.spin")
# The hot list (tc-trace hot): Product.parse is called 14,000 times for well under a
# millisecond each; the slow methods are not listed. Given to tc-instrument as a block
# list (tests/samples/sample_app.sh), it keeps exactly those methods out.
hot = [l.split(" ", 1)[1].strip() for l in open(f"{out}/hot.rules") if l.startswith("-keepmethod ")]
check("sample.Product parse (Ljava.lang.String;)Lsample.Product;" in hot
      and not any("Work spin" in h or "onRefresh" in h for h in hot),
      f"hot.rules lists Product.parse and no slow method ({len(hot)} methods)")
ignored = open(f"{out}/hot-mapping/ignoreMethodMapping.txt").read().splitlines()
traced = open(f"{out}/hot-mapping/methodMapping.txt").read()
stats = json.load(open(f"{out}/hot-mapping/instrument-stats.json"))
check(all(h in ignored for h in hot) and not any(h in traced for h in hot),
      "tc-instrument --blocklist hot.rules traces none of them")
check(stats["methods"]["ignored_by_reason"]["keepmethod"] == len(hot)
      and f"({len(hot)} by -keepmethod)" in open(f"{out}/hot-instrument.log").read(),
      "its stats and summary line count them")
sys.exit(1 if failures else 0)
