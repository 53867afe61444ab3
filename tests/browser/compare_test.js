// Drives Debian's chromium over a `tc-trace compare --html` page (report.sh compare runs
// this): two builds' launches (trace_gen compare, app.Catalog.load 40 ms slower in B,
// other ids). The page must draw both sides' timelines, one above the other; clicking
// a message kind shows one of its messages on each side, on one time scale (the slower
// side's Catalog.load wider); another message of the kind and another recording can be
// chosen. Any console error, page error or network request fails.
//
//   node compare_test.js HTML SHOTS
"use strict";
const { chromium } = require("playwright-core");
const path = require("path");

const [html, shots] = process.argv.slice(2);
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
  page.on("request", (r) => { if (!/^(file|data):/.test(r.url())) errors.push("request: " + r.url()); });
  try {
    await page.goto("file://" + path.resolve(html), { waitUntil: "load" });
    await page.waitForSelector("body[data-ready='1']", { timeout: 20000 });
    const spans = async (side) => page.$eval("#tl-" + side, (s) => +s.dataset.spans);
    const rects = async (side) => page.$$eval("#tl-" + side + " rect", (rs) => rs.length);
    ok((await page.$$eval("#kinds tbody tr", (rs) => rs.length)) === 4, "the four message kinds are listed");
    ok((await spans("a")) > 0 && (await rects("a")) > 1, "the first kind: A's timeline is drawn", await spans("a"));
    ok((await spans("b")) > 0 && (await rects("b")) > 1, "... and B's, below it", await spans("b"));
    const below = await page.evaluate(() => document.getElementById("tl-b").getBoundingClientRect().top >
      document.getElementById("tl-a").getBoundingClientRect().bottom);
    ok(below, "B's timeline is below A's");

    // the start-up message: Catalog.load on both sides, wider in B (40 ms slower)
    const key = "app.Main.onCreate (Landroid.os.Bundle;)V";
    await page.click(`#kinds tr[data-key="${key}"]`);
    ok((await page.$eval("body", (b) => b.dataset.kind)) === key, "clicking a kind chooses it");
    ok(await page.$eval(`#kinds tr[data-key="${key}"]`, (r) => r.classList.contains("chosen")), "... and marks its row");
    const width = async (side, name) => page.$$eval("#tl-" + side + " rect",
      (rs, n) => rs.filter((r) => r.dataset.name === n).map((r) => +r.getAttribute("width")), name);
    const wa = await width("a", "app.Catalog.load ()V"), wb = await width("b", "app.Catalog.load ()V");
    ok(wa.length === 1 && wb.length === 1, "Catalog.load in both sides' start-up message (names, though ids differ)", [wa, wb]);
    ok(wb[0] > wa[0] * 1.5, "B's Catalog.load is drawn wider (one time scale: 70 against 30 ms)", [wa, wb]);
    const msA = await page.$eval("#tl-a rect[data-name='app.Catalog.load ()V']", (r) => +r.dataset.ms);
    const msB = await page.$eval("#tl-b rect[data-name='app.Catalog.load ()V']", (r) => +r.dataset.ms);
    ok(msB - msA >= 25 && msB - msA <= 55, "its durations differ by about the 40 ms it was slowed", [msA, msB]);
    await page.hover("#tl-b rect[data-name='app.Catalog.load ()V']");
    ok((await page.$eval("#tip", (t) => t.textContent)).startsWith("app.Catalog.load ()V  " + msB + " ms"),
      "hovering a call names it, with its duration");
    await page.screenshot({ path: path.join(shots, "compare-startup.png") });

    // another kind, another of its messages, another recording
    const click = "app.Main.onClick (Landroid.view.View;)V";
    await page.click(`#kinds tr[data-key="${click}"]`);
    const n = await page.$$eval("#inst option", (os) => os.length);
    ok(n === 10, "a kind of 10 messages a launch offers 10 to choose", n);
    const head0 = await page.$eval("#head-a", (h) => h.textContent);
    await page.selectOption("#inst", "3");
    const head3 = await page.$eval("#head-a", (h) => h.textContent);
    ok(head0 !== head3 && /message at \d+ ms/.test(head3), "choosing its 4th message redraws A", [head0, head3]);
    ok((await spans("a")) > 0 && (await spans("b")) > 0, "... and both timelines have its calls");
    await page.selectOption("#rec-b", "1");
    ok(/ring1, message at/.test(await page.$eval("#head-b", (h) => h.textContent)), "another B recording can be chosen");
    await page.screenshot({ path: path.join(shots, "compare-click.png") });
  } finally {
    ok(errors.length === 0, "no console errors, page errors or network requests", errors);
    await browser.close();
  }
}

main().then(() => process.exit(failed ? 1 : 0), (e) => { console.log("not ok - " + e.stack); process.exit(1); });
