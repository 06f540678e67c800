import { describe, expect, it } from "vitest";
import type { DeviceContext, TelemetryRecord } from "@/lib/detectors/types";
import { ValidationError } from "@/lib/errors";
import { deriveHarshEvents, HARSH_ACCELERATION_G, HARSH_BRAKING_G, observeDrivingEvents, oemDrivingEvents, STANDARD_GRAVITY_MS2 } from "@/lib/ingest/driving-events";
import { groupByDevice, toTelemetryRecords } from "@/lib/ingest/normalize-records";
import { ingestBodySchema } from "@/lib/schemas/ingest";
import { DENSE_MAX_INTERVAL_S, DENSE_MIN_INTERVAL_S } from "@/lib/vocabulary/driving-events";
import { parseInput } from "@/lib/validation";
import { rec } from "../detectors/fixtures";

const T = Date.parse("2026-11-17T08:00:00Z");
const at = (s: number) => new Date(T + s * 1000);
/** The speed change (km/h) over `dtS` seconds that is exactly `g`. */
const kmhFor = (g: number, dtS: number) => g * STANDARD_GRAVITY_MS2 * 3.6 * dtS;
/** Records of one device at the given seconds after T with the given speeds. */
const samples = (points: [number, number][]): TelemetryRecord[] => points.map(([s, v]) => rec({ ts: at(s), speedKmh: v }));

function invalidFields(vehicles: unknown[]): string[] {
  try {
    parseInput(ingestBodySchema, { vehicles });
  } catch (e) {
    if (e instanceof ValidationError) return (e.details ?? []).map((d) => d.field);
    throw e;
  }
  return [];
}

describe("raw_data.events validation (CONTRACT driving events)", () => {
  const ts = "2026-11-17T08:00:00Z";
  const record = (events: unknown) => ({ vin: "A", timestamp: ts, raw_data: { events } });

  it("accepts the four kinds with values in range (2 g and 500 km/h included), duration optional", () => {
    const events = [
      { kind: "harsh_braking", ts, value: 0.41, duration_s: 1.2 },
      { kind: "harsh_acceleration", ts: "2026-11-17T09:59:58+02:00", value: 2 },
      { kind: "harsh_cornering", ts, value: 0.35, duration_s: null },
      { kind: "overspeed", ts, value: 500, duration_s: 3600 },
    ];
    expect(invalidFields([record(events), record([])])).toEqual([]);
  });

  it("keeps unknown kinds exactly as sent, whatever else they carry", () => {
    const unknown = [
      { kind: "lane_change", ts: "yesterday", value: "left", extra: { deep: [1, 2] } },
      { kind: "HARSH_BRAKING", value: -9 },
    ];
    const parsed = ingestBodySchema.parse({ vehicles: [record(unknown)] });
    expect(parsed.vehicles[0]?.raw_data?.events).toEqual(unknown);
  });

  it("names record, event and field of every invalid event, like the rest of ingest validation", () => {
    const bad = [
      { kind: "harsh_braking", ts, value: 0 },
      { kind: "harsh_braking", ts, value: 2.01 },
      { kind: "harsh_cornering", ts, value: "0.4" },
      { kind: "overspeed", ts, value: 501 },
      { kind: "harsh_acceleration", ts: "2026-11-17T08:00:00", value: 0.4 },
      { kind: "harsh_acceleration", value: 0.4 },
      { kind: "overspeed", ts, value: 140, duration_s: -1 },
      { kind: "overspeed", ts, value: 140, duration_s: 3601 },
      { ts, value: 0.4 },
      "harsh_braking",
    ];
    expect(invalidFields([{ vin: "OK", timestamp: ts }, record(bad)])).toEqual([
      "vehicles.1.raw_data.events.0.value",
      "vehicles.1.raw_data.events.1.value",
      "vehicles.1.raw_data.events.2.value",
      "vehicles.1.raw_data.events.3.value",
      "vehicles.1.raw_data.events.4.ts",
      "vehicles.1.raw_data.events.5.ts",
      "vehicles.1.raw_data.events.6.duration_s",
      "vehicles.1.raw_data.events.7.duration_s",
      "vehicles.1.raw_data.events.8.kind",
      "vehicles.1.raw_data.events.9",
    ]);
  });

  it("wants an array of at most 500 events", () => {
    expect(invalidFields([record({ kind: "harsh_braking", ts, value: 0.5 })])).toEqual(["vehicles.0.raw_data.events"]);
    expect(invalidFields([record(Array.from({ length: 501 }, () => ({ kind: "x" })))])).toEqual(["vehicles.0.raw_data.events"]);
    expect(invalidFields([record(Array.from({ length: 500 }, () => ({ kind: "x" })))])).toEqual([]);
  });
});

