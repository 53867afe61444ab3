// Drives Debian's chromium over a `tc-trace html` page (report.sh runs this).
//
//   node report_test.js sample HTML SHOTS   the trace_gen sample (+ FPS and start-up
//        lines): threads -> methods -> call stack -> a report, each view checked against
//        the ring's known content, a screenshot of each in SHOTS/
//   node report_test.js sample HTML SHOTS OVERLOAD_HTML   also the page of the sample
//        with two overloads of sample.Main.render: the Methods view tells them apart
//   node report_test.js big HTML            a big ring's page: prints its size, how
//        long the first view took to render (navigation start to the page's ready mark)
//        and the timeline's frame times while zooming, panning, searching and
//        clicking a report
//
// Any console error or page error fails. Exit status 0, or 1 with "not ok" lines.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");

const [mode, html, shots, overloadHtml, threadsHtml] = process.argv.slice(2);
let failed = 0;
function ok(cond, what, got) {
  if (cond) console.log("ok - " + what);
  else {
    failed++;
    console.log("not ok - " + what + (got === undefined ? "" : " (got " + JSON.stringify(got) + ")"));
  }
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  // the clipboard granted, for the details panel's "copy the stack"
  const context = await browser.newContext({ viewport: { width: 1100, height: 720 }, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  // the page must not reach the network: every request other than file: and data: fails it
  page.on("request", (r) => { if (!/^(file|data):/.test(r.url())) errors.push("request: " + r.url()); });
  const url = "file://" + path.resolve(html);
  try {
    if (mode === "big") await big(page, url);
    else {
      await sample(page, url);
      await timelineSample(page, url);
      await overload(page, "file://" + path.resolve(overloadHtml));
      await threadsPage(page, "file://" + path.resolve(threadsHtml));
    }
  } finally {
    ok(errors.length === 0, "no console errors, page errors or network requests", errors);
    await browser.close();
  }
}

async function big(page, url) {
  const bytes = fs.statSync(html).size;
  const t0 = Date.now();
  await page.goto(url, { waitUntil: "load", timeout: 60000 });
  await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
  const wall = Date.now() - t0;
  const ms = +(await page.$eval("body", (b) => b.dataset.readyMs));
  const spans = await page.$eval("#thread-table tr[data-thread] td:nth-child(4)", (e) => e.textContent);
  ok(+spans.replace(/,/g, "") > 0, "the big ring's thread is shown", spans);
  console.log("# load phases: " + await page.$eval("body", (b) => b.dataset.phases));
  console.log(`# html ${bytes} bytes (${(bytes / 1048576).toFixed(2)} MB), first view rendered ${Math.round(ms)} ms after navigation start (${wall} ms from goto, as the test driver saw it)`);
  ok(bytes < 10 * 1048576, "the page is under 10 MB", bytes);
  ok(ms < 20000, "sanity: the first view within 20 s (the target, 2 s, is bench/html.sh's)", ms);

  // The timeline on 1,000,000 events: every input below must lead to a frame; the
  // time of each (the page's own draw time, and input to frame as the driver saw it)
  // is printed; only a generous bound is asserted
  ok(await page.isVisible("#tl-canvas"), "big: the timeline is the first view");
  const frames = [];
  const box = await page.$eval("#tl-canvas", (c) => { const b = c.getBoundingClientRect(); return { x: b.left, y: b.top, w: b.width, h: b.height }; });
  const midY = box.y + 60;
  async function frame(what, act) {
    const n = await page.evaluate(() => window.tcTimeline.frames.length);
    const t0 = Date.now();
    await act();
    await page.waitForFunction((n) => window.tcTimeline.frames.length > n, n, { timeout: 10000 });
    const draw = await page.evaluate(() => window.tcTimeline.frames[window.tcTimeline.frames.length - 1]);
    frames.push({ what, draw, wall: Date.now() - t0 });
  }
  const view = () => page.evaluate(() => [window.tcTimeline.v0, window.tcTimeline.v1]);
  const v0 = await view();
  await page.mouse.move(box.x + box.w / 2, midY);
  for (let i = 0; i < 12; i++) await frame("wheel zoom in", () => page.mouse.wheel(0, -300));
  const v1 = await view();
  ok(v1[1] - v1[0] < (v0[1] - v0[0]) / 100, "big: the wheel zooms in (view 100 times narrower)", [v0, v1]);
  await frame("shift+drag pan", async () => {
    await page.keyboard.down("Shift");
    await page.mouse.move(box.x + box.w * 0.7, midY);
    await page.mouse.down();
    await page.mouse.move(box.x + box.w * 0.3, midY, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up("Shift");
  });
  const v2 = await view();
  ok(v2[0] > v1[0] && Math.abs((v2[1] - v2[0]) - (v1[1] - v1[0])) < 1e-6, "big: a shift+drag pans the view later, same width", [v1, v2]);
  // the keys anywhere on the page: the focus on the header, not the canvas
  await page.click("header");
  for (const k of ["d", "d", "a"]) await frame("key " + k, () => page.keyboard.press(k));
  const v3 = await view();
  ok(v3[0] > v2[0] && Math.abs((v3[1] - v3[0]) - (v2[1] - v2[0])) < 1e-6, "big: the keys pan (D twice, A once)", [v2, v3]);
  for (const k of ["w", "w", "s"]) await frame("key " + k, () => page.keyboard.press(k));
  const v4 = await view();
  ok(v4[1] - v4[0] < v3[1] - v3[0], "big: W twice and S once zoom in", [v3, v4]);
  await page.mouse.move(box.x + box.w / 2, midY);
  for (let i = 0; i < 12; i++) await frame("wheel zoom out", () => page.mouse.wheel(0, 300));
  await frame("search", () => page.fill("#tl-search", "Screen7.step3"));
  const matches = await text(page, "#tl-matches");
  ok(/^[\d,]+ calls of 1 method match$/.test(matches) && +matches.replace(/[^\d]/g, "") > 100, "big: search finds Screen7.step3's calls", matches);
  const nMatch = matches.replace(/ calls.*/, "");
  await blur(page);
  await frame("key 0 (whole recording)", () => page.keyboard.press("0"));
  // the steps: the match selected, zoomed to a readable width; back from the first wraps to the last
  await frame("search: Enter", () => page.press("#tl-search", "Enter"));
  const s1 = await tlSel(page), w1 = await view();
  ok(await text(page, "#tl-count") === "1 / " + nMatch && s1[2].startsWith("big.Screen7.step3") && s1[0] >= w1[0] && s1[1] <= w1[1] &&
    (s1[1] - s1[0]) / (w1[1] - w1[0]) >= 0.3, "big: Enter: 1 / N, the match selected and readable", [await text(page, "#tl-count"), s1, w1]);
  await frame("search: Enter", () => page.press("#tl-search", "Enter"));
  ok(await text(page, "#tl-count") === "2 / " + nMatch && (await tlSel(page))[0] > s1[0], "big: Enter again: 2 / N, later", await text(page, "#tl-count"));
  await page.press("#tl-search", "Shift+Enter");
  await frame("search: Shift+Enter", () => page.press("#tl-search", "Shift+Enter"));
  ok(await text(page, "#tl-count") === nMatch + " / " + nMatch, "big: Shift+Enter from the first wraps to the last", await text(page, "#tl-count"));
  // a slice of the match's: F zooms to it after a zoom out
  await blur(page);
  await frame("key s", () => page.keyboard.press("s"));
  await frame("key f (zoom to the selection)", () => page.keyboard.press("f"));
  const sf = await tlSel(page), wf = await view();
  ok(wf[0] < sf[0] && wf[1] > sf[1] && (sf[1] - sf[0]) / (wf[1] - wf[0]) > 0.7, "big: F zooms to the selected slice", [sf, wf]);
  await frame("key 0 (whole recording)", () => page.keyboard.press("0"));
  await frame("search cleared", () => page.fill("#tl-search", ""));
  await blur(page);
  // a range over the whole view (every call in it): its aggregate
  // (no redraw: the range is an element over the canvas; the page's time is the aggregate's)
  {
    const t0 = Date.now();
    await page.mouse.move(box.x + box.w * 0.2, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + box.w * 0.6, box.y + 10, { steps: 4 });
    await page.mouse.up();
    await page.waitForSelector("#tl-range:not([hidden])");
    frames.push({ what: "range drag (draw: its aggregate)", draw: await page.evaluate(() => window.tcTimeline.rangeMs), wall: Date.now() - t0 });
  }
  ok(await page.isVisible("#tl-range") && /^Range [\d,]+\u2013[\d,]+ ms/.test(await text(page, "#tlr-what")), "big: a drag on the axis opens a range's aggregate",
    await text(page, "#tlr-what"));
  const rr = await rangeRows(page, 0);
  const num = (x) => +x.replace(/,/g, "");
  ok(rr.length >= 10 && rr.every((r, k) => !k || num(r[2]) <= num(rr[k - 1][2])) && rr.every((r) => num(r[2]) <= num(r[3]) + 0.01),
    "big: the range's methods by self time, self within total", rr.slice(0, 3));
  await page.keyboard.press("Escape");
  // a click on a slice at depth 1: its details
  const c1 = await page.evaluate(() => {
    const TL = window.tcTimeline, c = document.getElementById("tl-canvas"), b = c.getBoundingClientRect(), th = TL.rows[0].th, tl = th.tl;
    let i = tl.tops[tl.tops.length >> 1] + 1;
    TL.v0 = tl.start[i] - 1; TL.v1 = tl.end[i] + 1;
    const row = TL.rows.find((r) => r.kind === "depth" && r.d === tl.depth[i]);
    return { x: b.left + c.clientWidth / 2, y: b.top + row.y + row.h / 2, start: tl.start[i], end: tl.end[i] };
  });
  await frame("view on a slice", () => page.evaluate(() => window.tcTimeline.redraw()));
  await frame("click a slice", () => page.mouse.click(c1.x, c1.y));
  const sd = await tlSel(page);
  ok(await page.isVisible("#tl-details") && sd[0] === c1.start && sd[1] === c1.end && (await texts(page, "#tld-parents li")).length === 1,
    "big: a click on a slice: its details, one parent (its message)", [sd, c1, await texts(page, "#tld-parents li")]);
  await page.keyboard.press("Escape");
  // the messages by duration
  await page.click("#tl-msgs summary");
  await page.waitForSelector("#tl-msg-table");
  const md = await page.$$eval("#tl-msg-table tr[data-msg] .ms", (es) => es.map((e) => +e.textContent.replace(/,/g, "")));
  ok(md.length === 200 && md.every((d, k) => !k || d <= md[k - 1]), "big: the slowest 200 messages, slowest first", md.slice(0, 5));
  await page.evaluate(() => { document.getElementById("tl-msgs").open = false; window.scrollTo(0, 0); });
  // the overview's brush: a drag sets the view
  const ov = await page.$eval("#overview", (c) => { const b = c.getBoundingClientRect(); return { x: b.left, y: b.top, w: b.width, h: b.height }; });
  await frame("overview brush", async () => {
    await page.mouse.move(ov.x + ov.w * 0.4, ov.y + ov.h / 2);
    await page.mouse.down();
    await page.mouse.move(ov.x + ov.w * 0.45, ov.y + ov.h / 2, { steps: 3 });
    await page.mouse.up();
  });
  const br = await page.evaluate(() => window.tcTimeline.brush);
  ok(Math.abs(br[0] - ov.w * 0.4) < 2 && Math.abs(br[1] - ov.w * 0.45) < 2, "big: the overview's brush sets and shows the view", br);
  ok(!(await page.isVisible("#tl-lod")), "big: 1,000,000 events within the level of detail's budget: no note");
  await frame("key 0 (whole recording)", () => page.keyboard.press("0"));
  const draws = frames.map((f) => f.draw).sort((a, b) => a - b), walls = frames.map((f) => f.wall).sort((a, b) => a - b);
  const med = (v) => v[v.length >> 1];
  console.log(`# timeline on 1,000,000 events, ${frames.length} frames: draw median ${med(draws).toFixed(1)} ms, max ${draws[draws.length - 1].toFixed(1)} ms; ` +
    `input to frame (driver) median ${med(walls)} ms, max ${walls[walls.length - 1]} ms`);
  for (const f of frames) console.log(`#   ${f.what}: draw ${f.draw.toFixed(1)} ms, input to frame ${f.wall} ms`);
  ok(draws[draws.length - 1] < 1000, "sanity: every timeline frame drew within 1 s", draws[draws.length - 1]);
  // The frame-time targets are a benchmark's (bench/html.sh sets TC_TIMING_TARGETS=1): on
  // a shared CI machine, with other tests running beside this one, they measure the load.
  if (process.env.TC_TIMING_TARGETS === "1") {
    ok(med(draws) <= 5, "big: the median frame drew in 5 ms or less", med(draws));
    ok(walls[walls.length - 1] <= 250, "big: every input led to a frame within 250 ms", walls[walls.length - 1]);
  } else {
    console.log("# frame-time targets (median draw <= 5 ms, every input to a frame <= 250 ms): bench/html.sh");
  }

  // a report marker: click -> its message selected and the report open
  const at = await page.evaluate(() => {
    const TL = window.tcTimeline, c = document.getElementById("tl-canvas"), b = c.getBoundingClientRect();
    const row = TL.rows.find((r) => r.kind === "reports"), t = TL.reportTimes[0];
    TL.v0 = t - 50; TL.v1 = t + 50;
    return { x: b.left + 50 / 100 * c.clientWidth, y: b.top + row.y + row.h / 2 };
  });
  await frame("view on a report", () => page.evaluate(() => window.tcTimeline.redraw()));
  await page.mouse.click(at.x, at.y);
  ok(await page.isVisible("#report-title"), "big: a click on a report marker opens the report");
  ok((await text(page, "#sel-what")).startsWith("Selected: message 20000"), "big: and selects its message (20000)", await text(page, "#sel-what"));
}

const text = (page, sel) => page.$eval(sel, (e) => e.textContent.trim());
const rowOf = (page, table, name) =>
  page.$$eval(`#${table} tr[data-row]`, (trs, name) => {
    const tr = trs.find((t) => t.querySelector(".mname").textContent === name);
    return tr ? { i: tr.dataset.row, calls: tr.querySelector(".calls").textContent, total: tr.querySelector(".total").textContent, self: tr.querySelector(".self").textContent } : null;
  }, name);

async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, "report-" + name + ".png") });
}

