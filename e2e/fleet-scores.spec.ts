import { SANDBOX_KEY } from "../lib/auth/key-format";
import { expect, screenshot, signIn, test } from "./fixtures";

/** The fleet page's headline cards: the same figures as GET /scores/fleet-risk and /scores/green-fleet for the chosen period. */
const auth = { authorization: `Bearer ${SANDBOX_KEY}` };
const one = (x: number) => x.toFixed(1);

test("fleet risk and green fleet cards match the API, and follow the period selector", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const period of ["30d", "7d"]) {
    if (period !== "30d") {
      await page.getByLabel("Score period", { exact: true }).selectOption(period);
      await page.getByRole("button", { name: "Update scores" }).click();
      await expect(page).toHaveURL(new RegExp(`period=${period}`));
    }
    const risk = (await (await page.request.get(`/api/v1/scores/fleet-risk?period=${period}`, { headers: auth })).json()) as { fleet_risk_score: number; period_days: number };
    const green = (await (await page.request.get(`/api/v1/scores/green-fleet?period=${period}`, { headers: auth })).json()) as { green_fleet_score: number };
    const riskCard = page.locator('[data-score-card="fleet-risk"]');
    const greenCard = page.locator('[data-score-card="green-fleet"]');
    await expect(riskCard.locator("[data-score]")).toHaveText(one(risk.fleet_risk_score));
    await expect(greenCard.locator("[data-score]")).toHaveText(one(green.green_fleet_score));
    await expect(riskCard).toContainText(`last ${risk.period_days} days`);
    await expect(riskCard).toContainText("Event severity");
    await expect(greenCard).toContainText("EV share");
  }
  await screenshot(page, "dashboard-fleet-scores");
  // A period the API would refuse falls back to 30 days with a message, never a 500.
  const res = await page.goto("/dashboard?period=0d");
  expect(res?.status()).toBe(200);
  await expect(page.getByText("That period is not valid")).toBeVisible();
});
