import AxeBuilder from "@axe-core/playwright";
import { SANDBOX_KEY } from "../lib/auth/key-format";
import { DEMO_EMAIL, expect, screenshot, signIn, useSession, test } from "./fixtures";

test.describe("signed out", () => {
  test("every dashboard page redirects to /login", async ({ page }) => {
    for (const path of ["/dashboard", "/dashboard/vehicles/sbx-001"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    }
    await screenshot(page, "login");
  });
});

test("the demo user signs in and sees the sandbox fleet table", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: "Fleet" })).toBeVisible();
  await expect(page.getByText(DEMO_EMAIL)).toBeVisible();
  const table = page.getByTestId("fleet-table");
  for (const column of ["Device", "Name", "Status", "Alert level", "Powertrain", "SOC"]) {
    await expect(table.getByRole("columnheader", { name: column })).toBeVisible();
  }
  // The same rows as the API's own fleet answer for the sandbox key.
  const api = await page.request.get("/api/v1/fleet?limit=500", { headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
  const fleet = (await api.json()) as { data: { device_id: string; device_name: string }[] };
  expect(fleet.data.length).toBeGreaterThan(0);
  await expect(table.locator("tbody tr")).toHaveCount(fleet.data.length);
  const first = fleet.data[0]!;
  await expect(table.locator(`tr[data-device-row="${first.device_id}"]`)).toContainText(first.device_name);
  // The map: one marker element per vehicle with a known position (CONTRACT "Dashboard"), clustered or not.
  const map = page.locator("[data-fleet-map]");
  await expect(map).toHaveAttribute("data-map-ready", "true", { timeout: 20_000 });
  const placed = ((await api.json()) as { data: { lat: number | null; lon: number | null }[] }).data.filter((v) => v.lat !== null && v.lon !== null).length;
  expect(placed).toBeGreaterThan(0);
  await expect(map.locator("[data-device-id]")).toHaveCount(placed);
  await screenshot(page, "dashboard-fleet");

  // The vehicle page of one of the tenant's own vehicles.
  await table.getByRole("link", { name: first.device_id }).click();
  await expect(page.getByRole("heading", { level: 1, name: first.device_name })).toBeVisible();
  await screenshot(page, "dashboard-vehicle");
});

test("a wrong password shows an error on the sign-in page", async ({ page }) => {
  await signIn(page, DEMO_EMAIL, "not-the-password");
  await expect(page.locator("form").getByRole("alert")).toHaveText("The email address or the password is wrong.");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("Email")).toHaveValue(DEMO_EMAIL);
  await screenshot(page, "login-failed");
});

test("sign-in attempts over the limit get the 429 page", async ({ page }) => {
  const limit = Number(process.env.FDP_E2E_SIGN_IN_LIMIT);
  for (let i = 0; i < limit; i++) {
    await signIn(page, DEMO_EMAIL, `wrong-password-${i}`);
    await expect(page.locator("form").getByRole("alert")).toBeVisible();
  }
  const refusal = page.waitForResponse((r) => r.url().includes("/login/too-many-attempts") && r.request().resourceType() === "document");
  await signIn(page); // even the right password: the address is over its limit
  expect((await refusal).status()).toBe(429);
  await expect(page.getByRole("heading", { level: 1, name: "Too many sign-in attempts" })).toBeVisible();
  await screenshot(page, "login-429");

  // next-auth's own credentials endpoint counts in the same budget and answers in the API envelope.
  const direct = await page.request.post("/api/auth/callback/credentials", { form: { email: DEMO_EMAIL, password: "x" } });
  expect(direct.status()).toBe(429);
  expect(direct.headers()["x-request-id"]).toBeTruthy();
  expect(direct.headers()["retry-after"]).toMatch(/^\d+$/);
  expect(((await direct.json()) as { error: string }).error).toBe("rate_limited");
});

test("sign-out ends the session", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login$/);
});

test("another tenant's vehicle is a 404 page", async ({ page }) => {
  const foreign = process.env.FDP_E2E_FOREIGN_DEVICE!;
  await useSession(page);
  const answer = await page.goto(`/dashboard/vehicles/${encodeURIComponent(foreign)}`);
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
  await expect(page.getByText(foreign)).toHaveCount(0);
  await screenshot(page, "dashboard-404");
});

test("/api/auth answers carry X-Request-Id, and its errors the API envelope", async ({ request }) => {
  const session = await request.get("/api/auth/session");
  expect(session.status()).toBe(200);
  expect(session.headers()["x-request-id"]).toMatch(/^req_/);
  const unknown = await request.get("/api/auth/no-such-action");
  expect(unknown.status()).toBeGreaterThanOrEqual(400);
  expect(unknown.status()).toBeLessThan(500);
  const body = (await unknown.json()) as { error: string; message: string; request_id: string };
  expect(body.request_id).toBe(unknown.headers()["x-request-id"]);
  expect(JSON.stringify(body)).not.toMatch(/\bat .+\.js:\d+/);
});

test.describe("accessibility (axe): no serious or critical violations", () => {
  const blocking = (violations: { impact?: string | null; id: string }[]) => violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);

  test("/login", async ({ page }) => {
    await page.goto("/login");
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(blocking(violations)).toEqual([]);
  });

  test("/dashboard", async ({ page }) => {
    await useSession(page);
    await page.goto("/dashboard");
    await expect(page.getByTestId("fleet-table")).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(blocking(violations)).toEqual([]);
  });

  test("/dashboard at phone width", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await useSession(page);
    await page.goto("/dashboard");
    await expect(page.getByTestId("fleet-table")).toBeVisible();
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(blocking(violations)).toEqual([]);
    await screenshot(page, "dashboard-fleet-phone");
  });
});