/* the page point of time ms in a timeline row (kind, depth d) */
const tlPoint = (page, kind, ms, d) => page.evaluate(([kind, ms, d]) => {
  const TL = window.tcTimeline, c = document.getElementById("tl-canvas"), b = c.getBoundingClientRect();
  const row = TL.rows.find((r) => r.kind === kind && (d === null || r.d === d));
  return { x: b.left + (ms - TL.v0) / (TL.v1 - TL.v0) * c.clientWidth, y: b.top + row.y + row.h / 2 };
}, [kind, ms, d === undefined ? null : d]);
/* pixels of a timeline row drawn in the search's highlight colours */
const highlighted = (page, d) => page.evaluate((d) => {
  const TL = window.tcTimeline, c = document.getElementById("tl-canvas"), dpr = window.devicePixelRatio || 1;
  const row = TL.rows.find((r) => r.kind === "depth" && r.d === d);
  const px = c.getContext("2d").getImageData(0, Math.round((row.y + row.h / 2) * dpr), c.width, 1).data;
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] > 240 && px[i + 1] > 90 && px[i + 1] < 200 && px[i + 2] < 30) n++;
  return n;
}, d);
const frameDone = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

async function sample(page, url) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("body[data-ready='1']");

  // Timeline: the first view; per thread the calls over a ms axis
  ok(await page.isVisible("#tl-canvas"), "timeline: the first view");
  ok(await page.evaluate(() => window.tcTimeline.rows.map((r) => r.kind + (r.d === undefined ? "" : r.d)).join(" ")) ===
    "thread reports messages depth0 depth1 depth2 depth3", "timeline rows: the thread, reports, messages, depths 0-3",
  await page.evaluate(() => window.tcTimeline.rows.map((r) => r.kind + (r.d === undefined ? "" : r.d)).join(" ")));
  await shot(page, "timeline");
  // hover: stuck (depth 1 inside message 3) with its descriptor, start, duration, self time
  let p = await tlPoint(page, "depth", 3000, 1);
  await page.mouse.move(p.x, p.y);
  let tip = await text(page, "#tl-tip");
  ok(tip.includes("sample.Main.stuck ()V") && tip.includes("start 920 ms, duration 5,500 ms, self 5,500 ms"),
    "timeline hover: stuck ()V, start 920 ms, 5,500 ms, self 5,500 ms", tip);
  p = await tlPoint(page, "depth", 500, 2);
  await page.mouse.move(p.x, p.y);
  tip = await text(page, "#tl-tip");
  ok(tip.includes("sample.Main.slowWork ()V") && tip.includes("duration 790 ms, self 760 ms"), "timeline hover: slowWork 790 ms, self 760 ms", tip);
  p = await tlPoint(page, "messages", 3000);
  await page.mouse.move(p.x, p.y);
  ok((await text(page, "#tl-tip")).startsWith("message 3"), "timeline hover: the messages row names message 3", await text(page, "#tl-tip"));
  // search: parse's 5 calls are highlighted, nothing else is
  ok(await highlighted(page, 3) === 0, "timeline: nothing highlighted before a search");
  await page.fill("#tl-search", "parser.parse");
  await frameDone(page);
  ok(await text(page, "#tl-matches") === "5 calls of 1 method match", "timeline search: 5 calls of parse", await text(page, "#tl-matches"));
  ok(await highlighted(page, 3) > 0, "timeline search: parse highlighted at depth 3");
  ok(await highlighted(page, 1) === 0, "timeline search: nothing highlighted at depth 1");
  await page.fill("#tl-search", "");
  // zoom with the wheel around 500 ms: the axis narrows around it
  const w0 = await page.evaluate(() => window.tcTimeline.v1 - window.tcTimeline.v0);
  p = await tlPoint(page, "depth", 500, 0);
  await page.mouse.move(p.x, p.y);
  await page.mouse.wheel(0, -600);
  await frameDone(page);
  const v = await page.evaluate(() => [window.tcTimeline.v0, window.tcTimeline.v1]);
  ok(v[1] - v[0] < w0 / 2 && v[0] < 500 && v[1] > 500, "timeline wheel: zoomed in around 500 ms", v);
  await page.focus("#tl-canvas");
  await page.keyboard.press("0");
  await frameDone(page);
  ok(await page.evaluate(() => window.tcTimeline.v1 - window.tcTimeline.v0) === w0, "timeline key 0: the whole recording again");
  // a report marker (the ANR at 5,920 ms): its message selected, the report open
  await page.mouse.move(0, 0);
  p = await tlPoint(page, "reports", 5920);
  await page.mouse.click(p.x, p.y);
  ok(await page.isVisible("#report-title") && (await text(page, "#report-title")).startsWith("ANR, line 3"), "timeline: a click on the ANR marker opens it",
    await text(page, "#report-title"));
  ok((await text(page, "#sel-what")).startsWith("Selected: message 3"), "timeline: the ANR marker selects message 3", await text(page, "#sel-what"));
  await page.click("#reset");
  await page.click("#tab-threads");

  // Threads: one ring, one thread; busy = the top-level spans (tc-trace tree's total)
  ok(await text(page, "#thread-table tr[data-thread] td.name") === "main", "threads: main");
  ok(await text(page, "#thread-table tr[data-thread] td.busy") === "6,381", "threads: main busy 6,381 ms",
    await text(page, "#thread-table tr[data-thread] td.busy"));
  await shot(page, "threads");

  // Methods of the thread, by cost
  await page.click("#thread-table tr[data-thread]");
  ok(await page.isVisible("#method-table"), "a click on the thread shows its methods");
  const first = await text(page, "#method-table tr[data-row='0'] .mname");
  ok(first === "android.os.Handler.dispatchMessage", "by cost: dispatchMessage first", first);
  let r = await rowOf(page, "method-table", "sample.Main.slowWork");
  ok(r && r.calls === "1" && r.total === "790" && r.self === "760", "slowWork: 1 call, 790 ms, 760 self", r);
  r = await rowOf(page, "method-table", "sample.Main.inflate");
  ok(r && r.calls === "3" && r.total === "30" && r.self === "30", "inflate: 3 calls, 30 ms", r);
  await shot(page, "methods");
  // by call order: the application's onCreate ran first
  await page.click("input[name=order][value=call]");
  ok(await text(page, "#method-table tr[data-row='0'] .mname") === "sample.App.onCreate", "by call order: App.onCreate first",
    await text(page, "#method-table tr[data-row='0'] .mname"));
  // what onClick called
  r = await rowOf(page, "method-table", "sample.Main.onClick");
  await page.click(`#method-table tr[data-row='${r.i}'] button.kids`);
  const kids = await page.$$eval("#method-table tr[data-row] .mname", (es) => es.map((e) => e.textContent));
  ok(kids.length === 1 && kids[0] === "sample.Main.slowWork", "onClick called slowWork only", kids);
  ok((await text(page, "#crumbs")).includes("sample.Main.onClick"), "the crumbs name onClick");
  r = await rowOf(page, "method-table", "sample.Main.slowWork");
  await page.click(`#method-table tr[data-row='${r.i}'] button.kids`);
  r = await rowOf(page, "method-table", "sample.Parser.parse");
  ok(r && r.calls === "5" && r.total === "30", "under slowWork: parse, 5 calls, 30 ms", r);

  // Call stack of parse
  await page.click(`#method-table tr[data-row='${r.i}'] .mname`);
  ok(await page.isVisible("#stacks .stack"), "a click on a method shows its call stacks");
  const stacks = await page.$$eval("#stacks .stack", (es) => es.map((e) => [...e.querySelectorAll(".name")].map((n) => n.firstChild.textContent.trim())));
  ok(stacks.length === 1 && stacks[0].join(" > ") ===
    "android.os.Handler.dispatchMessage > sample.Main.onClick > sample.Main.slowWork > sample.Parser.parse",
  "parse: one stack, dispatchMessage > onClick > slowWork > parse", stacks);
  ok(await text(page, "#stacks .stack .stack-total") === "30 ms", "the stack's time: 30 ms");
  await shot(page, "stack");

  // Reports: the list, the slow message's decoded stack and flame graph, the charts
  await page.click("#tab-reports");
  const kinds = await page.$$eval("#report-table tr[data-report] .kind", (es) => es.map((e) => e.textContent));
  ok(JSON.stringify(kinds) === JSON.stringify(["slow message", "lag", "ANR", "slow message", "start-up", "FPS", "FPS", "FPS"]),
    "reports: slow message, lag, ANR, slow message, start-up, 3 FPS", kinds);
  ok(await page.$$eval("#chart-fps circle.fps-point", (es) => es.length) === 3, "FPS chart: 3 points");
  ok(await page.$$eval("#chart-drops rect.drop-bar", (es) => es.length) === 10, "dropped-frame chart: 5 buckets for each of 2 scenes");
  ok(await page.$$eval("#chart-startup rect.phase", (es) => es.length) === 3, "start-up timeline: 3 phases");
  await page.click("#report-table tr[data-line='1']");
  ok((await text(page, "#report-title")).startsWith("slow message, line 1 in sample.Main"), "report 1: a slow message in sample.Main");
  const stack = await text(page, "#report-stack");
  ok(/^800\s+1\s+android\.os\.Handler\.dispatchMessage/.test(stack) && /790\s+1\s+sample\.Main\.slowWork/.test(stack) &&
    /30\s+5\s+sample\.Parser\.parse/.test(stack), "report 1: its stack decoded", stack);
  ok(await text(page, "#report-key") === "sample.Main.slowWork ()V", "report 1: its stack key decoded");
  ok(await page.$$eval("#report-flame svg g title, #report-flame svg title", (es) => es.some((e) => e.textContent.includes("sample.Main.slowWork"))),
    "report 1: a flame graph with slowWork");
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "reports");
  await page.$eval("#report-detail", (e) => e.scrollIntoView());
  await shot(page, "report");

  // A report selects its own message: the ANR (at 5,920 ms, cost 5,000) ran inside
  // message 3 (920-6,420 ms), all of whose 5,500 ms are stuck's
  await page.click("#tab-reports");
  await page.click("#report-table tr[data-line='3']");
  await page.click("#report-select");
  ok((await text(page, "#sel-what")).startsWith("Selected: message 3"), "report 3 (ANR): selects its message, 3", await text(page, "#sel-what"));
  await page.click("#tab-threads");
  await page.click("#thread-table tr[data-thread]");
  r = await rowOf(page, "method-table", "sample.Main.stuck");
  ok(r && r.calls === "1" && r.total === "5,500", "report 3's message: stuck, 1 call, 5,500 ms", r);
  // A window that begins inside a message: the calls running across its start count
  await page.fill("#from", "100");
  await page.fill("#to", "890");
  await page.click("#apply-window");
  const what = await text(page, "#sel-what");
  ok(/began before it \(android\.os\.Handler\.dispatchMessage at 85 ms, sample\.Main\.onClick at 85 ms/.test(what),
    "window 100-890 ms: says dispatchMessage and onClick began before it", what);
  r = await rowOf(page, "method-table", "android.os.Handler.dispatchMessage");
  ok(r && r.calls === "1", "window 100-890 ms: dispatchMessage counted as 1 call, not 0", r);

  // Selection: message 1 (the slow click) and a window, as --message/--from/--to do
  await page.fill("#msg", "1");
  await page.click("#apply-msg");
  await page.click("#tab-threads");
  ok(await text(page, "#thread-table tr[data-thread] td.busy") === "800", "message 1: busy 800 ms",
    await text(page, "#thread-table tr[data-thread] td.busy"));
  await page.click("#thread-table tr[data-thread]");
  ok(await rowOf(page, "method-table", "sample.Main.stuck") === null, "message 1: stuck is not in it");
  r = await rowOf(page, "method-table", "sample.Parser.parse");
  ok(r && r.calls === "5" && r.total === "30", "message 1: parse, 5 calls, 30 ms", r);
  await page.fill("#from", "0");
  await page.fill("#to", "60");
  await page.click("#apply-window");
  ok((await text(page, "#sel-what")).startsWith("Selected: 0\u201360 ms"), "a window 0-60 ms", await text(page, "#sel-what"));
  r = await rowOf(page, "method-table", "sample.App.onCreate");
  ok(r && r.total === "4", "window 0-60 ms: App.onCreate 4 ms", r);
  ok(await rowOf(page, "method-table", "sample.Main.slowWork") === null, "window 0-60 ms: no slowWork");
  await shot(page, "window");
}

