// Drives Debian's chromium over a `tc-trace html` page (report.sh runs this).
//
//   node report_test.js sample HTML SHOTS   the trace_gen sample (+ FPS and start-up
//        lines): threads -> methods -> call stack -> a report, each view checked against
//        the ring's known content, a screenshot of each in SHOTS/
//   node report_test.js big HTML            a big ring's page: prints its size and how
//        long the first view took to render (navigation start to the page's ready mark)
//
// Any console error or page error fails. Exit status 0, or 1 with "not ok" lines.
"use strict";
const { chromium } = require("playwright-core");
const fs = require("fs");
const path = require("path");

const [mode, html, shots] = process.argv.slice(2);
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
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", (e) => errors.push("page: " + e.message));
  // the page must not reach the network: every request other than file: and data: fails it
  page.on("request", (r) => { if (!/^(file|data):/.test(r.url())) errors.push("request: " + r.url()); });
  const url = "file://" + path.resolve(html);
  try {
    if (mode === "big") await big(page, url);
    else await sample(page, url);
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
  console.log(`# html ${bytes} bytes (${(bytes / 1048576).toFixed(2)} MB), first view rendered ${Math.round(ms)} ms after navigation start (${wall} ms from goto, as the test driver saw it)`);
  ok(bytes < 10 * 1048576, "the page is under 10 MB", bytes);
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

async function sample(page, url) {
  await page.goto(url, { waitUntil: "load" });
  await page.waitForSelector("body[data-ready='1']");

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

main().then(() => process.exit(failed ? 1 : 0), (e) => { console.log("not ok - " + e.stack); process.exit(1); });
