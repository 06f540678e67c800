import AxeBuilder from "@axe-core/playwright";
import { SANDBOX_KEY } from "../lib/auth/key-format";
import { everyAlert } from "../tests/helpers/every-alert";
import { DEMO_EMAIL, expect, screenshot, useSession, test } from "./fixtures";

/**
 * The alerts page: filters, readable evidence, and "Acknowledge" (the dashboard's action, not the
 * API's): acknowledging a vehicle's open critical alerts lowers its alert level in GET /fleet.
 */
const auth = { authorization: `Bearer ${SANDBOX_KEY}` };

test("acknowledging a vehicle's critical alerts lowers its alert level in the fleet", async ({ page }) => {
  await useSession(page);
  const open = (await (await page.request.get("/api/v1/alerts?severity=CRITICAL&acknowledged=false&limit=200", { headers: auth })).json()) as {
    data: { id: string; device_id: string }[];
  };
  expect(open.data.length).toBeGreaterThan(0);
  const device = open.data[0]!.device_id;
  const ids = open.data.filter((a) => a.device_id === device).map((a) => a.id);
  const levelOf = async () => {
    const fleet = (await (await page.request.get("/api/v1/fleet?limit=500", { headers: auth })).json()) as { data: { device_id: string; alert_level: string }[] };
    return fleet.data.find((r) => r.device_id === device)!.alert_level;
  };
  expect(await levelOf()).toBe("critical");

  await page.goto("/dashboard/alerts?severity=CRITICAL&acknowledged=false");
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  // The evidence reads as labelled values, not raw JSON.
  const first = page.locator(`[data-alert-id="${ids[0]}"]`);
  await first.getByText("Evidence", { exact: true }).click();
  await expect(first.locator("dl dt").first()).toBeVisible();
  await screenshot(page, "dashboard-alerts");

  for (const id of ids) {
    const item = page.locator(`[data-alert-id="${id}"]`);
    await item.getByRole("button", { name: /^Acknowledge/ }).click();
    await expect(item).toHaveCount(0); // gone from the open list once the page re-renders
  }
  expect(await levelOf()).not.toBe("critical");

  // In the acknowledged list, with the reviewer's name; the API reports the same.
  await page.goto(`/dashboard/alerts?severity=CRITICAL&acknowledged=true`);
  await expect(page.locator(`[data-alert-id="${ids[0]}"]`)).toContainText(`Acknowledged by ${DEMO_EMAIL}`);
  const acked = (await (await page.request.get("/api/v1/alerts?severity=CRITICAL&acknowledged=true&limit=200", { headers: auth })).json()) as {
    data: { id: string; acknowledged_by: string | null; acknowledged_at: string | null }[];
  };
  const mine = acked.data.find((a) => a.id === ids[0])!;
  expect(mine.acknowledged_by).toBe(DEMO_EMAIL);
  expect(mine.acknowledged_at).not.toBeNull();
});

test("the filters narrow the list; a filter value the API would refuse is ignored with a message", async ({ page }) => {
  await useSession(page);
  await page.goto("/dashboard/alerts");
  await page.getByLabel("Severity", { exact: true }).selectOption("INFO");
  await page.getByLabel("State", { exact: true }).selectOption("");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/severity=INFO/);
  const severities = await page.locator("[data-testid=alert-list] li span.rounded-full").allTextContents();
  expect(severities.length).toBeGreaterThan(0);
  expect(new Set(severities)).toEqual(new Set(["INFO"]));
  // A filter value the API would refuse is ignored with a message, not a 500.
  const res = await page.goto("/dashboard/alerts?severity=LOUD");
  expect(res?.status()).toBe(200);
  await expect(page.getByText("Unknown filter values were ignored.")).toBeVisible();
});

test("accessibility (axe): no serious or critical violations on /dashboard/alerts", async ({ page }) => {
  await useSession(page);
  await page.goto("/dashboard/alerts?acknowledged=");
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  await page.locator("[data-alert-id] summary").first().click();
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
});

test("repeats of one problem on one vehicle are one group, named by the vehicle", async ({ page }) => {
  await useSession(page);
  const all = await everyAlert(
    async (query) =>
      (await (await page.request.get(query, { headers: auth })).json()) as {
        count: number;
        data: { id: string; device_id: string; agent: string; severity: string; acknowledged: boolean; created_at: string }[];
      },
  );
  await page.goto("/dashboard/alerts?acknowledged=");
  const groups = page.locator("[data-alert-group]");
  // Every alert is on the page once, and each group holds one vehicle's alerts of one check and severity.
  const expected = new Map<string, number>();
  for (const a of all)
    expected.set(`${a.device_id} ${a.agent} ${a.severity} ${a.acknowledged}`, (expected.get(`${a.device_id} ${a.agent} ${a.severity} ${a.acknowledged}`) ?? 0) + 1);
  await expect(groups).toHaveCount(expected.size);
  const sizes = (await groups.evaluateAll((gs) => gs.map((g) => Number(g.getAttribute("data-alert-group"))))).sort((x, y) => y - x);
  expect(sizes).toEqual([...expected.values()].sort((x, y) => y - x));
  expect(sizes[0]).toBeGreaterThan(1);
  // The largest group says how many repeats it folds, and names the vehicle rather than its id alone.
  const largest = page.locator(`[data-alert-group="${sizes[0]}"]`).first();
  await expect(largest.getByTestId("alert-repeats").locator(":scope > summary")).toHaveText(new RegExp(`^${sizes[0]! - 1} earlier alerts? like this on the same vehicle$`));
  const device = await largest.locator("[data-device-id-ref]").first().getAttribute("data-device-id-ref");
  const fleet = (await (await page.request.get(`/api/v1/fleet?limit=500`, { headers: auth })).json()) as { data: { device_id: string; device_name: string }[] };
  await expect(largest.getByRole("link").first()).toHaveText(fleet.data.find((d) => d.device_id === device)!.device_name);
});
