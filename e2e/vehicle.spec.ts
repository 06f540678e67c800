import AxeBuilder from "@axe-core/playwright";
import { SANDBOX_KEY } from "../lib/auth/key-format";
import { expect, screenshot, useSession, test } from "./fixtures";

/**
 * The vehicle page: every section of a sandbox BEV with content, its track and marker on the map;
 * the charging section of a sandbox ICE says it does not apply; axe finds nothing serious.
 */
const auth = { authorization: `Bearer ${SANDBOX_KEY}` };
const SECTIONS = [
  "Vehicle health",
  "Total Asset Score",
  "Battery",
  "Residual value",
  "Charging recommendation",
  "Mileage forecast",
  "Recent alerts",
  /^Track of the last \d+ days$/,
];

test("a BEV's page shows every section with content, and its track and marker on the map", async ({ page }) => {
  await useSession(page);
  const requestedAt = Date.now();
  const res = await page.goto("/dashboard/vehicles/sbx-001");
  expect(res?.status()).toBe(200);
  for (const name of SECTIONS) {
    const heading = page.getByRole("heading", { level: 2, name });
    await expect(heading).toBeVisible();
  }
  // Each section holds more than its heading, and none fell back to the failure notice.
  for (const id of ["health", "tas", "battery", "residual", "charging", "mileage", "alerts", "track"]) {
    const section = page.locator(`section[data-section="${id}"]`);
    expect((await section.innerText()).trim().split("\n").length, id).toBeGreaterThan(1);
  }
  await expect(page.locator('[data-note="failed"]')).toHaveCount(0);
  // The figures the API gives for the same vehicle are the ones on the page.
  const tas = (await (await page.request.get("/api/v1/tas/sbx-001", { headers: auth })).json()) as { tas_grade: string };
  await expect(page.locator('section[data-section="tas"]')).toContainText(`Grade ${tas.tas_grade}`);
  const health = (await (await page.request.get("/api/v1/scores/vehicle-health/sbx-001", { headers: auth })).json()) as { vehicle_health_score: number };
  await expect(page.locator('section[data-section="health"]')).toContainText(`${health.vehicle_health_score.toFixed(1)} / 100`);
  // The maintained scores and residual values say when they were computed: a time, in words and machine-readable,
  // before this request (kept, not computed for the view).
  for (const id of ["health", "tas", "battery", "residual"]) {
    const asOf = page.locator(`[data-as-of="${id}"]`);
    await expect(asOf).toContainText(/^as of \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} Helsinki time$/);
    const at = Date.parse((await asOf.locator("time").getAttribute("datetime"))!);
    expect(at, id).toBeLessThan(requestedAt);
  }
  // The pillars as labelled bars, each value written out; charts with their text alternative.
  await expect(page.getByRole("list", { name: "Pillar scores, each out of 100" }).getByRole("listitem")).toHaveCount(4);
  // One battery story: the SoH, the health component and the TAS pillar are said together.
  await expect(page.locator("[data-battery-story]")).toContainText(/battery component is \d+\.\d \/ 100 and the Total Asset Score's battery pillar \d+\.\d \/ 100/);
  // Each chart is drawn for the screen's width: one drawing visible, with its text alternative.
  await expect(page.locator('[data-chart="mileage"] svg[role="img"]:visible')).toHaveAttribute("aria-label", /forecast/);
  await expect(page.locator('[data-chart="spot-prices"] svg[role="img"]:visible')).toHaveAttribute("aria-label", /Deadline/);
  // Both residual value methods side by side.
  await expect(page.locator('[data-residual="rules"]')).toContainText("%");
  await expect(page.locator('[data-residual="model"]')).toContainText("interval");
  // The map: the track's polyline and the one marker.
  const map = page.locator("[data-fleet-map]");
  await expect(map).toHaveAttribute("data-map-ready", "true");
  await expect(page.locator('[data-fleet-map] [data-track-device-id="sbx-001"]')).toHaveCount(1);
  await expect(page.locator("[data-fleet-map] [data-device-id]")).toHaveCount(1);
  await expect(page.locator('[data-fleet-map] [data-device-id="sbx-001"]')).toHaveCount(1);
  await screenshot(page, "dashboard-vehicle-bev");
});