/* the timeline's view [v0, v1] */
const tlView = (page) => page.evaluate(() => [window.tcTimeline.v0, window.tcTimeline.v1]);
/* the view set to [v0, v0 + the canvas's width]: 1 ms a pixel */
const tlSetView = async (page, v0) => {
  await page.evaluate((v0) => { const TL = window.tcTimeline; TL.v0 = v0; TL.v1 = v0 + document.getElementById("tl-canvas").clientWidth; TL.redraw(); }, v0);
  await frameDone(page);
};
const texts = (page, sel) => page.$$eval(sel, (es) => es.map((e) => e.innerText.trim().replace(/\s+/g, " ")));
const blur = (page) => page.evaluate(() => { if (document.activeElement) document.activeElement.blur(); });
/* the selected slice: [start, end, name] */
const tlSel = (page) => page.evaluate(() => {
  const s = window.tcTimeline.sel;
  if (!s) return null;
  const tl = s.kind === "section" ? s.th.sect : s.th.tl;
  return [tl.start[s.i], tl.end[s.i], document.getElementById("tld-name").textContent];
});
/* an aggregate table's rows: {name: [calls, self, total]} */
const rangeRows = (page, ti) => page.$$eval(`#tl-range table[data-thread='${ti}'] tr`, (trs) => trs.slice(1).map((tr) =>
  [tr.querySelector(".mname").textContent, tr.querySelector(".calls").textContent, tr.querySelector(".self").textContent, tr.querySelector(".total").textContent]));

