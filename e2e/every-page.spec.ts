import type { Page } from "@playwright/test";
import { SANDBOX_KEY } from "../lib/auth/key-format";
import { expect, screenshot, useSession, test } from "./fixtures";

/**
 * Every page a fleet manager or an auditor opens, at a desktop and a phone width (issue 30): no
 * console error (a hydration mismatch included), no failed request (a favicon 404 included), nothing
 * wider than the screen, and no developer words or broken numbers in what the page says. Each page's
 * screenshot is kept (e2e/screenshots/every-page-<name>-<width>.png).
 */
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** Texts no page may show: a number gone wrong, or words meant for developers. */
const BROKEN_TEXT: readonly [RegExp, string][] = [
  [/\bNaN\b/, "NaN"],
  [/\bundefined\b/, "undefined"],
  [/\bInfinity\b/, "Infinity"],
  [/\[object Object\]/, "[object Object]"],
  [/\bnpm run\b/, "a repository command (npm run)"],
  [/\b[a-z]+(?:_[a-z0-9]+)+\b/, "a raw key (snake_case)"],
];

interface Visit {
  name: string;
  path: string;
  signedIn: boolean;
  /** What must be on the page once it is fully there. */
  ready: (page: Page) => Promise<void>;
}

async function mapReady(page: Page): Promise<void> {
  await expect(page.locator("[data-fleet-map]")).toHaveAttribute("data-map-ready", "true");
}

async function headingReady(page: Page): Promise<void> {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
}

/** A certificate for the verify page, generated through the API as a partner would. */
async function certificateNumber(page: Page): Promise<string> {
  const res = await page.request.post("/api/v1/certificates/generate/sbx-004", { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { certificate_number: string }).certificate_number;
}

const PAGES: readonly Visit[] = [
  { name: "login", path: "/login", signedIn: false, ready: headingReady },
  { name: "fleet", path: "/dashboard", signedIn: true, ready: mapReady },
  { name: "vehicle-bev", path: "/dashboard/vehicles/sbx-001", signedIn: true, ready: mapReady },
  { name: "vehicle-phev", path: "/dashboard/vehicles/sbx-022", signedIn: true, ready: mapReady },
  { name: "vehicle-ice", path: "/dashboard/vehicles/sbx-034", signedIn: true, ready: mapReady },
  { name: "vehicle-rolled-back", path: "/dashboard/vehicles/sbx-033", signedIn: true, ready: mapReady },
  { name: "alerts", path: "/dashboard/alerts", signedIn: true, ready: headingReady },
  { name: "keys", path: "/dashboard/keys", signedIn: true, ready: headingReady },
  { name: "certificates", path: "/dashboard/certificates", signedIn: true, ready: headingReady },
  { name: "reports", path: "/dashboard/reports", signedIn: true, ready: headingReady },
  { name: "verify", path: "/verify/{certificate}", signedIn: false, ready: headingReady },
];

for (const viewport of VIEWPORTS) {
  for (const visit of PAGES) {
    test(`${visit.name} at ${viewport.width} px: no console error, no failed request, no overflow, no broken or developer text`, async ({ page }) => {
      await page.setViewportSize(viewport);
      if (visit.signedIn) {
        await useSession(page);
      }
      const path = visit.path.replace("{certificate}", visit.path.includes("{certificate}") ? await certificateNumber(page) : "");
      const problems: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(`console error: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      // A request the browser itself cancelled (a prefetch made moot by the next navigation) is not a failure.
      page.on("requestfailed", (r) => {
        if (r.failure()?.errorText !== "net::ERR_ABORTED") problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? "?"})`);
      });
      page.on("response", (r) => {
        if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
      });

      const res = await page.goto(path);
      expect(res?.status()).toBe(200);
      await visit.ready(page);
      await page.waitForLoadState("networkidle");

      const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect(width.scroll, `the page is ${width.scroll} px wide on a ${width.client} px screen`).toBeLessThanOrEqual(width.client);

      // Everything a reader can unfold is read too (evidence, limitations, grouped alerts), except the raw JSON kept for specialists.
      await page.locator("details:not([data-raw])").evaluateAll((ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
      const text = await page.locator("body").innerText();
      const found = BROKEN_TEXT.flatMap(([re, what]) => {
        const m = re.exec(text);
        return m ? [`${what}: “…${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 40)}…”`] : [];
      });
      expect(found).toEqual([]);
      expect(problems).toEqual([]);
      await screenshot(page, `every-page-${visit.name}-${viewport.width}`);
    });
  }
}
