import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { expect, useSession, test } from "./fixtures";

/**
 * The keys page's webhooks section (issue 31): another tenant's manager registers a webhook to a
 * receiver on 127.0.0.1 (the e2e server allows loopback), reads its signing secret once, sees a
 * vehicle's first ingest delivered (verified by the Standard Webhooks library) and the row say so,
 * sends the events again, and deletes it; the audit log records each step. The sandbox's demo user is
 * told why the sandbox cannot register one.
 */
test("register a webhook, see a delivery arrive signed and listed, send again, delete; the audit log records it", async ({ page, request }) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/fdp`;
  try {
    await useSession(page, process.env.FDP_E2E_OTHER_EMAIL, process.env.FDP_E2E_OTHER_PASSWORD);
    await page.goto("/dashboard/keys");

    // No event ticked: refused in words.
    await page.getByLabel("URL").fill(url);
    await page.getByRole("button", { name: "Register webhook" }).click();
    await expect(page.locator("#create-webhook-error")).toContainText("Choose at least one event");
    // A private address: refused in words, nothing registered.
    await page.getByLabel("URL").fill("https://10.1.2.3/hook");
    await page.getByRole("checkbox", { name: /^device\.created/ }).check();
    await page.getByRole("button", { name: "Register webhook" }).click();
    await expect(page.locator("#create-webhook-error")).toContainText("private address");

    await page.getByLabel("URL").fill(url);
    await page.getByRole("checkbox", { name: /^device\.created/ }).check();
    await page.getByLabel(/^Note/).fill("e2e receiver");
    await page.getByRole("button", { name: "Register webhook" }).click();
    const secret = (await page.getByTestId("new-webhook-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const row = page.getByTestId("webhooks-table").getByRole("row").filter({ hasText: url });
    await expect(row).toContainText("nothing sent yet");

    // A new vehicle through the API: its device.created reaches the receiver, signed.
    await page.getByLabel("Name").fill("e2e webhook ingest");
    await page.getByRole("checkbox", { name: /^ingest:write/ }).check();
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.getByTestId("new-api-key").textContent())!.trim();
    const vin = `WE2EHOOK${String(Date.now()).slice(-9)}`;
    const ingest = await request.post("/api/v1/oem/ingest", {
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      data: JSON.stringify({ vehicles: [{ vin, timestamp: new Date(Date.now() - 1000).toISOString(), speed_kmh: 0 }] }),
    });
    expect(ingest.status()).toBe(200);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    const payload = new Webhook(secret).verify(received[0]!.body, received[0]!.headers as Record<string, string>);
    expect(payload).toMatchObject({ type: "device.created", data: { device_id: `oem-${vin}` } });

    await expect
      .poll(
        async () => {
          await page.reload();
          return row.getByTestId("webhook-last-delivery").textContent();
        },
        { timeout: 15_000 },
      )
      .toContain("Delivered");

    // Send the last hour again: this vehicle's event with its own webhook-id, and the tenant's other
    // device.created of that hour (global-setup's vehicle, from before the webhook existed).
    await row.getByLabel("Period to send again").selectOption("1");
    await row.getByRole("button", { name: "Send again" }).click();
    await expect(row.getByRole("status")).toContainText(/^\d+ events? queued to be sent again\.$/);
    const queued = Number((await row.getByRole("status").textContent())!.match(/^\d+/)![0]);
    expect(queued).toBeGreaterThanOrEqual(1);
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1 + queued);
    expect(received.slice(1).map((r) => r.headers["webhook-id"])).toContain(received[0]!.headers["webhook-id"]);

    await row.getByRole("button", { name: `Delete the webhook to ${url}` }).click();
    await expect(page.getByTestId("webhooks-table").getByRole("row").filter({ hasText: url })).toHaveCount(0);
    await expect(page.getByTestId("new-webhook-secret")).toHaveCount(0);
    const log = page.locator("section[aria-labelledby=audit-title]");
    for (const what of ["Webhook registered", "Webhook events sent again", "Webhook deleted"]) await expect(log).toContainText(what);
    await expect(log).not.toContainText(secret.slice(6, 20));
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

test("the sandbox's demo user is told the sandbox cannot register webhooks", async ({ page }) => {
  await useSession(page);
  await page.goto("/dashboard/keys");
  await expect(page.locator("section[aria-labelledby=webhooks-title]")).toContainText("The sandbox cannot register webhooks");
  await expect(page.getByRole("button", { name: "Register webhook" })).toHaveCount(0);
});