// The timeline as a Perfetto user works it (issue 31), on the sample, from a fresh load:
// a click on a slice, F and Esc, a range dragged, the overview's brush, the keys
// anywhere, search steps, the messages by duration, the From/To boxes, the tooltip
async function timelineSample(page, url) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("body[data-ready='1']");
  const box = await page.$eval("#tl-canvas", (c) => { const b = c.getBoundingClientRect(); return { x: b.left, y: b.top, w: b.width, h: b.height }; });

  // click a slice: slowWork (depth 2 of message 1)
  ok(!(await page.isVisible("#tl-details")), "details: no panel before a click");
  let p = await tlPoint(page, "depth", 500, 2);
  await page.mouse.click(p.x, p.y);
  ok(await page.isVisible("#tl-details"), "details: a click on a slice opens its panel");
  ok(await text(page, "#tld-name") === "sample.Main.slowWork ()V", "details: the method with its descriptor", await text(page, "#tld-name"));
  ok(/^start [\d,]+ ms, duration 790 ms, self 760 ms, depth 2$/.test(await text(page, "#tld-times")), "details: start, duration 790 ms, self 760 ms",
    await text(page, "#tld-times"));
  ok(JSON.stringify(await texts(page, "#tld-parents li")) === JSON.stringify(["sample.Main.onClick 800 ms", "android.os.Handler.dispatchMessage 800 ms, message 1"]),
    "details: its parents up to the message (onClick, then message 1's dispatchMessage)", await texts(page, "#tld-parents li"));
  ok(JSON.stringify(await texts(page, "#tld-kids tr:not(:first-child)")) === JSON.stringify(["sample.Parser.parse 5 30"]),
    "details: its children by cost (parse, 5 calls, 30 ms)", await texts(page, "#tld-kids tr:not(:first-child)"));
  ok(await text(page, "#tld-same-n") === "1", "details: the calls of slowWork in view: 1", await text(page, "#tld-same-n"));
  // copy the stack as text
  await page.click("#tld-copy");
  await page.waitForFunction(() => document.getElementById("tld-copied").textContent !== "");
  ok(await text(page, "#tld-copied") === "copied", "details: the stack copied", await text(page, "#tld-copied"));
  const clip = await page.evaluate(() => navigator.clipboard.readText());
  ok(/^android\.os\.Handler\.dispatchMessage \(Landroid\.os\.Message;\)V  \(start 85 ms, 800 ms\)\n  sample\.Main\.onClick \(Landroid\.view\.View;\)V  \(start 85 ms, 800 ms\)\n    sample\.Main\.slowWork \(\)V  \(start \d+ ms, 790 ms\)\n\(thread main\)\n$/.test(clip),
    "details: the clipboard holds the stack, outermost first, a line a call", clip);
  // a parent in the list selects it
  await page.click("#tld-parents li:first-child");
  ok(await text(page, "#tld-name") === "sample.Main.onClick (Landroid.view.View;)V", "details: a click on a parent selects it", await text(page, "#tld-name"));
  ok(JSON.stringify(await texts(page, "#tld-kids tr:not(:first-child)")) === JSON.stringify(["sample.Main.slowWork 1 790"]),
    "details: onClick's children: slowWork", await texts(page, "#tld-kids tr:not(:first-child)"));

  // F zooms to the selection (onClick, 85-885 ms), Esc clears it
  await blur(page);
  await page.keyboard.press("f");
  await frameDone(page);
  let v = await tlView(page);
  ok(v[0] < 85 && v[0] > 0 && v[1] > 885 && v[1] < 1000, "F: the view on the selected slice (85-885 ms) and a little around it", v);
  await page.keyboard.press("Escape");
  await frameDone(page);
  ok(!(await page.isVisible("#tl-details")) && await page.evaluate(() => window.tcTimeline.sel === null), "Esc: the selection cleared, its panel closed");

  // drag on the slices: a range (85-885 ms: message 1) and its methods by self time
  await tlSetView(page, 0);
  const v0 = await tlView(page);
  p = await tlPoint(page, "depth", 85, 0);
  let q = await tlPoint(page, "depth", 885, 0);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y, { steps: 5 });
  await page.mouse.up();
  ok(JSON.stringify(await tlView(page)) === JSON.stringify(v0), "range: a drag does not pan", [v0, await tlView(page)]);
  ok(await page.isVisible("#tl-range"), "range: a drag opens its aggregate");
  ok(await text(page, "#tlr-what") === "Range 85\u2013885 ms (800 ms)", "range: 85-885 ms", await text(page, "#tlr-what"));
  let rows = await rangeRows(page, 0);
  ok(JSON.stringify(rows.slice(0, 4)) === JSON.stringify([["sample.Main.slowWork", "1", "760", "790"], ["sample.Parser.parse", "5", "30", "30"],
    ["sample.Main.onClick", "1", "10", "800"], ["android.os.Handler.dispatchMessage", "1", "0", "800"]]), "range: by self time: slowWork 760, parse 30, onClick 10, dispatchMessage 0", rows);
  await page.click("#tl-range th[data-sort='total']");
  rows = await rangeRows(page, 0);
  ok(rows[0][3] === "800" && rows[1][3] === "800" && rows[2][0] === "sample.Main.slowWork", "range: by total time: the two 800 ms first, then slowWork", rows);
  // half of message 3 (920-6,420 ms, all stuck's), dragged on the axis: a call crossing an end counts its part inside
  await tlSetView(page, 2000);
  await page.mouse.move(box.x + 100, box.y + 10);
  await page.mouse.down();
  await page.mouse.move(box.x + 400, box.y + 10, { steps: 5 });
  await page.mouse.up();
  ok(await text(page, "#tlr-what") === "Range 2,100\u20132,400 ms (300 ms)", "range on the axis: 2,100-2,400 ms", await text(page, "#tlr-what"));
  rows = await rangeRows(page, 0);
  ok(JSON.stringify(rows.find((r) => r[0] === "sample.Main.stuck")) === JSON.stringify(["sample.Main.stuck", "1", "300", "300"]),
    "range on the axis: stuck's 300 ms inside it", rows);
  // shift+drag pans, and leaves the range
  const v1 = await tlView(page);
  await page.keyboard.down("Shift");
  await page.mouse.move(box.x + 600, box.y + 60);
  await page.mouse.down();
  await page.mouse.move(box.x + 400, box.y + 60, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up("Shift");
  v = await tlView(page);
  ok(Math.abs(v[0] - v1[0] - 200) < 1 && Math.abs((v[1] - v[0]) - (v1[1] - v1[0])) < 1e-6, "shift+drag pans (200 px: 200 ms later)", [v1, v]);
  ok(await text(page, "#tlr-what") === "Range 2,100\u20132,400 ms (300 ms)", "shift+drag leaves the range");
  // the range for the other views
  await page.click("#tlr-select");
  ok((await text(page, "#sel-what")).startsWith("Selected: 2,100\u20132,400 ms"), "range: selected for the other views", await text(page, "#sel-what"));
  await page.keyboard.press("Escape");
  ok(!(await page.isVisible("#tl-range")), "Esc: the range cleared");
  await page.click("#reset");

  // the overview: a brush on the view; dragged elsewhere: a new view; the brush dragged: the view moves
  await page.click("#tl-reset");
  await frameDone(page);
  const ov = await page.$eval("#overview", (c) => { const b = c.getBoundingClientRect(); return { x: b.left, y: b.top, w: b.width, h: b.height }; });
  const ext = await page.evaluate(() => { const TL = window.tcTimeline, w = TL.v1 - TL.v0; return [TL.v0 + w / 1.02 * 0.01, TL.v1 - w / 1.02 * 0.01]; });
  const ovT = (f) => ext[0] + (ext[1] - ext[0]) * f;
  await page.mouse.move(ov.x + ov.w * 0.25, ov.y + ov.h / 2);
  await page.mouse.down();
  await page.mouse.move(ov.x + ov.w * 0.5, ov.y + ov.h / 2, { steps: 4 });
  await page.mouse.up();
  await frameDone(page);
  v = await tlView(page);
  const tol = (ext[1] - ext[0]) / ov.w * 2;
  ok(Math.abs(v[0] - ovT(0.25)) < tol && Math.abs(v[1] - ovT(0.5)) < tol, "overview: a drag sets the view (a quarter to a half)", [v, ovT(0.25), ovT(0.5)]);
  let br = await page.evaluate(() => window.tcTimeline.brush);
  ok(Math.abs(br[0] - ov.w * 0.25) < 2 && Math.abs(br[1] - ov.w * 0.5) < 2, "overview: the brush shows the view", br);
  const blue = await page.$eval("#overview", (c, x) => [...c.getContext("2d").getImageData(Math.round(x), 1, 1, 1).data], (br[0] + br[1]) / 2);
  ok(blue[2] > 120 && blue[0] < 60, "overview: the brush drawn (its blue edge)", blue);
  await page.mouse.move(ov.x + ov.w * 0.375, ov.y + ov.h / 2);
  await page.mouse.down();
  await page.mouse.move(ov.x + ov.w * 0.475, ov.y + ov.h / 2, { steps: 4 });
  await page.mouse.up();
  await frameDone(page);
  const vb = await tlView(page);
  ok(Math.abs(vb[0] - v[0] - (ovT(0.1) - ext[0])) < tol && Math.abs((vb[1] - vb[0]) - (v[1] - v[0])) < 1e-6, "overview: the brush dragged moves the view, same width", [v, vb]);
  await blur(page);
  await page.keyboard.press("w");
  await frameDone(page);
  br = await page.evaluate(() => window.tcTimeline.brush);
  ok(br[1] - br[0] < ov.w * 0.25 * 0.8, "overview: the brush follows a zoom", br);

  // W/S/A/D anywhere on the page, not while typing in a field
  await page.keyboard.press("0");
  await frameDone(page);
  const va = await tlView(page);
  await page.click("header");
  await page.keyboard.press("w");
  await page.keyboard.press("d");
  await frameDone(page);
  const vw = await tlView(page);
  ok(vw[1] - vw[0] < (va[1] - va[0]) * 0.8 && vw[0] > va[0], "keys: W and D after a click on the header zoom and pan", [va, vw]);
  await page.click("#msg");
  await page.keyboard.type("w");
  await page.click("#tl-search");
  await page.keyboard.type("sad");
  await frameDone(page);
  ok(JSON.stringify(await tlView(page)) === JSON.stringify(vw), "keys: typed in a field, W/S/A/D are text", [vw, await tlView(page)]);
  await page.fill("#msg", "");

  // search: a count, next/previous, wraps, the match selected and readable
  await page.fill("#tl-search", "parser.parse");
  ok(await text(page, "#tl-count") === "0 / 5", "search: 0 / 5 before a step", await text(page, "#tl-count"));
  await blur(page);
  await page.keyboard.press("0");
  const starts = [];
  for (let k = 1; k <= 5; k++) {
    await page.press("#tl-search", "Enter");
    await frameDone(page);
    ok(await text(page, "#tl-count") === k + " / 5", `search: Enter: ${k} / 5`, await text(page, "#tl-count"));
    const s = await tlSel(page);
    starts.push(s[0]);
    v = await tlView(page);
    if (k === 1) {
      ok(s[2].startsWith("sample.Parser.parse"), "search: the match selected (its details)", s);
      ok(s[0] >= v[0] && s[1] <= v[1] && (s[1] - s[0]) / (v[1] - v[0]) >= 0.3, "search: zoomed to the match, readable (40% of the view)", [s, v]);
    }
  }
  ok(starts.every((t, k) => !k || t > starts[k - 1]), "search: Enter steps through the matches in time order", starts);
  await page.press("#tl-search", "Enter");
  ok(await text(page, "#tl-count") === "1 / 5" && (await tlSel(page))[0] === starts[0], "search: Enter past the last wraps to the first", await text(page, "#tl-count"));
  await page.press("#tl-search", "Shift+Enter");
  ok(await text(page, "#tl-count") === "5 / 5" && (await tlSel(page))[0] === starts[4], "search: Shift+Enter goes back, wrapping to the last", await text(page, "#tl-count"));
  await page.click("#tl-prev");
  ok(await text(page, "#tl-count") === "4 / 5" && (await tlSel(page))[0] === starts[3], "search: the previous button", await text(page, "#tl-count"));
  await page.click("#tl-next");
  ok(await text(page, "#tl-count") === "5 / 5", "search: the next button", await text(page, "#tl-count"));
  await page.fill("#tl-search", "");
  ok(await text(page, "#tl-count") === "", "search: no count without a search");

  // messages by duration, the slowest first; a click selects one and zooms to it
  await page.click("#tl-msgs summary");
  await page.waitForSelector("#tl-msg-table");
  const msgs = await page.$$eval("#tl-msg-table tr[data-msg]", (trs) => trs.map((t) => [+t.dataset.msg, +t.querySelector(".ms").textContent.replace(/,/g, "")]));
  ok(JSON.stringify(msgs) === JSON.stringify([[3, 5500], [1, 800], [0, 56], [4, 12], [2, 9], [5, 0]]), "messages by duration: 3, 1, 0, 4, 2, 5", msgs);
  await page.click("#tl-msg-table tr[data-msg='1']");
  await frameDone(page);
  v = await tlView(page);
  ok((await text(page, "#sel-what")).startsWith("Selected: message 1") && v[0] < 85 && v[1] > 885 && v[1] - v[0] < 1000,
    "messages by duration: a click selects message 1 and zooms to it", [await text(page, "#sel-what"), v]);
  ok((await tlSel(page))[2] === "android.os.Handler.dispatchMessage (Landroid.os.Message;)V", "messages by duration: its slice selected", await tlSel(page));

  // after "Whole recording" the From/To boxes follow the view
  await page.fill("#from", "100");
  await page.fill("#to", "890");
  await page.click("#apply-window");
  await page.click("#reset");
  await blur(page);
  await page.keyboard.press("s");
  await page.keyboard.press("a");
  await frameDone(page);
  v = await tlView(page);
  const boxes = [await page.inputValue("#from"), await page.inputValue("#to")];
  ok(boxes[0] === String(Math.max(0, Math.floor(v[0]))) && boxes[1] === String(Math.ceil(v[1])), "Whole recording: the From/To boxes follow the view", [boxes, v]);
  await page.keyboard.press("Escape");

  // the tooltip after a keyboard zoom: it follows what is under the mouse, or hides
  await page.keyboard.press("0");
  await frameDone(page);
  p = await tlPoint(page, "depth", 3000, 1);
  await page.mouse.move(p.x, p.y);
  ok((await text(page, "#tl-tip")).includes("sample.Main.stuck"), "tooltip: stuck under the mouse");
  await page.keyboard.press("w");
  await frameDone(page);
  const under = await page.evaluate(([x]) => { const TL = window.tcTimeline, c = document.getElementById("tl-canvas"), b = c.getBoundingClientRect(); return TL.v0 + (x - b.left) / c.clientWidth * (TL.v1 - TL.v0); }, [p.x]);
  ok(await page.isVisible("#tl-tip") && (await text(page, "#tl-tip")).includes("sample.Main.stuck") && under > 920 && under < 6420,
    "tooltip: after W, still the call under the mouse (stuck)", [under, await text(page, "#tl-tip")]);
  for (let k = 0; k < 8; k++) await page.keyboard.press("d");
  await frameDone(page);
  ok(!(await page.isVisible("#tl-tip")), "tooltip: after D pans past the recording, nothing under the mouse: hidden", await text(page, "#tl-tip"));
  await page.keyboard.press("0");

  // the level of detail: a view over the budget leaves the deeper levels out and says so
  ok(!(await page.isVisible("#tl-lod")), "level of detail: everything drawn, no note");
  await page.evaluate(() => { window.tcTimeline.lodBudget = 8; window.tcTimeline.redraw(); });
  await frameDone(page);
  ok(await page.isVisible("#tl-lod") && /^Level of detail: main has \d+ calls in view, over the 8 drawn in a frame, so only depths 0\u2013\d are drawn\. Zoom in/.test(await text(page, "#tl-lod")),
    "level of detail: the page says what it left out", await text(page, "#tl-lod"));
  ok(await highlightedAny(page, 3) === 0, "level of detail: depth 3 not drawn");
  await page.evaluate(() => { window.tcTimeline.lodBudget = 1500000; window.tcTimeline.redraw(); });
  await frameDone(page);
  ok(!(await page.isVisible("#tl-lod")) && await highlightedAny(page, 3) > 0, "level of detail: back within the budget, all drawn, no note");
}
/* pixels of a timeline row (depth d) not white */
const highlightedAny = (page, d) => page.evaluate((d) => {
  const TL = window.tcTimeline, c = document.getElementById("tl-canvas"), dpr = window.devicePixelRatio || 1;
  const row = TL.rows.find((r) => r.kind === "depth" && r.d === d);
  const px = c.getContext("2d").getImageData(0, Math.round((row.y + row.h / 2) * dpr), c.width, 1).data;
  let n = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i + 3] > 0 && !(px[i] > 235 && px[i + 1] > 235 && px[i + 2] > 235)) n++;
  return n;
}, d);

