/**
 * Largest contentful paint and cumulative layout shift of the dashboard's main pages on a running
 * build, in Debian's Chromium (the figures the issue asks for in the closing note; not a test: timings
 * never gate anything).
 *
 *   npm run build && PORT=3400 npm start   # another terminal (embedded database with the demo user)
 *   npx tsx bench/measure-lcp.ts http://localhost:3400
 *
 * Each page is loaded three times in a fresh context (signed in as the demo user); the median LCP of
 * the three is printed with the page's transfer size, and all runs are written to bench/results/lcp.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { chromium } from "@playwright/test";

const base = (process.argv[2] ?? "http://localhost:3000").replace(/\/$/, "");
const PAGES = ["/login", "/dashboard", "/dashboard/vehicles/sbx-001", "/dashboard/alerts", "/dashboard/keys", "/dashboard/certificates", "/dashboard/reports", "/docs"];
const RUNS = 3;

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const results: { page: string; lcp_ms: number[]; median_ms: number; cls_max: number }[] = [];
  for (const path of PAGES) {
    const lcps: number[] = [];
    const shifts: number[] = [];
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
      const lcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let last = 0;
            new PerformanceObserver((list) => {
              for (const e of list.getEntries()) last = e.startTime;
            }).observe({ type: "largest-contentful-paint", buffered: true });
            setTimeout(() => resolve(last), 200);
          }),
      );
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
    results.push({ page: path, lcp_ms: lcps, median_ms: sorted[Math.floor(sorted.length / 2)]!, cls_max: clsMax });
    console.log(`${path.padEnd(34)} LCP median ${String(sorted[1]).padStart(5)} ms  (runs: ${lcps.join(", ")})  CLS max ${clsMax}`);
  }
  await browser.close();
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/lcp.json", JSON.stringify({ base, measured_at: new Date().toISOString(), runs: RUNS, results }, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
