/**
 * Largest contentful paint and cumulative layout shift of the dashboard's main pages on a running
 * build, in Debian's Chromium (the figures the issue asks for in the closing note; not a test: timings
 * never gate anything).
 *
 *   npm run build && PORT=3400 npm start   # another terminal (embedded database with the demo user)
 *   npx tsx bench/measure-lcp.ts http://localhost:3400
 *
 * Each page is loaded three times in a fresh context (signed in as the demo user); the median LCP of
 * the three is printed with the median time to the HTML's first byte and the element LCP names, and all runs are written to bench/results/lcp.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";

const base = (process.argv[2] ?? "http://localhost:3000").replace(/\/$/, "");
const ALL_PAGES = ["/login", "/dashboard", "/dashboard/vehicles/sbx-001", "/dashboard/alerts", "/dashboard/keys", "/dashboard/certificates", "/dashboard/reports", "/docs"];
// LCP_PAGES=/dashboard,/dashboard/vehicles/sbx-001 measures only those.
const PAGES = process.env.LCP_PAGES ? process.env.LCP_PAGES.split(",") : ALL_PAGES;
const RUNS = 3;

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const results: { page: string; lcp_ms: number[]; median_ms: number; ttfb_median_ms: number; html_end_median_ms: number; lcp_elements: string[]; cls_max: number }[] = [];
  for (const path of PAGES) {
    const lcps: number[] = [];
    const shifts: number[] = [];
    const ttfbs: number[] = [];
    const htmlEnds: number[] = [];
    const elements = new Set<string>();
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      if (path !== "/login" && path !== "/docs") {
        await page.goto(`${base}/login`);
        await page.getByLabel("Email").fill("demo@fdp.example");
        await page.getByLabel("Password").fill(process.env.FDP_DEMO_PASSWORD ?? "sandbox-demo-2026");
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(/\/dashboard$/);
      }
      await page.goto(`${base}${path}`, { waitUntil: "load" });
      await page.waitForTimeout(1500); // let late paints (map, reference) land before reading the entry
      // The LCP entry, the element it names, and the time to the first byte of the page's HTML (the server's share).
      const { lcp, element, ttfb, htmlEnd } = await page.evaluate(
        () =>
          new Promise<{ lcp: number; element: string; ttfb: number; htmlEnd: number }>((resolve) => {
            let last = 0;
            let element = "";
            new PerformanceObserver((list) => {
              for (const e of list.getEntries() as (PerformanceEntry & { element?: Element | null })[]) {
                last = e.startTime;
                const el = e.element;
                element = el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""} "${(el.textContent ?? "").trim().slice(0, 40)}"` : "";
              }
            }).observe({ type: "largest-contentful-paint", buffered: true });
            const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
            setTimeout(() => resolve({ lcp: last, element, ttfb: nav ? nav.responseStart : 0, htmlEnd: nav ? nav.responseEnd : 0 }), 200);
          }),
      );
      elements.add(element);
      ttfbs.push(Math.round(ttfb));
      htmlEnds.push(Math.round(htmlEnd));
      // Layout shifts not caused by input, summed over the load (CLS; "good" is at most 0.1).
      const cls = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let sum = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) sum += e.value;
            }).observe({ type: "layout-shift", buffered: true });
            setTimeout(() => resolve(sum), 200);
          }),
      );
      lcps.push(Math.round(lcp));
      shifts.push(Math.round(cls * 1000) / 1000);
      await context.close();
    }
    const sorted = [...lcps].sort((a, b) => a - b);
    const clsMax = Math.max(...shifts);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ttfbMedian = median(ttfbs);
    const htmlEndMedian = median(htmlEnds);
    results.push({
      page: path,
      lcp_ms: lcps,
      median_ms: sorted[Math.floor(sorted.length / 2)]!,
      ttfb_median_ms: ttfbMedian,
      html_end_median_ms: htmlEndMedian,
      lcp_elements: [...elements],
      cls_max: clsMax,
    });
    console.log(
      `${path.padEnd(34)} LCP median ${String(sorted[Math.floor(sorted.length / 2)]).padStart(5)} ms  (runs: ${lcps.join(", ")})  TTFB median ${ttfbMedian} ms  HTML end ${htmlEndMedian} ms  CLS max ${clsMax}  LCP element ${[...elements].join(" / ")}`,
    );
  }
  await browser.close();
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/lcp.json", JSON.stringify({ base, measured_at: new Date().toISOString(), runs: RUNS, results }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
