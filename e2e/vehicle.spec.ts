import AxeBuilder from "@axe-core/playwright";
import { SANDBOX_KEY } from "../lib/auth/key-format";
import { expect, screenshot, signIn, test } from "./fixtures";

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
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
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
  // Charts with their text alternative.
  await expect(page.locator('svg[data-chart="tas-pillars"][role="img"]')).toHaveAttribute("aria-label", /Pillar scores/);
  await expect(page.locator('svg[data-chart="mileage"][role="img"]')).toHaveAttribute("aria-label", /forecast/);
  await expect(page.locator('svg[data-chart="spot-prices"][role="img"]')).toHaveAttribute("aria-label", /Deadline/);
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

test("an ICE's page says charging does not apply, and the other sections stand", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/dashboard/vehicles/sbx-041");
  await expect(page.locator("dl").first()).toContainText(/Powertrain\s*ICE/);
  await expect(page.locator('section[data-section="charging"]')).toContainText("Charging does not apply");
  await expect(page.locator('section[data-section="charging"] svg')).toHaveCount(0);
  for (const name of SECTIONS) await expect(page.getByRole("heading", { level: 2, name })).toBeVisible();
  await expect(page.locator('[data-note="failed"]')).toHaveCount(0);
  await screenshot(page, "dashboard-vehicle-ice");
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`accessibility (axe): no serious or critical violations on a vehicle page at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/dashboard/vehicles/sbx-001");
    await expect(page.locator("[data-fleet-map]")).toHaveAttribute("data-map-ready", "true");
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    // Nothing wider than the phone's screen (charts scale, the map fits).
    if (viewport.width < 400) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    if (viewport.width < 400) await screenshot(page, "dashboard-vehicle-phone");
  });
}
