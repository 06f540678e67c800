import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { rows } from "@/lib/db/sql-values";
import { alerts, devices, telemetry } from "@/lib/db/schema";
import { lifecycleTarget } from "@/lib/alerts/alert-lifecycle";
import { runDetectors } from "@/lib/detectors";
import { isAwakeRecord } from "@/lib/detectors/common";
import type { DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { confirmedOdometerMax } from "@/lib/ingest/normalize-records";
import { FEED_BATCH_MS } from "@/lib/seed/replay-feed";
import type { Severity } from "@/lib/vocabulary/alerts";
import { normalisePowertrain } from "@/lib/vocabulary/powertrain";
import { SETTLE_MS } from "@/lib/vocabulary/readings";
import { createSandboxDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The sandbox's alerts are the real detectors' (no second engine): seed a fresh database, then run
 * `runDetectors` directly over the telemetry the seed stored, batch by batch as it was delivered (one
 * batch per device and UTC hour, arriving at its rows' `received_at`), with a context rebuilt here
 * from the stored rows, and the alert lifecycle applied with the stored acknowledgement times. The
 * result must be the stored alerts, agent by agent.
 */

let tdb: TestDatabase;

beforeAll(async () => {
  tdb = await createSandboxDatabase();
}, 180_000);

afterAll(async () => {
  await tdb?.dispose();
});

type Row = typeof telemetry.$inferSelect;

function recordOf(r: Row, vin: string): TelemetryRecord {
  return {
    deviceId: r.deviceId,
    vin,
    ts: r.ts,
    odometerKm: r.odometerKm,
    socPct: r.socPct,
    sohPct: r.sohPct,
    batteryVoltage: r.batteryVoltage,
    chargingStatus: r.chargingStatus,
    chargingPowerKw: r.chargingPowerKw,
    lat: r.lat,
    lon: r.lon,
    speedKmh: r.speedKmh,
    fuelLevelPct: r.fuelLevelPct,
    engineHours: r.engineHours,
    dtcCodes: r.dtcCodes,
    weatherTemp: r.weatherTemp,
    ignition: r.ignition === 0 || r.ignition === 1 ? r.ignition : null,
    rawData: r.rawData,
  };
}

describe("the seeded sandbox", () => {
  it("holds exactly the alerts a direct replay of the detectors over its stored telemetry raises, by agent and severity", async () => {
    const db = tdb.handle.db;
    const fleet = await db.select().from(devices).where(eq(devices.tenantId, SANDBOX_TENANT_ID)).orderBy(asc(devices.deviceId));
    const stored = await db.select().from(alerts).where(eq(alerts.tenantId, SANDBOX_TENANT_ID));
    const storedByKey = new Map(stored.map((a) => [`${a.deviceId} ${a.dedupeKey} ${a.createdAt.getTime()}`, a]));
    expect(fleet).toHaveLength(42);

    const all = await db.select().from(telemetry).where(eq(telemetry.tenantId, SANDBOX_TENANT_ID)).orderBy(asc(telemetry.deviceId), asc(telemetry.ts));
    const replayed: { deviceId: string; key: string; agent: string; severity: string; createdAt: Date }[] = [];
    for (const device of fleet) {
      const history = all.filter((r) => r.deviceId === device.deviceId);
      const batches = new Map<number, Row[]>();
      for (const r of history) {
        const bucket = Math.floor(r.ts.getTime() / FEED_BATCH_MS);
        batches.set(bucket, [...(batches.get(bucket) ?? []), r]);
      }
      let previous: Row | null = null;
      let odometerMax: { km: number; ts: Date } | null = null;
      /** The latest awake reading within the settle time before the newest one (readDeviceContexts). */
      let lastAwakeAt: Date | null = null;
      /** The alerts per key (problem), with their stored acknowledgement times (null: never acknowledged). */
      const raised = new Map<string, { severity: Severity; ackAt: Date | null }[]>();
      for (const batch of batches.values()) {
        const receivedAt = batch[0]!.receivedAt;
        expect(batch.every((r) => r.receivedAt.getTime() === receivedAt.getTime())).toBe(true);
        const context: DeviceContext = {
          deviceId: device.deviceId,
          powertrain: normalisePowertrain(device.powertrain),
          batteryKwh: device.batteryKwh,
          previous: previous && {
            ts: previous.ts,
            odometerKm: previous.odometerKm,
            socPct: previous.socPct,
            sohPct: previous.sohPct,
            dtcCodes: previous.dtcCodes,
            speedKmh: previous.speedKmh,
          },
          odometerMax,
          lastAwakeAt,
        };
        const records = batch.map((r) => recordOf(r, device.vin ?? ""));
        for (const draft of runDetectors({ devices: [context], recordsByDevice: new Map([[device.deviceId, records]]) })) {
          // The alert lifecycle: an occurrence no more severe than the problem's open alerts updates one of them.
          const problem = raised.get(draft.dedupeKey) ?? [];
          const open = problem.filter((a) => a.ackAt === null || a.ackAt > receivedAt);
          if (lifecycleTarget(open, draft) !== null) continue;
          const createdAt = draft.observedAt < receivedAt ? draft.observedAt : receivedAt;
          const twin = storedByKey.get(`${device.deviceId} ${draft.dedupeKey} ${createdAt.getTime()}`);
          problem.push({ severity: draft.severity, ackAt: twin?.acknowledgedAt ?? null });
          raised.set(draft.dedupeKey, problem);
          replayed.push({ deviceId: device.deviceId, key: draft.dedupeKey, agent: draft.agent, severity: draft.severity, createdAt });
        }
        // The stored maximum only rises to readings the batch confirms (confirmedOdometerMax).
        const max = confirmedOdometerMax(records, context.previous, odometerMax);
        if (max && (odometerMax === null || max.km > odometerMax.km)) odometerMax = { km: max.km, ts: max.at };
        previous = batch[batch.length - 1]!;
        const latestAwake = Math.max(lastAwakeAt?.getTime() ?? Number.NEGATIVE_INFINITY, ...records.filter(isAwakeRecord).map((r) => r.ts.getTime()));
        lastAwakeAt = latestAwake > previous.ts.getTime() - SETTLE_MS ? new Date(latestAwake) : null;
      }
    }

    const tally = (list: { agent: string; severity: string }[], by: "agent" | "severity") => {
      const m: Record<string, number> = {};
      for (const a of list) m[a[by]] = (m[a[by]] ?? 0) + 1;
      return m;
    };
    const counted = await rows<{ agent: string; n: number }>(db, sql`select agent, count(*)::int as n from alerts where tenant_id = ${SANDBOX_TENANT_ID} group by agent`);
    const storedByAgent = Object.fromEntries(counted.map((c) => [c.agent, Number(c.n)]));
    expect(tally(replayed, "agent")).toEqual(storedByAgent);
    expect(Object.keys(storedByAgent).sort()).toEqual(["battery", "charging", "diagnostics", "driving", "odometer_integrity"]);
    expect(tally(replayed, "severity")).toEqual(tally(stored, "severity"));
    // And alert by alert: the same device, key and creation time.
    const key = (a: { deviceId: string; createdAt: Date }, k: string | null) => `${a.deviceId} ${k} ${a.createdAt.toISOString()}`;
    expect(replayed.map((a) => key(a, a.key)).sort()).toEqual(stored.map((a) => key(a, a.dedupeKey)).sort());
  }, 180_000);
});