describe("OEM events", () => {
  it("takes the known kinds from the records that carry them, skips unknown kinds, and notes event reporting even when empty", () => {
    const records = groupByDevice(
      toTelemetryRecords(
        ingestBodySchema.parse({
          vehicles: [
            {
              vin: "A",
              timestamp: "2026-11-17T08:05:00Z",
              raw_data: {
                events: [
                  { kind: "harsh_braking", ts: "2026-11-17T08:03:10Z", value: 0.45, duration_s: 1.5 },
                  { kind: "lane_change", ts: "x" },
                ],
              },
            },
            { vin: "A", timestamp: "2026-11-17T08:10:00Z", raw_data: { events: [{ kind: "overspeed", ts: "2026-11-17T08:07:00+00:00", value: 142 }] } },
            { vin: "A", timestamp: "2026-11-17T08:15:00Z", raw_data: { events: [] } },
            { vin: "A", timestamp: "2026-11-17T08:20:00Z", speed_kmh: 50 },
          ],
        }),
        new Date("2026-11-17T09:00:00Z"),
      ),
    ).get("oem-A")!;
    const observed = observeDrivingEvents("oem-A", records, null);
    expect(observed.events).toEqual([
      { deviceId: "oem-A", ts: new Date("2026-11-17T08:03:10Z"), kind: "harsh_braking", source: "oem", value: 0.45, durationS: 1.5, recordTs: new Date("2026-11-17T08:05:00Z") },
      { deviceId: "oem-A", ts: new Date("2026-11-17T08:07:00Z"), kind: "overspeed", source: "oem", value: 142, durationS: null, recordTs: new Date("2026-11-17T08:10:00Z") },
    ]);
    expect(observed.eventsReportedAt).toEqual(new Date("2026-11-17T08:15:00Z"));
    expect(observed.denseSpeedAt).toBeNull();
  });

  it("reports no coverage for a feed without event lists", () => {
    expect(observeDrivingEvents("d", [rec({ ts: at(0), speedKmh: 50, rawData: { ignition: true } })], null)).toEqual({ events: [], eventsReportedAt: null, denseSpeedAt: null });
    expect(oemDrivingEvents("d", [rec({ ts: at(0), rawData: { events: "none" } })])).toEqual([]);
  });
});

