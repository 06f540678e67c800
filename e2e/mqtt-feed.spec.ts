import { connectAsync } from "mqtt";
import { expect, test, useSession } from "./fixtures";
import { runCli } from "./global-setup";

/**
 * An MQTT feed on the embedded database (docs/feeds.md "MQTT bridge"): the operator adds a bridge with
 * the admin CLI beside the running server, a Traccar position published on the machine's Mosquitto
 * reaches the tenant's fleet, a message that is not Traccar's is refused, and the tenant's manager sees
 * the feed, its state and its counts on the keys page. Removing it ends the broker's session.
 */
test("a Traccar position published on the broker reaches the fleet; the keys page shows the feed connected with its counts", async ({ page, request }) => {
  const { tenant_id } = await runCli(["tenant:create", "--name", "MQTT Fleet"]);
  const { key } = await runCli(["key:create", "--tenant", tenant_id!]);
  const email = `manager-${Date.now()}@mqtt-fleet.example`;
  await runCli(["user:create", "--tenant", tenant_id!, "--email", email, "--password", "mqtt-fleet-2026"]);
  const topic = `fdp-e2e/${Date.now().toString(36)}`;
  const { bridge_id } = await runCli([
    "mqtt:add",
    "--tenant",
    tenant_id!,
    "--broker",
    "mqtt://127.0.0.1:1883",
    "--topic",
    `${topic}/+`,
    "--format",
    "traccar",
    "--connections",
    "1",
  ]);

  const publisher = await connectAsync("mqtt://127.0.0.1:1883", { clean: true });
  try {
    // Published once the bridge is subscribed: the server takes it up at its next lease renewal (1 s here).
    await expect
      .poll(
        async () =>
          ((await (await request.get("/api/health")).json()) as { details: { mqtt_bridges: { id: string; state: string }[] } }).details.mqtt_bridges.find((b) => b.id === bridge_id)
            ?.state,
        { timeout: 15_000 },
      )
      .toBe("connected");
    const fixTime = new Date(Date.now() - 120_000).toISOString();
    await publisher.publishAsync(
      `${topic}/356307042441013`,
      JSON.stringify({
        position: { fixTime, valid: true, latitude: 60.1699, longitude: 24.9384, speed: 27, attributes: { ignition: true, odometer: 18250400 } },
        device: { uniqueId: "356307042441013", name: "Van 12", model: "Transit Custom", category: "van" },
      }),
      { qos: 1 },
    );
    await publisher.publishAsync(`${topic}/356307042441013`, JSON.stringify({ position: { fixTime }, device: {} }), { qos: 1 });

    await expect
      .poll(
        async () =>
          ((await (await request.get("/api/v1/fleet", { headers: { authorization: `Bearer ${key}` } })).json()) as { data: { device_id: string; vehicle_speed: number }[] }).data,
        { timeout: 15_000 },
      )
      .toEqual([expect.objectContaining({ device_id: "traccar-356307042441013", vehicle_speed: 50.004 })]);

    await useSession(page, email, "mqtt-fleet-2026");
    await page.goto("/dashboard/keys");
    const row = page.getByTestId("mqtt-feeds-table").locator(`tr[data-feed-id="${bridge_id}"]`);
    await expect(row).toContainText(`${topic}/+`);
    await expect(row).toContainText("Traccar positions");
    await expect(row.getByTestId("mqtt-feed-state")).toContainText("Connected");
    await expect
      .poll(
        async () => {
          await page.reload();
          return row.getByTestId("mqtt-feed-messages").textContent();
        },
        { timeout: 15_000 },
      )
      .toContain("1 stored, 1 refused");
    await expect(row.getByTestId("mqtt-feed-messages")).toContainText("device.uniqueId");
  } finally {
    await publisher.endAsync();
    expect(await runCli(["mqtt:remove", "--bridge", bridge_id!])).toEqual({ bridge_id, removed: true });
  }
});
