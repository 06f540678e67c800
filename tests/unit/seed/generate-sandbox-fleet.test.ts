import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { DETECTOR_VERSION } from "@/lib/detectors";
import { helsinkiHourOfDay } from "@/lib/seed/calendar";
import { FINLAND_BOUNDS } from "@/lib/seed/finland";
import { FLEET_PLAN, type VehiclePlan } from "@/lib/seed/fleet-plan";
import { generateSandboxFleet, HISTORY_DAYS, type SandboxFleet, type TelemetryRow, vinCheckDigit } from "@/lib/seed/generate-sandbox-fleet";
import { FEED_BATCH_MS } from "@/lib/seed/replay-feed";
import { ALERT_AGENTS, SEVERITIES, SEVERITY_RANK } from "@/lib/vocabulary/alerts";
import { adaptFeedDocuments } from "@/lib/ingest/adapters/adapt-feed";
import { toTelemetryRecords } from "@/lib/ingest/normalize-records";
import { toTelemetryRow } from "@/lib/ingest/store-batch";
import { ingestBodySchema } from "@/lib/schemas/ingest";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINTER_ANCHOR = new Date("2025-02-10T14:00:00Z");
/** A summer night (DST in force): nobody would drive at 04:00 local, so the scripted states must carry it. */
const SUMMER_ANCHOR = new Date("2025-07-01T01:00:00Z");

const digest = (fleet: SandboxFleet) => createHash("sha256").update(JSON.stringify(fleet)).digest("hex");
const ms = (r: { ts: Date }) => r.ts.getTime();

function byDevice(rows: readonly TelemetryRow[]): Map<string, TelemetryRow[]> {
  const map = new Map<string, TelemetryRow[]>();
  for (const r of rows) {
    const list = map.get(r.deviceId);
    if (list) list.push(r);
    else map.set(r.deviceId, [r]);
  }
  return map;
}

const isDriving = (r: TelemetryRow) => r.ignition === 1 && (r.speedKmh ?? 0) > 0;
/** Each generated device's plan: the fleet lists its devices in FLEET_PLAN's order (sbx-001 is FLEET_PLAN[0]; a feed vehicle has its feed's id). */
const PLAN_OF_DEVICE = new Map<string, VehiclePlan>();
function generate(anchor: Date): SandboxFleet {
  const fleet = generateSandboxFleet({ anchor });
  fleet.devices.forEach((d, i) => PLAN_OF_DEVICE.set(d.deviceId, FLEET_PLAN[i]!));
  return fleet;
}
const planOf = (deviceId: string): VehiclePlan => {
  const plan = PLAN_OF_DEVICE.get(deviceId);
  if (!plan) throw new Error(`no plan for ${deviceId}`);
  return plan;
};
/** A vehicle that sends SPEC 2.17 records (the others arrive through a feed adapter and carry only what their source reports). */
const specFed = (deviceId: string) => planOf(deviceId).feed === undefined;
/** Fastest plausible reported speed: heavy-footed drivers push up to 170 km/h, everyone else stays at or below 120. */
const maxKmh = (deviceId: string) => (planOf(deviceId).heavyFoot ? 170 : 120);

/**
 * Runs a check over many rows and returns the first few failures: one `expect` per row over
 * 100k rows would take tens of seconds, and a list of failures says more than the first one.
 */
function violations<T>(items: Iterable<T>, check: (item: T) => string | undefined, limit = 5): string[] {
  const found: string[] = [];
  for (const item of items) {
    const problem = check(item);
    if (problem !== undefined) found.push(problem);
    if (found.length >= limit) break;
  }
  return found;
}

const where = (r: TelemetryRow) => `${r.deviceId}@${r.ts.toISOString()}`;
const within = (x: number | null | undefined, min: number, max: number) => x !== null && x !== undefined && x >= min && x <= max;

/** The winter fleet, generated once for every test that reads it (≈2–4 s a generation; none of them changes it). */
let winterFleet: SandboxFleet | undefined;
const winter = (): SandboxFleet => (winterFleet ??= generate(WINTER_ANCHOR));

