// The README's pictures of a report page (scripts/screenshots.sh runs this):
//   node screenshots.js HTML DIR
// opens HTML in Debian's chromium and writes DIR/report-NAME.png for the timeline
// (zoomed on the slowest message, its heaviest method searched), the threads, the
// methods of the first thread, the call stacks of its costliest method, the reports
// with their charts, the first slow-message report, and the methods of its
// message (selected from the report).
"use strict";
const { chromium } = require("playwright-core");
const path = require("path");

const [html, dir] = process.argv.slice(2);

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const page = await browser.newPage({ viewport: { width: 1200, height: 760 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("file://" + path.resolve(html), { waitUntil: "load" });
  await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
  const shot = async (name) => {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await page.screenshot({ path: path.join(dir, "report-" + name + ".png") });
    console.log("wrote " + path.join(dir, "report-" + name + ".png"));
  };

  // timeline: the view on the longest message of the first thread, with a margin
  await page.evaluate(() => {
    const TL = window.tcTimeline, D = JSON.parse(document.getElementById("tc-data").textContent);
    const t = D.threads[0];
    if (!t || !t.msgs.length) return;
    let best = 0;
    for (let k = 0; k < t.msgs.length / 4; k++) if (t.msgs[4 * k + 1] - t.msgs[4 * k] > t.msgs[4 * best + 1] - t.msgs[4 * best]) best = k;
    const a = t.msgs[4 * best], b = t.msgs[4 * best + 1], pad = Math.max(20, (b - a) * 0.15);
    TL.v0 = a - pad; TL.v1 = b + pad;
    TL.redraw();
  });
  await shot("timeline");
  await page.click("#tab-threads");
  await shot("threads");
  await page.click("#thread-table tr[data-thread]");
  await shot("methods");
  await page.click("#method-table tr[data-row='0'] .mname");
  await shot("stack");
  await page.click("#tab-reports");
  await shot("reports");
  const slow = await page.$("#report-table tr[data-report] .kind >> text=slow message");
  if (slow) {
    await slow.click();
    await page.$eval("#report-detail", (e) => e.scrollIntoView());
    await shot("report");
    // the report's message selected: the Methods view of that message
    const sel = await page.$("#report-select");
    if (sel) {
      await sel.click();
      await page.click("#tab-methods");
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot("window");
    }
  }
  await browser.close();
  if (errors.length) { console.error("page errors: " + errors.join("; ")); process.exit(1); }
}

main().catch((e) => { console.error(e.stack); process.exit(1); });