test("an ICE's page has no battery section and no state of charge, says charging does not apply, and the other sections stand", async ({ page }) => {
  await useSession(page);
  await page.goto("/dashboard/vehicles/sbx-041");
  await expect(page.locator("dl").first()).toContainText(/Powertrain\s*Combustion engine \(ICE\)/);
  await expect(page.locator('section[data-section="charging"]')).toContainText("Charging does not apply");
  await expect(page.locator('section[data-section="charging"] svg')).toHaveCount(0);
  // No traction battery: no battery section, no state of charge, and the battery figures of both scores say they do not apply.
  await expect(page.locator('section[data-section="battery"]')).toHaveCount(0);
  await expect(page.getByText("State of charge")).toHaveCount(0);
  await expect(page.locator('[data-score-bar="Traction battery"]')).toContainText("does not apply");
  await expect(page.locator('[data-score-bar="Battery health"]')).toContainText("does not apply");
  for (const name of SECTIONS.filter((n) => n !== "Battery")) await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  await expect(page.locator('[data-note="failed"]')).toHaveCount(0);
  await screenshot(page, "dashboard-vehicle-ice");
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`accessibility (axe): no serious or critical violations on a vehicle page at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await useSession(page);
    await page.goto("/dashboard/vehicles/sbx-001");
    await expect(page.locator("[data-fleet-map]")).toHaveAttribute("data-map-ready", "true");
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    // Nothing wider than the phone's screen (charts scale, the map fits).
    if (viewport.width < 400) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    if (viewport.width < 400) await screenshot(page, "dashboard-vehicle-phone");
  });
}

test("a knocked-out vehicle's page opens with the knockout, above every score", async ({ page }) => {
  await useSession(page);
  // The sandbox's clocked odometer, found as a partner would: the F grades of the TAS batch, then each one's knockouts.
  const fleet = (await (await page.request.get("/api/v1/fleet?limit=500", { headers: auth })).json()) as { data: { device_id: string }[] };
  const batch = (await (await page.request.post("/api/v1/tas/batch", { headers: auth, data: { device_ids: fleet.data.map((d) => d.device_id) } })).json()) as {
    results: { device_id: string; tas_grade: string | null }[];
  };
  let clocked: { device_id: string } | undefined;
  for (const r of batch.results.filter((x) => x.tas_grade === "F")) {
    const tas = (await (await page.request.get(`/api/v1/tas/${r.device_id}`, { headers: auth })).json()) as { knockout_flags: string[] };
    if (tas.knockout_flags.includes("odometer_manipulation")) clocked = r;
  }
  expect(clocked).toBeDefined();
  await page.goto(`/dashboard/vehicles/${clocked!.device_id}`);
  const banner = page.locator("[data-knockout-banner]");
  await expect(banner).toContainText("Knockout: odometer rolled back (manipulation).");
  await expect(banner).toContainText("The Total Asset Score is grade F because of it.");
  const bannerBox = (await banner.boundingBox())!;
  const healthBox = (await page.locator('section[data-section="health"]').boundingBox())!;
  expect(bannerBox.y).toBeLessThan(healthBox.y);
});

test("on a phone the charts are drawn for the phone: readable labels on round ticks", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await useSession(page);
  await page.goto("/dashboard/vehicles/sbx-001");
  for (const chart of ["mileage", "spot-prices"]) {
    const svg = page.locator(`[data-chart="${chart}"] svg[role="img"]:visible`);
    await expect(svg).toHaveCount(1);
    // Every label at least 9 px tall on the screen (a single desktop drawing shrank them to about 5 px).
    const heights = await svg.locator("text").evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
    expect(heights.length).toBeGreaterThan(3);
    expect(Math.min(...heights), chart).toBeGreaterThanOrEqual(9);
  }
  // The odometer axis steps by a round amount (1, 2 or 5 × a power of ten), not 38,350 / 99,108.
  const ticks = (await page.locator('[data-chart="mileage"] svg[role="img"]:visible text').allTextContents())
    .filter((t) => /^[\d,.]+k$/.test(t))
    .map((t) => Number(t.replace(/[,k]/g, "")) * 1000);
  expect(ticks.length).toBeGreaterThanOrEqual(2);
  const step = ticks[1]! - ticks[0]!;
  expect(ticks.every((t, i) => i === 0 || t - ticks[i - 1]! === step)).toBe(true);
  const magnitude = 10 ** Math.floor(Math.log10(step));
  expect([1, 2, 5, 10]).toContain(step / magnitude);
});