describe("determinism", () => {
  it("gives identical output for the same anchor", () => {
    const a = winter();
    const b = generate(new Date(WINTER_ANCHOR));
    expect(digest(a)).toBe(digest(b));
    expect(b.devices).toEqual(a.devices);
    expect(b.alerts).toEqual(a.alerts);
  });

  it("moves the whole history with the anchor and keeps the same vehicles", () => {
    const a = winter();
    const later = new Date(WINTER_ANCHOR.getTime() + DAY + 3 * HOUR);
    const b = generate(later);
    expect(digest(b)).not.toBe(digest(a));
    expect(b.devices.map((d) => [d.deviceId, d.vin, d.name])).toEqual(a.devices.map((d) => [d.deviceId, d.vin, d.name]));
    for (const [fleet, anchor] of [
      [a, WINTER_ANCHOR],
      [b, later],
    ] as const) {
      const times = fleet.telemetry.map(ms);
      expect(Math.max(...times)).toBe(anchor.getTime());
      expect(Math.min(...times)).toBe(anchor.getTime() - HISTORY_DAYS * DAY);
    }
  });
});

describe("the simulated feed", () => {
  it("is what FDP's ingest accepts (SPEC 2.17 records, driving events included) and maps to exactly the stored telemetry", () => {
    const fleet = winter();
    const feedSize = [...fleet.feeds.values()].reduce((n, f) => n + f.length, 0) + [...fleet.sourceFeeds.values()].reduce((n, f) => n + f.documents.length, 0);
    expect(feedSize).toBe(fleet.telemetry.length);
    for (const [deviceId, feed] of fleet.feeds) {
      const parsed = ingestBodySchema.safeParse({ vehicles: feed });
      expect(parsed.success ? [] : parsed.error.issues.slice(0, 3), deviceId).toEqual([]);
    }
    // The same code path as ingest: toTelemetryRecords over the feed gives the stored rows (received_at aside).
    const feed = fleet.feeds.get("sbx-001") ?? [];
    const mapped = toTelemetryRecords({ vehicles: feed }, WINTER_ANCHOR).map((r) => toTelemetryRow("sandbox", r, WINTER_ANCHOR));
    const stored = fleet.telemetry.filter((r) => r.deviceId === "sbx-001").map((r) => ({ ...r, receivedAt: WINTER_ANCHOR }));
    expect(mapped).toEqual(stored);
  });

  it("sends two vehicles through the feed adapters, as their sources publish them, and stores what the adapters make of them", () => {
    const fleet = winter();
    expect([...fleet.sourceFeeds.entries()].map(([id, f]) => [id.replace(/-.*/, ""), f.format])).toEqual([
      ["oem", "tesla"],
      ["traccar", "traccar"],
    ]);
    for (const [deviceId, { format, documents }] of fleet.sourceFeeds) {
      // The documents the endpoint takes (POST /oem/ingest/{format}), one by one: the same rows (received_at aside).
      const records = documents.map((doc) => {
        const adapted = adaptFeedDocuments(format, doc, WINTER_ANCHOR);
        if (!adapted.ok) throw new Error(`${deviceId}: ${JSON.stringify(adapted.issues)}`);
        return adapted.body.vehicles[0]!;
      });
      const mapped = toTelemetryRecords({ source: format, vehicles: records }, WINTER_ANCHOR).map((r) => toTelemetryRow("sandbox", r, WINTER_ANCHOR));
      const stored = fleet.telemetry.filter((r) => r.deviceId === deviceId).map((r) => ({ ...r, receivedAt: WINTER_ANCHOR }));
      expect(mapped).toEqual(stored);
      // What the source reports and nothing more: a Tesla no 12 V, SOH or ignition; a tracker no SOC, fuel or outside temperature.
      if (format === "tesla") {
        expect(stored.every((r) => r.batteryVoltage === null && r.sohPct === null && r.ignition === null && r.rawData?.tesla !== undefined)).toBe(true);
        expect(stored.filter((r) => r.socPct !== null).length).toBe(stored.length);
      } else {
        expect(stored.every((r) => r.socPct === null && r.fuelLevelPct === null && r.weatherTemp === null && r.rawData?.traccar !== undefined)).toBe(true);
        expect(stored.filter((r) => r.batteryVoltage !== null && r.ignition !== null).length).toBe(stored.length);
      }
    }
  });
});

