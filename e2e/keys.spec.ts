import { createHmac } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext } from "@playwright/test";
import { DEMO_EMAIL, expect, screenshot, useSession, test } from "./fixtures";

/**
 * The keys page (issue 11, "Must show"): create a key with a name and one scope, read it once from
 * data-testid="new-api-key", call the API with it (200 in scope, 403 outside), revoke it through the
 * confirmation step and see the API refuse it within the CLI's 5 seconds; the audit log shows each change.
 */
test("create a key, use it, revoke it and see it refused; the audit log records both", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await useSession(page);
  await page.goto("/dashboard/keys");
  await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();

  const name = `e2e fleet reader ${Date.now()}`;
  await page.getByLabel("Name").fill(name);
  // No scope starts ticked, and a key without one is refused in words.
  const scopes = page.getByRole("group", { name: "Scopes" }).getByRole("checkbox");
  for (const box of await scopes.all()) await expect(box).not.toBeChecked();
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.locator("#create-key-error")).toContainText("Choose at least one scope");
  await page.getByLabel("Name").fill(name);
  await page.getByRole("checkbox", { name: /^fleet:read/ }).check();
  await page.getByRole("button", { name: "Create key" }).click();

  const shown = page.getByTestId("new-api-key");
  await expect(shown).toHaveText(/^fdp_live_[0-9A-Za-z]{32,}$/);
  const key = (await shown.textContent())!.trim();

  // The copy button puts exactly the key on the clipboard and says so.
  await page.getByRole("button", { name: "Copy the new API key" }).click();
  await expect(page.getByRole("button", { name: "Copy the new API key" })).toHaveText(/Copied/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  // The list shows it, by name and display prefix, with its one scope, never in full.
  const row = page.getByTestId("api-keys-table").getByRole("row").filter({ hasText: name });
  await expect(row).toHaveAttribute("data-key-status", "active");
  await expect(row).toContainText(key.slice(0, 13));
  await expect(row).toContainText("fleet:read");
  await expect(page.getByTestId("api-keys-table")).not.toContainText(key);

  const auth = { authorization: `Bearer ${key}` };
  expect((await page.request.get("/api/v1/fleet", { headers: auth })).status()).toBe(200);
  const outside = await page.request.get("/api/v1/scores/fleet-risk", { headers: auth });
  expect(outside.status()).toBe(403);
  expect(((await outside.json()) as { error: string }).error).toBe("forbidden");

  // Revoke: the first button only opens the confirmation; Cancel (or Escape) leaves the key alone.
  await row.getByRole("button", { name: /^Revoke / }).click();
  const confirm = row.getByRole("group", { name: /Confirm revoking/ });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole("button", { name: "Revoke key" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(row).toHaveAttribute("data-key-status", "active");
  await screenshot(page, "dashboard-keys-created");

  await row.getByRole("button", { name: /^Revoke / }).click();
  await row
    .getByRole("group", { name: /Confirm revoking/ })
    .getByRole("button", { name: "Revoke key" })
    .click();
  await expect(row).toHaveAttribute("data-key-status", "revoked");
  await expect(row).toContainText("Revoked");
  // The one-time panel goes with the key: no revoked secret left on the page with a Copy button.
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Copy the new API key" })).toHaveCount(0);
  await expect(page.getByTestId("new-api-key-revoked")).toContainText(`“${name}” you just created is revoked`);

  // The API refuses it within 5 seconds (CONTRACT, key:revoke): poll for up to 6.
  const deadline = Date.now() + 6_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = (await page.request.get("/api/v1/fleet", { headers: auth })).status();
    if (status === 401) break;
    await page.waitForTimeout(250);
  }
  expect(status).toBe(401);

  // The audit log: who, what, which key (never the key itself).
  const log = page.getByTestId("audit-log");
  const created = log.locator('tr[data-audit-action="api_key.created"]').filter({ hasText: name });
  const revoked = log.locator('tr[data-audit-action="api_key.revoked"]').filter({ hasText: name });
  await expect(created).toHaveCount(1);
  await expect(revoked).toHaveCount(1);
  await expect(created).toContainText(DEMO_EMAIL);
  await expect(revoked).toContainText(DEMO_EMAIL);
  await expect(log).not.toContainText(key);

  // Reloaded, the key is not shown again.
  await page.reload();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  await screenshot(page, "dashboard-keys");
});