describe("harsh events derived from speed", () => {
  it("finds harsh braking and acceleration in dense (1 Hz) samples", () => {
    const { events, denseSpeedAt } = deriveHarshEvents(
      "dev-1",
      samples([
        [0, 80],
        [1, 69],
        [2, 68],
        [3, 68],
        [4, 80],
      ]),
      null,
    );
    expect(events).toEqual([
      { deviceId: "dev-1", ts: at(0), kind: "harsh_braking", source: "derived", value: 0.312, durationS: 1, recordTs: at(1) },
      { deviceId: "dev-1", ts: at(3), kind: "harsh_acceleration", source: "derived", value: 0.34, durationS: 1, recordTs: at(4) },
    ]);
    expect(denseSpeedAt).toEqual(at(4));
  });

  it("counts exactly the threshold as not harsh and just above it as harsh, for both kinds", () => {
    const brakeAt = kmhFor(HARSH_BRAKING_G, 1);
    const accelAt = kmhFor(HARSH_ACCELERATION_G, 1);
    expect(
      deriveHarshEvents(
        "d",
        samples([
          [0, 60],
          [1, 60 - brakeAt],
        ]),
        null,
      ).events,
    ).toEqual([]);
    expect(
      deriveHarshEvents(
        "d",
        samples([
          [0, 60],
          [1, 60 - brakeAt - 0.01],
        ]),
        null,
      ).events.map((e) => e.kind),
    ).toEqual(["harsh_braking"]);
    expect(
      deriveHarshEvents(
        "d",
        samples([
          [0, 40],
          [1, 40 + accelAt],
        ]),
        null,
      ).events,
    ).toEqual([]);
    expect(
      deriveHarshEvents(
        "d",
        samples([
          [0, 40],
          [1, 40 + accelAt + 0.01],
        ]),
        null,
      ).events.map((e) => e.kind),
    ).toEqual(["harsh_acceleration"]);
  });

  it("needs samples 0.5–2 s apart: the same deceleration sampled more sparsely (or faster) says nothing", () => {
    const g = 0.5;
    const within = (dtS: number) =>
      deriveHarshEvents(
        "d",
        samples([
          [0, 90],
          [dtS, 90 - kmhFor(g, dtS)],
        ]),
        null,
      );
    expect(within(DENSE_MAX_INTERVAL_S).events).toHaveLength(1);
    expect(within(DENSE_MIN_INTERVAL_S).events).toHaveLength(1);
    for (const dtS of [DENSE_MAX_INTERVAL_S + 0.001, 5, 300, DENSE_MIN_INTERVAL_S - 0.001]) {
      const r = within(dtS);
      expect(r.events, `${dtS} s`).toEqual([]);
      expect(r.denseSpeedAt, `${dtS} s`).toBeNull();
    }
  });

  it("joins consecutive harsh samples of one manoeuvre into one event (start, peak, duration)", () => {
    const { events } = deriveHarshEvents(
      "d",
      samples([
        [0, 100],
        [1, 88],
        [2, 72],
        [3, 60],
        [4, 59],
      ]),
      null,
    );
    expect(events).toEqual([{ deviceId: "d", ts: at(0), kind: "harsh_braking", source: "derived", value: 0.453, durationS: 3, recordTs: at(3) }]);
  });

  it("ignores creeping (both samples under 10 km/h) and implausible jumps (above 1.5 g)", () => {
    expect(
      deriveHarshEvents(
        "d",
        samples([
          [0, 9],
          [0.5, 0],
        ]),
        null,
      ).events,
    ).toEqual([]);
    expect(
      deriveHarshEvents(
        "d",
        samples([
          [0, 100],
          [1, 40],
        ]),
        null,
      ).events,
    ).toEqual([]);
    // Dense samples of a parked car are no evidence about driving.
    expect(
      deriveHarshEvents(
        "d",
        samples([
          [0, 0],
          [1, 0],
          [2, 0],
        ]),
        null,
      ).denseSpeedAt,
    ).toBeNull();
  });

  it("pairs the batch's first sample with the state before it, when that is older", () => {
    const previous: DeviceContext["previous"] = { ts: at(0), odometerKm: null, socPct: null, sohPct: null, speedKmh: 70 };
    const r = deriveHarshEvents(
      "d",
      samples([
        [1, 58],
        [2, 58],
      ]),
      previous,
    );
    expect(r.events).toEqual([{ deviceId: "d", ts: at(0), kind: "harsh_braking", source: "derived", value: 0.34, durationS: 1, recordTs: at(1) }]);
    // A newer stored state (this batch arrives late) is not part of the sequence.
    expect(
      deriveHarshEvents(
        "d",
        samples([
          [1, 58],
          [2, 58],
        ]),
        { ...previous, ts: at(5) },
      ).events,
    ).toEqual([]);
  });
});