describe.each([
  ["winter afternoon", WINTER_ANCHOR],
  ["summer night", SUMMER_ANCHOR],
])("sandbox fleet anchored on a %s", (_label, anchor) => {
  const anchorMs = anchor.getTime();
  let fleet: SandboxFleet;
  let rowsByDevice: Map<string, TelemetryRow[]>;

  beforeAll(() => {
    fleet = anchor === WINTER_ANCHOR ? winter() : generate(anchor);
    rowsByDevice = byDevice(fleet.telemetry);
  });

  it("has at least 40 vehicles of every powertrain and both asset classes, with plausible master data", () => {
    const { devices } = fleet;
    expect(devices.length).toBeGreaterThanOrEqual(40);
    expect(new Set(devices.map((d) => d.deviceId)).size).toBe(devices.length);
    const count = (p: string) => devices.filter((d) => d.powertrain === p).length;
    expect(count("BEV") / devices.length).toBeGreaterThanOrEqual(0.4);
    expect(count("PHEV") / devices.length).toBeGreaterThanOrEqual(0.15);
    expect(count("ICE") / devices.length).toBeGreaterThanOrEqual(0.2);
    expect(count("HEV")).toBeGreaterThanOrEqual(1);
    expect(new Set(devices.map((d) => d.assetClass))).toEqual(new Set(["passenger_car", "light_commercial"]));

    for (const d of devices) {
      expect(d.tenantId).toBe("sandbox");
      // A feed vehicle's id is its adapter's (CONTRACT "Feeds"): the Tesla by its VIN, the tracker by its IMEI.
      const feed = planOf(d.deviceId).feed?.format;
      expect(d.deviceId).toMatch(feed === "tesla" ? new RegExp(`^oem-${d.vin}$`) : feed === "traccar" ? /^traccar-35\d{13}$/ : /^sbx-\d{3}$/);
      expect(d.name).toBe(`${d.make} ${d.model}`);
      expect(d.vin).toMatch(/^[A-HJ-NPR-Z0-9]{17}$/);
      expect(d.vin?.[8]).toBe(vinCheckDigit(d.vin ?? ""));
      expect(d.powertrainSource).toBe("master_data");
      expect(["electric", "petrol", "diesel", "hybrid"]).toContain(d.fuelType);
      if (d.powertrain === "BEV" || d.powertrain === "PHEV") expect(d.batteryKwh).toBeGreaterThan(10);
      else expect(d.batteryKwh).toBeNull();
      expect(d.originalPriceEur).toBeGreaterThan(25_000);
      expect(d.contractKm).toBeGreaterThanOrEqual(60_000);
      expect(d.contractKm).toBeLessThanOrEqual(150_000);
      expect(d.leaseMonths).toBeGreaterThanOrEqual(24);
      expect(d.leaseMonths).toBeLessThanOrEqual(48);
      const leaseAgeMonths = (anchorMs - Date.parse(`${d.leaseStart}T00:00:00Z`)) / (30.44 * DAY);
      expect(leaseAgeMonths).toBeGreaterThanOrEqual(5.9);
      expect(leaseAgeMonths).toBeLessThanOrEqual(40.1);
      expect(d.year).toBe(Number(d.leaseStart?.slice(0, 4)));
    }
  });

  it("has 80k–150k telemetry rows and at least 90 days per vehicle, all within the window", () => {
    expect(fleet.telemetry.length).toBeGreaterThanOrEqual(80_000);
    expect(fleet.telemetry.length).toBeLessThanOrEqual(150_000);
    expect([...rowsByDevice.keys()].sort()).toEqual(fleet.devices.map((d) => d.deviceId).sort());
    for (const rows of rowsByDevice.values()) {
      const first = rows[0];
      const last = rows[rows.length - 1];
      if (!first || !last) throw new Error("empty history");
      expect(ms(last) - ms(first)).toBeGreaterThanOrEqual(90 * DAY);
      expect(ms(first)).toBeGreaterThanOrEqual(anchorMs - HISTORY_DAYS * DAY);
      expect(ms(last)).toBeLessThanOrEqual(anchorMs);
    }
  });

  it("keeps timestamps strictly increasing and the odometer never decreasing per vehicle, except the clocked and the glitching odometer once each", () => {
    const pairs = [...rowsByDevice.values()].flatMap((rows) => rows.slice(1).map((cur, i) => [rows[i] as TelemetryRow, cur] as const));
    expect(violations(pairs, ([prev, cur]) => (ms(cur) > ms(prev) ? undefined : `ts not increasing at ${where(cur)}`))).toEqual([]);
    const decreases = pairs.filter(([prev, cur]) => (cur.odometerKm ?? 0) < (prev.odometerKm ?? 0));
    const scripted = fleet.devices.filter((d) => planOf(d.deviceId).odometerClock || planOf(d.deviceId).odometerGlitch).map((d) => d.deviceId);
    expect(scripted).toHaveLength(2);
    expect(decreases.map(([, cur]) => cur.deviceId).sort()).toEqual(scripted.sort());
  });

  it("moves at speeds consistent with the odometer between driving records, except the frozen odometer's one catch-up", () => {
    const pairs = [...rowsByDevice.values()].flatMap((rows) => rows.slice(1).map((cur, i) => [rows[i] as TelemetryRow, cur] as const));
    const driving = pairs.filter(([prev, cur]) => isDriving(prev) && isDriving(cur) && ms(cur) - ms(prev) <= 0.1 * HOUR);
    expect(driving.length).toBeGreaterThan(10_000);
    const kmh = ([prev, cur]: readonly [TelemetryRow, TelemetryRow]) => ((cur.odometerKm ?? 0) - (prev.odometerKm ?? 0)) / ((ms(cur) - ms(prev)) / HOUR);
    // The scripted freeze recovers mid-trip in one step of more than 50 km: what the odometer-integrity detector can see.
    const catchUps = driving.filter((p) => (p[1].odometerKm ?? 0) - (p[0].odometerKm ?? 0) > 50);
    expect(catchUps.map(([, cur]) => cur.deviceId)).toEqual(fleet.devices.filter((d) => planOf(d.deviceId).odometerFreeze).map((d) => d.deviceId));
    // The glitching odometer's one low reading is followed by a reading back on the true count: an implied burst of speed.
    const glitchRecovery = driving.filter(
      ([prev, cur]) => planOf(cur.deviceId).odometerGlitch && (rowsByDevice.get(cur.deviceId) ?? []).some((r) => ms(r) < ms(prev) && (r.odometerKm ?? 0) > (prev.odometerKm ?? 0)),
    );
    expect(glitchRecovery).toHaveLength(1);
    expect(
      violations(
        driving.filter((p) => !catchUps.includes(p) && !glitchRecovery.includes(p)),
        (p) => {
          const v = kmh(p);
          return v <= maxKmh(p[1].deviceId) + 5 ? undefined : `${Math.round(v)} km/h between readings at ${where(p[1])}`;
        },
      ),
    ).toEqual([]);
  });

  it("has heavy-footed drivers hold more than 130 km/h over consecutive 5-minute readings, and nobody else", () => {
    const fast = new Set<string>();
    for (const rows of rowsByDevice.values()) {
      for (let i = 1; i < rows.length; i++) {
        const prev = rows[i - 1] as TelemetryRow;
        const cur = rows[i] as TelemetryRow;
        if ((prev.speedKmh ?? 0) > 130 && (cur.speedKmh ?? 0) > 130 && ms(cur) - ms(prev) <= 300_000) fast.add(cur.deviceId);
      }
    }
    expect([...fast].sort()).toEqual(fleet.devices.filter((d) => planOf(d.deviceId).heavyFoot).map((d) => d.deviceId));
  });

  it("places every record inside Finland", () => {
    const b = FINLAND_BOUNDS;
    expect(violations(fleet.telemetry, (r) => (within(r.lat, b.minLat, b.maxLat) && within(r.lon, b.minLon, b.maxLon) ? undefined : `${r.lat},${r.lon} at ${where(r)}`))).toEqual(
      [],
    );
  });

  it("reports signals in range: speed with ignition, 12 V voltage by state, temperature, SOH", () => {
    const powertrain = new Map(fleet.devices.map((d) => [d.deviceId, d.powertrain]));
    const check = (r: TelemetryRow): string | undefined => {
      if (!specFed(r.deviceId)) return undefined; // the feed vehicles' signals: "the simulated feed" above
      const plugIn = ["BEV", "PHEV"].includes(powertrain.get(r.deviceId) ?? "");
      if ((r.speedKmh ?? 0) > 0 && (r.ignition !== 1 || !within(r.speedKmh, 30, maxKmh(r.deviceId)))) return `moving at ${r.speedKmh} km/h, ignition ${r.ignition}`;
      if (r.ignition === 1 && !within(r.batteryVoltage, 13.8, 14.4)) return `running at ${r.batteryVoltage} V`;
      // The weak 12 V battery sinks below the detector's 11.8 V, never to its critical 11.0 V.
      if (r.ignition === 0 && !within(r.batteryVoltage, planOf(r.deviceId).weak12V ? 11.1 : 11.4, 13.8)) return `resting at ${r.batteryVoltage} V`;
      if (!within(r.weatherTemp, -40, 35)) return `temperature ${r.weatherTemp}`;
      const { events, ...raw } = r.rawData ?? {};
      const expectedRaw = { source: "sandbox-sim", ambient_temp_c: r.weatherTemp, ignition: r.ignition === 1, ...(plugIn ? { charging_power_kw: r.chargingPowerKw } : {}) };
      if (JSON.stringify(raw) !== JSON.stringify(expectedRaw)) return `raw_data ${JSON.stringify(r.rawData)}`;
      // An event-reporting unit sends a (possibly empty) list with every record while the ignition is on; nobody else sends one.
      const reports = planOf(r.deviceId).reportsDrivingEvents === true && r.ignition === 1;
      if (Array.isArray(events) !== reports) return `raw_data.events ${JSON.stringify(events)}`;
      const received = r.receivedAt?.getTime() ?? 0;
      if (received < ms(r) || received > anchorMs) return `received_at ${r.receivedAt?.toISOString()}`;
      if (plugIn) {
        // Degraded batteries follow their scripted trend; everyone else ages normally. Either way with BMS scatter (±1.4 pp).
        const trend = planOf(r.deviceId).sohTrend;
        if (!within(r.sohPct, trend ? trend.toPct - 1.5 : 80, trend ? trend.fromPct + 1.5 : 100)) return `SOH ${r.sohPct}`;
        if (!["charging", "not_charging", "complete"].includes(r.chargingStatus ?? "")) return `charging_status ${r.chargingStatus}`;
        if (!within(r.socPct, 0, 100)) return `SOC ${r.socPct}`;
      } else if (r.sohPct !== null || r.socPct !== null || r.chargingStatus !== null) {
        return "battery fields on a vehicle without a traction battery";
      }
      if (r.fuelLevelPct !== null && !within(r.fuelLevelPct, 0, 100)) return `fuel ${r.fuelLevelPct}`;
      return undefined;
    };
    expect(
      violations(fleet.telemetry, (r) => {
        const problem = check(r);
        return problem === undefined ? undefined : `${problem} at ${where(r)}`;
      }),
    ).toEqual([]);
  });

  it("is colder up north than in Helsinki over the same days", () => {
    const mean = (rows: TelemetryRow[]) => rows.reduce((s, r) => s + (r.weatherTemp ?? 0), 0) / rows.length;
    const north = fleet.telemetry.filter((r) => (r.lat ?? 0) > 66);
    const south = fleet.telemetry.filter((r) => (r.lat ?? 0) < 60.4);
    expect(north.length).toBeGreaterThan(100);
    expect(mean(north)).toBeLessThan(mean(south));
  });

  it("drains SOC while driving and fills it while charging; fuel falls and is refilled", () => {
    const bevs = new Set(fleet.devices.filter((d) => d.powertrain === "BEV").map((d) => d.deviceId));
    const pairs = [...rowsByDevice.values()].flatMap((rows) => rows.slice(1).map((cur, i) => [rows[i] as TelemetryRow, cur] as const));
    const soc = (r: TelemetryRow) => r.socPct ?? 0;
    const fuel = (r: TelemetryRow) => r.fuelLevelPct ?? 0;

    const bevDriving = pairs.filter(([p, c]) => bevs.has(c.deviceId) && isDriving(p) && isDriving(c));
    expect(violations(bevDriving, ([p, c]) => (soc(c) <= soc(p) ? undefined : `SOC rose while driving at ${where(c)}`))).toEqual([]);
    expect(bevDriving.filter(([p, c]) => soc(c) < soc(p)).length).toBeGreaterThan(1000);

    const charging = pairs.filter(([p, c]) => p.chargingStatus === "charging" && c.chargingStatus === "charging");
    // The faulty wallbox's sessions say "charging" at 0 kW: SOC stands still. Nowhere else.
    const stalled = charging.filter(([p, c]) => (p.chargingPowerKw ?? 0) === 0 && (c.chargingPowerKw ?? 0) === 0);
    expect(new Set(stalled.map(([, c]) => c.deviceId))).toEqual(new Set(fleet.devices.filter((d) => planOf(d.deviceId).stalledCharging).map((d) => d.deviceId)));
    expect(violations(stalled, ([p, c]) => (soc(c) === soc(p) ? undefined : `SOC moved on a stalled charge at ${where(c)}`))).toEqual([]);
    const flowing = charging.filter(([, c]) => (c.chargingPowerKw ?? 0) > 0);
    expect(violations(flowing, ([p, c]) => (soc(c) >= soc(p) ? undefined : `SOC fell while charging at ${where(c)}`))).toEqual([]);
    expect(flowing.filter(([p, c]) => soc(c) > soc(p)).length).toBeGreaterThan(100);

    const fuelled = pairs.filter(([p, c]) => p.fuelLevelPct !== null && c.fuelLevelPct !== null);
    expect(fuelled.filter(([p, c]) => fuel(c) < fuel(p)).length).toBeGreaterThan(1000);
    expect(fuelled.filter(([p, c]) => fuel(c) > fuel(p) + 30).length).toBeGreaterThan(10);

    // Both AC at home and DC on the road.
    expect(fleet.telemetry.some((r) => r.chargingStatus === "charging" && (r.chargingPowerKw ?? 0) >= 50)).toBe(true);
    expect(fleet.telemetry.some((r) => r.chargingStatus === "charging" && (r.chargingPowerKw ?? 0) <= 11)).toBe(true);
  });

  it("sets DTCs on a few vehicles only", () => {
    const withCodes = new Set(fleet.telemetry.filter((r) => (r.dtcCodes ?? []).length > 0).map((r) => r.deviceId));
    expect(withCodes.size).toBeGreaterThanOrEqual(2);
    expect(withCodes.size).toBeLessThanOrEqual(8);
    expect(fleet.telemetry.filter((r) => (r.dtcCodes ?? []).length > 0).length).toBeLessThan(fleet.telemetry.length * 0.1);
  });

  it("snapshots are exactly the last telemetry row of each vehicle", () => {
    expect(fleet.snapshots).toHaveLength(fleet.devices.length);
    for (const snapshot of fleet.snapshots) {
      const rows = rowsByDevice.get(snapshot.deviceId) ?? [];
      expect(snapshot).toEqual(rows[rows.length - 1]);
    }
  });

  it("shows offline, driving and charging vehicles at the anchor", () => {
    const offline = fleet.snapshots.filter((s) => anchorMs - ms(s) > 24 * HOUR);
    expect(offline.length).toBeGreaterThanOrEqual(2);
    for (const s of offline) expect(anchorMs - ms(s)).toBeLessThanOrEqual(5 * DAY);
    const live = fleet.snapshots.filter((s) => anchorMs - ms(s) <= 24 * HOUR);
    expect(live.filter((s) => isDriving(s) && anchorMs - ms(s) <= 10 * 60_000).length).toBeGreaterThanOrEqual(3);
    expect(live.filter((s) => s.chargingStatus === "charging").length).toBeGreaterThanOrEqual(2);
  });

  it("drives mostly by day (commutes and rounds), not around the clock", () => {
    const driving = fleet.telemetry.filter(isDriving);
    const daytime = driving.filter((r) => {
      const h = helsinkiHourOfDay(ms(r));
      return h >= 5 && h < 21;
    });
    expect(daytime.length / driving.length).toBeGreaterThan(0.9);
  });

  it("holds the real detectors' alerts: every severity and agent, at most one open per device and key, acknowledged 1–48 h after creation", () => {
    const { alerts } = fleet;
    expect(alerts.length).toBeGreaterThanOrEqual(25);
    // Three degraded batteries re-raise their low-SoH warning each time it is acknowledged, and the habitual speeder its overspeed.
    expect(alerts.length).toBeLessThanOrEqual(200);
    expect(new Set(alerts.map((a) => a.severity))).toEqual(new Set(SEVERITIES));
    expect(new Set(alerts.map((a) => a.agent))).toEqual(new Set(ALERT_AGENTS));
    expect(new Set(alerts.map((a) => a.id)).size).toBe(alerts.length);
    const deviceIds = new Set(fleet.devices.map((d) => d.deviceId));
    const created = alerts.map((a) => a.createdAt.getTime());
    expect(Math.max(...created) - Math.min(...created)).toBeGreaterThan(45 * DAY); // spread over the history

    for (const a of alerts) {
      expect(a.id).toMatch(/^alt_sbx_\d{4}$/);
      expect(a.tenantId).toBe("sandbox");
      expect(deviceIds.has(a.deviceId)).toBe(true);
      expect(a.technicalData.detector_version).toBe(DETECTOR_VERSION);
      expect(a.dedupeKey?.startsWith(`${a.agent}:`)).toBe(true);
      expect(a.confidence).toBeGreaterThan(0);
      expect(a.confidence).toBeLessThanOrEqual(1);
      expect(a.prediction.length).toBeGreaterThan(40);
      const createdMs = a.createdAt.getTime();
      expect(createdMs).toBeLessThanOrEqual(anchorMs);
      expect(createdMs).toBeGreaterThanOrEqual(anchorMs - HISTORY_DAYS * DAY);
      if (a.acknowledged) {
        expect(a.acknowledgedBy).toMatch(/^[a-z.]+@sandbox\.fdp\.example$/);
        const ackMs = (a.acknowledgedAt as Date).getTime();
        expect(ackMs - createdMs).toBeGreaterThanOrEqual(HOUR);
        expect(ackMs - createdMs).toBeLessThanOrEqual(48 * HOUR);
        expect(ackMs).toBeLessThanOrEqual(anchorMs);
      } else {
        expect(a.acknowledgedBy).toBeNull();
        expect(a.acknowledgedAt).toBeNull();
      }
    }
    expect(alerts.some((a) => a.acknowledged)).toBe(true);
    expect(alerts.some((a) => !a.acknowledged)).toBe(true);

    // The alert lifecycle: one open alert per device, key and severity; a key fires again only once the
    // earlier alerts were acknowledged (by the batch, an hour of records, that raised the next one), or
    // with a severity above every earlier one still open. Repeated occurrences are folded in.
    const byKey = new Map<string, typeof alerts>();
    for (const a of alerts) byKey.set(`${a.deviceId} ${a.dedupeKey}`, [...(byKey.get(`${a.deviceId} ${a.dedupeKey}`) ?? []), a]);
    expect([...byKey.values()].some((list) => list.length > 1)).toBe(true);
    expect(alerts.some((a) => a.occurrences > 1)).toBe(true);
    for (const list of byKey.values()) {
      for (const severity of SEVERITIES) expect(list.filter((a) => !a.acknowledged && a.severity === severity).length).toBeLessThanOrEqual(1);
      for (let i = 1; i < list.length; i++) {
        const cur = list[i]!;
        for (const prev of list.slice(0, i)) {
          const closed = prev.acknowledged && cur.createdAt.getTime() > (prev.acknowledgedAt as Date).getTime() - FEED_BATCH_MS - 60_000;
          expect(closed || SEVERITY_RANK[cur.severity] > SEVERITY_RANK[prev.severity]).toBe(true);
        }
      }
    }
  });

  it("shows each scripted condition through the detector that can see it", () => {
    const keysOf = (deviceId: string) => new Set(fleet.alerts.filter((a) => a.deviceId === deviceId).map((a) => a.dedupeKey));
    for (const d of fleet.devices) {
      const plan = planOf(d.deviceId);
      const keys = keysOf(d.deviceId);
      if (plan.heavyFoot) expect(keys, d.deviceId).toContain("driving:overspeed");
      else expect(keys, d.deviceId).not.toContain("driving:overspeed");
      if (plan.weak12V) expect(keys, d.deviceId).toContain("battery:low_12v");
      else expect(keys, d.deviceId).not.toContain("battery:low_12v");
      if (plan.sohStep) expect(keys, d.deviceId).toContain("battery:soh_drop");
      else expect(keys, d.deviceId).not.toContain("battery:soh_drop");
      if (plan.stalledCharging) expect(keys, d.deviceId).toContain("charging:stalled");
      if (plan.odometerFreeze) expect(keys, d.deviceId).toContain("odometer_integrity:jump");
      else expect(keys, d.deviceId).not.toContain("odometer_integrity:jump");
      const codes = [...keys].filter((k) => k?.startsWith("diagnostics:")).map((k) => k?.slice("diagnostics:".length));
      expect(codes.sort(), d.deviceId).toEqual((plan.dtc ?? []).map((e) => e.code).sort());
      // Only the clocked odometer is manipulation. (The glitching one's single low reading is a data-quality event;
      // whether the detector says so with a rollback alert of low confidence or otherwise is the detector's business.)
      if (plan.odometerClock) expect(keys, d.deviceId).toContain("odometer_integrity:rollback");
      else if (!plan.odometerGlitch) expect(keys, d.deviceId).not.toContain("odometer_integrity:rollback");
    }
    // A code raised once per episode: it stays active in the snapshot, so it is not news again.
    const dtcAlerts = fleet.alerts.filter((a) => a.agent === "diagnostics");
    expect(new Set(dtcAlerts.map((a) => `${a.deviceId} ${a.dedupeKey}`)).size).toBe(dtcAlerts.length);
  });

  it("carries OEM driving events from the event-reporting vehicles only, stored once each from the record that brought them", () => {
    const reporting = fleet.devices.filter((d) => planOf(d.deviceId).reportsDrivingEvents).map((d) => d.deviceId);
    expect(reporting.length).toBeGreaterThanOrEqual(5);
    const events = fleet.drivingEvents;
    // Calm drivers' units report too, but they may have nothing to report.
    expect(new Set(events.map((e) => e.deviceId))).toEqual(new Set(reporting.filter((id) => !planOf(id).calmDriver || events.some((e) => e.deviceId === id))));
    // 5-minute sampling is far too sparse to derive harsh events from speed.
    expect(events.every((e) => e.source === "oem")).toBe(true);
    expect(fleet.devices.every((d) => d.denseSpeedAt === null)).toBe(true);
    for (const id of reporting) {
      const harsh = events.filter((e) => e.deviceId === id && (e.kind === "harsh_braking" || e.kind === "harsh_acceleration"));
      if (!planOf(id).calmDriver) expect(harsh.length, id).toBeGreaterThan(0);
      const device = fleet.devices.find((d) => d.deviceId === id);
      const lastReporting = [...(rowsByDevice.get(id) ?? [])].reverse().find((r) => Array.isArray(r.rawData?.events));
      expect(device?.eventsReportedAt).toEqual(lastReporting?.ts);
    }
    expect(new Set(events.map((e) => `${e.deviceId} ${e.ts.getTime()} ${e.kind}`)).size).toBe(events.length);
    const rowAt = new Map(fleet.telemetry.map((r) => [`${r.deviceId} ${ms(r)}`, r]));
    expect(
      violations(events, (e) => {
        const row = rowAt.get(`${e.deviceId} ${e.recordTs.getTime()}`);
        const sent = (row?.rawData?.events as { kind: string; ts: string }[] | undefined) ?? [];
        if (!sent.some((x) => x.kind === e.kind && Date.parse(x.ts) === e.ts.getTime())) return `${e.kind} at ${e.ts.toISOString()} not in its record`;
        return e.ts.getTime() <= e.recordTs.getTime() && e.receivedAt.getTime() >= e.recordTs.getTime() ? undefined : `times of ${e.kind} at ${e.ts.toISOString()}`;
      }),
    ).toEqual([]);
  });

  it("bases DTC alerts on the vehicle that reported the code, when it did", () => {
    const dtcAlerts = fleet.alerts.filter((a) => typeof a.technicalData?.dtc_code === "string");
    expect(dtcAlerts.length).toBeGreaterThanOrEqual(3);
    for (const a of dtcAlerts) {
      const code = a.technicalData?.dtc_code as string;
      const firstSeen = (rowsByDevice.get(a.deviceId) ?? []).find((r) => r.dtcCodes?.includes(code));
      expect(firstSeen).toBeDefined();
      expect(a.technicalData?.first_seen_at).toBe(firstSeen?.ts.toISOString());
      expect(a.createdAt.getTime()).toBeGreaterThanOrEqual(ms(firstSeen as TelemetryRow));
    }
  });
});