// Overloads: two rows of sample.Main.render tell their descriptors; every row has its
// full name on hover
async function overload(page, url) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("body[data-ready='1']");
  await page.click("#tab-threads");
  await page.click("#thread-table tr[data-thread]");
  const names = await page.$$eval("#method-table tr[data-row] .mname", (es) => es.map((e) => e.textContent));
  ok(names.includes("sample.Main.render ()V") && names.includes("sample.Main.render (I)V"), "overloads: render ()V and render (I)V apart", names);
  ok(names.includes("sample.Main.slowWork"), "overloads: a name without a twin stays short", names);
  const title = await page.$$eval("#method-table tr[data-row] .mname", (es) => es.find((e) => e.textContent === "sample.Main.slowWork").title);
  ok(title === "sample.Main.slowWork ()V", "overloads: the full name on hover (title)", title);

  // the same page's reports: a stack with two 0 ms calls listed first reads
  // costly path first; fields formatted by their names; an FPS chart of one point
  await page.click("#tab-reports");
  await page.click("#report-table tr[data-line='1']");
  const stack = (await text(page, "#report-stack")).split("\n").map((l) => l.trim().replace(/\s+/g, " "));
  ok(JSON.stringify(stack.map((l) => l.replace(/^[\d ]+/, ""))) === JSON.stringify(["android.os.Handler.dispatchMessage", "sample.Main.onClick",
    "sample.Main.slowWork", "sample.Main.<init>", "sample.Main.render"]), "report stack: the costly path first, the 0 ms calls after it", stack);
  const field = (k) => page.$eval(`#report-fields tr[data-key='${k}'] td`, (e) => e.textContent);
  ok(await field("time") === "2023-11-14 22:13:25.885 UTC (1700000005885)", "report field time: a date", await field("time"));
  ok(await field("threadCpuNs") === "123.46 ms (123456789)", "report field threadCpuNs: ns as ms", await field("threadCpuNs"));
  ok(await field("heapBytes") === "3.0 MB (3145728)", "report field heapBytes: bytes", await field("heapBytes"));
  ok(await field("mem") === "6.0 GB (6442450944)" && await field("mem_free") === "1.0 GB (1048576)", "report fields mem (bytes) and mem_free (KB)",
    [await field("mem"), await field("mem_free")]);
  ok(await field("cost") === "300 ms (300)", "report field cost: ms", await field("cost"));
  // the block context (Config.blockContext): its why line above the fields, its
  // objects as tables, their ms fields formatted
  await page.click("#report-table tr[data-line='3']");
  ok((await text(page, "#report-why")) === "Why: ran 1% of the time: blocked; 1 frame, measure+layout 804 ms (usage 1.10%)",
    "block context: the why line", await text(page, "#report-why"));
  const sub = (path) => page.$eval("#report-fields tr[data-key='blockContext'] " + path.map((k) => `tr[data-key='${k}'] > td`).join(" "),
    (e) => e.textContent);
  ok(await sub(["threadCpuMs"]) === "10 ms (10)", "block context: a table of its keys, ms formatted", await sub(["threadCpuMs"]));
  ok(await sub(["viewPhases", "measureLayoutMs"]) === "804 ms (804)" && await sub(["viewPhases", "source"]) === "FrameMetrics",
    "block context: the view phases, a table in it", [await sub(["viewPhases", "measureLayoutMs"]), await sub(["viewPhases", "source"])]);
  await page.click("#report-table tr[data-line='1']");
  ok(!(await page.isVisible("#report-why")), "a report without a block context has no why line");
  const pt = await page.$eval("#chart-fps circle.fps-point", (c) => +c.getAttribute("cx"));
  const axis = await page.$$eval("#chart-fps text.fps-axis", (es) => es.map((e) => e.textContent));
  ok(pt > 150 && pt < 300, "FPS chart of one point: the point in the middle", pt);
  ok(JSON.stringify(axis) === JSON.stringify(["-500 ms", "1,500 ms"]), "FPS chart of one point: an axis of 2 s around it", axis);
  ok(await text(page, "#chart-fps text.fps-value") === "55.5 fps", "FPS chart of one point: its value written");
  await page.$eval("#charts", (e) => e.scrollIntoView());
}

