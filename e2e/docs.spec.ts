import AxeBuilder from "@axe-core/playwright";
import { SANDBOX_KEY } from "../lib/auth/key-format";
import { expect, screenshot, test } from "./fixtures";

/**
 * /docs: Scalar's API reference of /api/v1/openapi.json, from the app's own assets. It renders the
 * operations, "try it" reaches this server with the sandbox key, and no request leaves the origin.
 */
test("the API reference renders the operations and 'try it' calls this server with the sandbox key", async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on("request", (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith("data:") && !url.startsWith("blob:")) foreign.push(url);
  });
  await page.goto("/docs");
  await expect(page).toHaveTitle("API reference — FDP");
  await expect(page.getByText("Fleet snapshot", { exact: false }).first()).toBeVisible({ timeout: 20_000 });

  await page.goto("/docs#tag/fleet/GET/fleet");
  await page
    .getByRole("button", { name: /Test Request/i })
    .first()
    .click();
  const response = page.waitForResponse((r) => r.url().startsWith(`${origin}/api/v1/fleet`) && r.request().method() === "GET");
  await page.getByRole("button", { name: /^Send/ }).first().click();
  const answered = await response;
  expect(answered.status()).toBe(200);
  expect(answered.request().headers().authorization).toBe(`Bearer ${SANDBOX_KEY}`);
  await expect(page.getByText("200", { exact: false }).first()).toBeVisible();
  await screenshot(page, "docs-try-it");
  expect(foreign).toEqual([]);
});

test("accessibility (axe): no serious or critical violations on /docs", async ({ page }) => {
  await page.goto("/docs");
  await expect(page.getByText("Fleet snapshot", { exact: false }).first()).toBeVisible({ timeout: 20_000 });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target.join(" ")}`);
  expect(blocking).toEqual([]);
});
