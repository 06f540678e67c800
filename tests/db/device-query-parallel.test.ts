import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { resetEnvCache } from "@/lib/env";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { rootLogger } from "@/lib/log/logger";
import { MIN_DEVICES_PER_STATEMENT } from "@/lib/devices/device-query";
import { fleetSlices, loadFleetInputs } from "@/lib/scores/queries/load-fleet-inputs";
import { loadTasInputs } from "@/lib/scores/queries/load-tas-inputs";
import { loadVehicleHealthInputs } from "@/lib/scores/queries/load-vehicle-health-inputs";
import { settleBackgroundRollupRefresh } from "@/lib/telemetry/rollups/refresh-telemetry-rollups";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * A per-device load of many devices is split into FDP_QUERY_PARALLELISM statements sent at once
 * (lib/devices/device-query.ts): the answers must be exactly those of one statement, every
 * device once, and the split must never happen inside a transaction or for a small list.
 */

const DEVICES = 2 * MIN_DEVICES_PER_STATEMENT + 37;
const MIN = 60_000;
let tdb: TestDatabase;
let ctx: TenantCtx;
const previous = process.env.FDP_QUERY_PARALLELISM;

function setParallelism(n: number): void {
  process.env.FDP_QUERY_PARALLELISM = String(n);
  resetEnvCache();
}

const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : 1));

describe("per-device loads split into parallel statements", () => {
  beforeAll(async () => {
    tdb = await createTestDatabase("postgres");
    ctx = { db: tdb.handle.db, tenantId: (await createTenantWithKey(tdb.handle.db)).tenantId, isSandbox: false, log: rootLogger() };
    const t0 = Date.now() - 3 * 86_400_000;
    const vehicles = Array.from({ length: DEVICES }, (_, i) =>
      [0, 1, 2].map((k) => ({
        vin: `PAR${String(i).padStart(4, "0")}`,
        timestamp: new Date(t0 + (i % 50) * MIN + k * 86_400_000).toISOString(),
        odometer_km: 10_000 + i * 10 + k * 50,
        speed_kmh: (i * 7 + k * 13) % 140,
        soh_percent: 80 + (i % 15),
        battery_voltage: 12.1 + (i % 10) / 10,
      })),
    ).flat();
    await ingestTelemetry({ ctx, input: { vehicles } });
    await settleBackgroundRollupRefresh(ctx.tenantId);
  }, 120_000);

  afterAll(async () => {
    if (previous === undefined) delete process.env.FDP_QUERY_PARALLELISM;
    else process.env.FDP_QUERY_PARALLELISM = previous;
    resetEnvCache();
    await tdb?.dispose();
  });

  it("sends at most FDP_QUERY_PARALLELISM statements and answers exactly what one statement answers", async () => {
    const now = new Date();
    const ids = [...Array.from({ length: DEVICES }, (_, i) => `oem-PAR${String(i).padStart(4, "0")}`), "no-such-device", "oem-PAR0003"];
    for (const load of [loadTasInputs, loadVehicleHealthInputs] as const) {
      const trips: string[] = [];
      setParallelism(1);
      const one = await load({ ctx, deviceIds: ids, now, onQuery: (l) => trips.push(l) });
      expect(trips).toHaveLength(1);
      setParallelism(2);
      trips.length = 0;
      const two = await load({ ctx, deviceIds: ids, now, onQuery: (l) => trips.push(l) });
      expect(trips).toHaveLength(2);
      setParallelism(16);
      trips.length = 0;
      const many = await load({ ctx, deviceIds: ids, now, onQuery: (l) => trips.push(l) });
      // No statement for fewer than MIN_DEVICES_PER_STATEMENT devices.
      expect(trips).toHaveLength(Math.floor(DEVICES / MIN_DEVICES_PER_STATEMENT));
      expect(one.size).toBe(DEVICES);
      expect(sorted(two as Map<string, unknown>)).toEqual(sorted(one as Map<string, unknown>));
      expect(sorted(many as Map<string, unknown>)).toEqual(sorted(one as Map<string, unknown>));
    }
  });

  it("never splits a small list, nor a load inside a transaction", async () => {
    setParallelism(4);
    const now = new Date();
    const all = Array.from({ length: DEVICES }, (_, i) => `oem-PAR${String(i).padStart(4, "0")}`);
    const trips: string[] = [];
    await loadTasInputs({ ctx, deviceIds: all.slice(0, 2 * MIN_DEVICES_PER_STATEMENT - 1), now, onQuery: (l) => trips.push(l) });
    expect(trips).toHaveLength(1);
    trips.length = 0;
    const inTx = await tdb.handle.db.transaction((tx) => loadTasInputs({ ctx: { ...ctx, db: tx }, deviceIds: all, now, onQuery: (l) => trips.push(l) }));
    expect(trips).toHaveLength(1);
    expect(inTx.size).toBe(DEVICES);
  });

  it("a fleet load is split once the tenant is known to be large, with the same figures in the same order", async () => {
    setParallelism(2);
    const now = new Date();
    const other = { ...ctx, tenantId: "tn_never_loaded" };
    expect(fleetSlices(other)).toBe(1); // a first load: one statement
    const first = await loadFleetInputs({ ctx, periodDays: 30, now });
    expect(first.devices).toHaveLength(DEVICES);
    expect(fleetSlices(ctx)).toBe(2);
    const split = await loadFleetInputs({ ctx, periodDays: 30, now });
    expect(split).toEqual(first);
    expect(split.devices.map((d) => d.device_id)).toEqual([...split.devices.map((d) => d.device_id)].sort());
    // Neither inside a transaction.
    await tdb.handle.db.transaction(async (tx) => expect(fleetSlices({ db: tx, tenantId: ctx.tenantId })).toBe(1));
  });

  it("the TAS statement built once per process answers what the statement built per call answers", async () => {
    setParallelism(2);
    const ids = Array.from({ length: DEVICES }, (_, i) => `oem-PAR${String(i).padStart(4, "0")}`);
    for (const now of [new Date(), new Date(Date.now() - 86_400_000 - 3_600_000)]) {
      const built = await loadTasInputs({ ctx, deviceIds: ids, now, template: false });
      const templated = await loadTasInputs({ ctx, deviceIds: ids, now });
      expect(templated.size).toBe(DEVICES);
      expect(sorted(templated as Map<string, unknown>)).toEqual(sorted(built as Map<string, unknown>));
      const one = await loadTasInputs({ ctx, deviceIds: [ids[5]!], now });
      expect(one.get(ids[5]!)).toEqual(built.get(ids[5]!));
    }
  });
});