test("the ingest secret is revealed on request only, and the reveal is logged", async ({ page }) => {
  await useSession(page);
  await page.goto("/dashboard/keys");
  await expect(page.getByTestId("ingest-secret")).toHaveCount(0);
  const before = await page
    .getByTestId("audit-log")
    .locator('tr[data-audit-action="ingest_secret.revealed"]')
    .count()
    .catch(() => 0);
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByTestId("ingest-secret")).not.toBeEmpty();
  // The sandbox's secret is public: no rotation, and the switch cannot be turned.
  await expect(page.getByRole("button", { name: /^Rotate/ })).toHaveCount(0);
  await expect(page.getByRole("switch", { name: "Require signed ingest" })).toBeDisabled();
  await expect(page.getByTestId("audit-log").locator('tr[data-audit-action="ingest_secret.revealed"]')).toHaveCount(before + 1);
});

test("another tenant's manager rotates the ingest secret and requires signatures; ingest follows at once", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const email = process.env.FDP_E2E_OTHER_EMAIL!;
  await useSession(page, email, process.env.FDP_E2E_OTHER_PASSWORD);
  await page.goto("/dashboard/keys");
  // A key with every scope, for ingest.
  await page.getByLabel("Name").fill("e2e ingest");
  for (const box of await page.getByRole("group", { name: "Scopes" }).getByRole("checkbox").all()) await box.check();
  await page.getByRole("button", { name: "Create key" }).click();
  const key = (await page.getByTestId("new-api-key").textContent())!.trim();

  const ingest = (request: APIRequestContext, secret: string | null) => {
    const body = JSON.stringify({ vehicles: [{ vin: "WE2EOTHER00000001", timestamp: new Date(Date.now() - 1000).toISOString(), speed_kmh: 0, soc_percent: 63 }] });
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    if (secret) headers["x-fdp-signature"] = `sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex")}`;
    return request.post("/api/v1/oem/ingest", { headers, data: body });
  };
  const pollStatus = async (secret: string | null, want: number) => {
    const deadline = Date.now() + 6_000;
    let status = 0;
    while (Date.now() < deadline && status !== want) {
      status = (await ingest(page.request, secret)).status();
      if (status !== want) await page.waitForTimeout(250);
    }
    return status;
  };

  await page.getByRole("button", { name: "Reveal secret" }).click();
  const old = (await page.getByTestId("ingest-secret").textContent())!.trim();
  expect((await ingest(page.request, old)).status()).toBe(200);

  await page.getByRole("button", { name: "Rotate…" }).click();
  await page.getByRole("group", { name: "Confirm rotating the ingest secret" }).getByRole("button", { name: "Rotate secret" }).click();
  await expect(page.getByTestId("ingest-secret")).not.toHaveText(old);
  const fresh = (await page.getByTestId("ingest-secret").textContent())!.trim();
  expect(fresh).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
  const refused = await ingest(page.request, old);
  expect(refused.status()).toBe(401);
  expect(((await refused.json()) as { error: string }).error).toBe("invalid_signature");
  expect((await ingest(page.request, fresh)).status()).toBe(200);

  const toggle = page.getByRole("switch", { name: "Require signed ingest" });
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  expect(await pollStatus(null, 401)).toBe(401);
  expect((await ingest(page.request, fresh)).status()).toBe(200);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "false");
  expect(await pollStatus(null, 200)).toBe(200);

  const log = page.getByTestId("audit-log");
  for (const action of ["api_key.created", "ingest_secret.revealed", "ingest_secret.rotated"]) {
    await expect(log.locator(`tr[data-audit-action="${action}"]`)).toHaveCount(1);
  }
  await expect(log.locator('tr[data-audit-action="signed_ingest.required_changed"]')).toHaveCount(2);
  await expect(log).toContainText(email);
  await expect(log).not.toContainText(fresh);
  await expect(log).not.toContainText(old);
  // The sandbox's demo user sees none of it.
  await expect(log).not.toContainText(DEMO_EMAIL);
  await screenshot(page, "dashboard-keys-ingest");
});

test("signed out, /dashboard/keys redirects to /login", async ({ page }) => {
  await page.goto("/dashboard/keys");
  await expect(page).toHaveURL(/\/login$/);
});

test.describe("accessibility (axe): no serious or critical violations", () => {
  const blocking = (violations: { impact?: string | null; id: string }[]) => violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}`);

  test("/dashboard/keys", async ({ page }) => {
    await useSession(page);
    await page.goto("/dashboard/keys");
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    expect(blocking((await new AxeBuilder({ page }).analyze()).violations)).toEqual([]);
    // With a confirmation open as well.
    const revoke = page.getByRole("button", { name: /^Revoke / }).first();
    if (await revoke.count()) {
      await revoke.click();
      expect(blocking((await new AxeBuilder({ page }).analyze()).violations)).toEqual([]);
    }
  });

  test("/dashboard/keys at phone width", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await useSession(page);
    await page.goto("/dashboard/keys");
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    expect(blocking((await new AxeBuilder({ page }).analyze()).violations)).toEqual([]);
    // Nothing wider than the screen but the tables' own scrolling frames.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "dashboard-keys-phone");
  });
});