// Three threads: a track each on the timeline, with its own depths
async function threadsPage(page, url) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("body[data-ready='1']");
  const rows = await page.evaluate(() => window.tcTimeline.rows.map((r) => r.kind === "thread" ? "[" + r.th.t.name.replace(/ \(tid \d+\)$/, "") + "]" : r.kind + (r.d === undefined ? "" : r.d)).join(" "));
  ok(rows === "[main] messages section0 depth0 depth1 [io-1] section0 depth0 depth1 [io-2] depth0",
    "threads: a track per thread on the timeline, with its sections", rows);
  // the sections row: hover main's section
  const q = await page.evaluate(() => {
    const TL = window.tcTimeline, c = document.getElementById("tl-canvas"), b = c.getBoundingClientRect();
    const row = TL.rows.find((r) => r.kind === "section"), sc = row.th.sect, ms = (sc.start[0] + sc.end[0]) / 2;
    return { x: b.left + (ms - TL.v0) / (TL.v1 - TL.v0) * c.clientWidth, y: b.top + row.y + row.h / 2 };
  });
  await page.mouse.move(q.x, q.y);
  const stip = await text(page, "#tl-tip");
  ok(stip.startsWith("section") && stip.includes("cold start"), "threads: main's section row holds \"cold start\"", stip);
  const p = await page.evaluate(() => {
    const TL = window.tcTimeline, c = document.getElementById("tl-canvas"), b = c.getBoundingClientRect();
    const rows = TL.rows.filter((r) => r.kind === "depth" && r.d === 1), row = rows[1], th = row.th, tl = th.tl;
    let i = 0;
    while (tl.depth[i] !== 1) i++;
    const ms = (tl.start[i] + tl.end[i]) / 2;
    return { x: b.left + (ms - TL.v0) / (TL.v1 - TL.v0) * c.clientWidth, y: b.top + row.y + row.h / 2 };
  });
  await page.mouse.move(p.x, p.y);
  const tip = await text(page, "#tl-tip");
  ok(tip.includes("sample.Net.connect ()V") && tip.includes("duration 30 ms"), "threads: io-1's depth 1 is connect, 30 ms", tip);
}

main().then(() => process.exit(failed ? 1 : 0), (e) => { console.log("not ok - " + e.stack); process.exit(1); });
