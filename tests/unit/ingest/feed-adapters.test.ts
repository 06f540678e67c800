import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adaptFeedDocuments, fastFeedRecord, feedRecordSchema } from "@/lib/ingest/adapters/adapt-feed";
import { FEED_FORMATS, type FeedFormat } from "@/lib/vocabulary/feeds";
import { adaptTesla } from "@/lib/ingest/adapters/tesla";
import { adaptTraccar } from "@/lib/ingest/adapters/traccar";

/**
 * The feed adapters (CONTRACT "Feeds", docs/feeds.md) on documents built from each source's published
 * definitions: Traccar's org.traccar.model.Position / Device as its JSON forwarding serialises them
 * (attribute keys are Position.KEY_*), and the protobuf-JSON form of Tesla Fleet Telemetry's
 * `Payload` (vehicle_data.proto: `Datum {key, value}`, `Value` a oneof of typed members).
 */

/** A Teltonika FMB920 behind Traccar 6, as `forward.type=json` posts it. */
function traccarDocument(over: { position?: Record<string, unknown>; attributes?: Record<string, unknown>; device?: Record<string, unknown> } = {}) {
  return {
    position: {
      id: 912345,
      deviceId: 17,
      protocol: "teltonika",
      serverTime: "2026-11-21T08:00:03.000+00:00",
      deviceTime: "2026-11-21T07:59:59.000+00:00",
      fixTime: "2026-11-21T08:00:00.000+00:00",
      outdated: false,
      valid: true,
      latitude: 60.1699,
      longitude: 24.9384,
      altitude: 12,
      speed: 27, // knots
      course: 181,
      address: null,
      accuracy: 0,
      network: null,
      geofenceIds: null,
      attributes: {
        priority: 0,
        sat: 14,
        event: 0,
        ignition: true,
        motion: true,
        rssi: 4,
        io69: 1,
        power: 13.9, // V
        battery: 4.1, // V, the tracker's own
        batteryLevel: 100, // %, the tracker's own
        odometer: 18_250_400, // m
        totalDistance: 18_301_112.5, // m
        hours: 4_320_000_000, // ms
        fuel: 31.5, // litres
        obdSpeed: 51,
        dtcs: "P0420 p0171 X9999",
        distance: 14.2,
        ...over.attributes,
      },
      ...over.position,
    },
    device: {
      id: 17,
      name: "Van 12 (ABC-123)",
      uniqueId: "356307042441013",
      status: "online",
      disabled: false,
      lastUpdate: "2026-11-21T08:00:03.000+00:00",
      positionId: 912344,
      groupId: 0,
      phone: null,
      model: "Transit Custom",
      contact: null,
      category: "van",
      attributes: {},
      ...over.device,
    },
  };
}

/** A Model 3 through Tesla's fleet-telemetry server with `transmit_decoded_records` (protobuf JSON). */
function teslaPayload(data: { key: string; value: Record<string, unknown> }[] = [], over: Record<string, unknown> = {}) {
  return {
    data: [
      { key: "VehicleSpeed", value: { stringValue: "40.0" } }, // mph
      { key: "Odometer", value: { stringValue: "11340.25" } }, // miles
      { key: "Soc", value: { stringValue: "71.3" } },
      { key: "BatteryLevel", value: { stringValue: "69" } },
      { key: "Location", value: { locationValue: { latitude: 59.3293, longitude: 18.0686 } } },
      { key: "DetailedChargeState", value: { detailedChargeStateValue: "DetailedChargeStateDisconnected" } },
      { key: "OutsideTemp", value: { doubleValue: -4.5 } },
      { key: "CarType", value: { carTypeValue: "CarTypeModel3" } },
      { key: "Trim", value: { stringValue: "LR AWD" } },
      { key: "Gear", value: { shiftStateValue: "ShiftStateD" } },
      { key: "PackVoltage", value: { stringValue: "398.2" } },
      ...data,
    ],
    createdAt: "2026-11-21T08:00:00.123Z",
    vin: "5YJ3E7EB2KF123456",
    ...over,
  };
}

/** The records a body gives; fails the test on a refusal. */
function adaptFeed(format: FeedFormat, body: unknown) {
  const adapted = adaptFeedDocuments(format, body, new Date());
  if (!adapted.ok) throw new Error(`refused: ${JSON.stringify(adapted.issues)}`);
  return adapted.body;
}

/** A refusal's details as the endpoints answer them (lib/validation.ts: a path joined with dots, the root `(body)`). */
function refusal(format: FeedFormat, body: unknown) {
  const adapted = adaptFeedDocuments(format, body, new Date());
  if (adapted.ok) throw new Error("expected a refusal");
  return adapted.issues.map((issue) => ({ field: issue.path.join(".") || "(body)", message: issue.message }));
}

describe("Traccar adapter", () => {
  it("maps the unit traps: knots to km/h, metres to km, milliseconds to hours", () => {
    const [r] = adaptFeed("traccar", traccarDocument()).vehicles;
    expect(r).toMatchObject({
      device_id: "traccar-356307042441013",
      vin: null,
      timestamp: "2026-11-21T08:00:00.000+00:00",
      speed_kmh: 50.004, // 27 kn × 1.852
      odometer_km: 18250.4,
      lat: 60.1699,
      lon: 24.9384,
      battery_voltage: 13.9,
      engine_hours: 1200,
      dtc_codes: ["P0420", "P0171"],
    });
    // The tracker's own battery is not the vehicle's state of charge, and litres are not a fuel level in percent.
    expect(r?.soc_percent).toBeUndefined();
    expect(r?.fuel_level_pct).toBeUndefined();
    expect(r?.raw_data).toMatchObject({ ignition: true, vehicle: { model: "Transit Custom", asset_class: "light_commercial" } });
    // Everything Traccar sent stays in raw_data, the attributes FDP does not read included.
    expect((r?.raw_data as { traccar: { position: { attributes: Record<string, unknown> } } }).traccar.position.attributes).toMatchObject({ fuel: 31.5, obdSpeed: 51, io69: 1 });
  });

  it("takes totalDistance when the odometer is missing, deviceTime when fixTime is, and the VIN when the tracker reads it", () => {
    const doc = traccarDocument({ attributes: { odometer: undefined, vin: "WF0XXXTTGXKA12345" }, position: { fixTime: null } });
    const [r] = adaptFeed("traccar", doc).vehicles;
    expect(r).toMatchObject({ odometer_km: 18301.1125, timestamp: "2026-11-21T07:59:59.000+00:00", vin: "WF0XXXTTGXKA12345" });
  });

  it("reports no position and no speed for a fix Traccar marks invalid or outdated", () => {
    for (const position of [{ valid: false }, { outdated: true }]) {
      const [r] = adaptFeed("traccar", traccarDocument({ position })).vehicles;
      expect(r).toMatchObject({ lat: null, lon: null, speed_kmh: null, odometer_km: 18250.4 });
    }
  });

  it("takes an outdated position's own time (deviceTime), not the previous fix's", () => {
    const doc = traccarDocument({ position: { outdated: true, fixTime: "1980-01-06T00:00:00.000+00:00", deviceTime: "2026-11-21T09:30:00.000+00:00" } });
    const [r] = adaptFeed("traccar", doc).vehicles;
    expect(r).toMatchObject({ timestamp: "2026-11-21T09:30:00.000+00:00", lat: null, speed_kmh: null, odometer_km: 18250.4 });
  });

  it("refuses a time more than 10 minutes ahead at the source's field", () => {
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    expect(refusal("traccar", [traccarDocument(), traccarDocument({ position: { fixTime: ahead } })])).toEqual([
      { field: "1.position.fixTime", message: "is more than 10 minutes in the future" },
    ]);
  });

  it("reads numbers sent as strings, and refuses strings that are not numbers, naming Traccar's field", () => {
    const [r] = adaptFeed("traccar", traccarDocument({ attributes: { power: "12.7", odometer: "1000" } })).vehicles;
    expect(r).toMatchObject({ battery_voltage: 12.7, odometer_km: 1 });
    expect(refusal("traccar", traccarDocument({ attributes: { power: "12,7 V" } }))).toEqual([{ field: "position.attributes.power", message: "must be a number (volts)" }]);
    expect(refusal("traccar", traccarDocument({ position: { speed: "fast" } }))).toEqual([{ field: "position.speed", message: "must be a number (knots)" }]);
    // Number() would read these; a sensor does not send them.
    for (const speed of ["0x10", "0b11", "Infinity", "1_000", ""]) {
      expect(refusal("traccar", traccarDocument({ position: { speed } }))).toEqual([{ field: "position.speed", message: "must be a number (knots)" }]);
    }
  });

  it("names the source's fields when a mapped value breaks an ingest rule, with the document's index in an array", () => {
    const details = refusal("traccar", [traccarDocument(), traccarDocument({ position: { speed: 400, fixTime: "yesterday" }, device: { uniqueId: "a/b" } })]);
    expect(details.map((d) => d.field).sort()).toEqual(["1.device.uniqueId", "1.position.fixTime", "1.position.speed"]);
    expect(details.find((d) => d.field === "1.position.speed")?.message).toBe("must be at most 500 km/h (knots × 1.852 = km/h)");
  });

  it("refuses a document without its device, its unique id or its time", () => {
    expect(refusal("traccar", { position: traccarDocument().position })).toEqual([{ field: "device", message: expect.stringContaining("is required") }]);
    expect(refusal("traccar", traccarDocument({ device: { uniqueId: " " }, position: { fixTime: null, deviceTime: null } })).map((d) => d.field)).toEqual([
      "device.uniqueId",
      "position.deviceTime",
    ]);
  });

  it("keeps unknown attributes and leaves an unmapped category to the default asset class", () => {
    const [r] = adaptFeed("traccar", traccarDocument({ attributes: { "custom.sensor": { nested: [1, 2] } }, device: { category: "boat", model: null } })).vehicles;
    expect(r?.raw_data?.vehicle).toBeUndefined();
    expect((r?.raw_data as { traccar: { position: { attributes: Record<string, unknown> } } }).traccar.position.attributes["custom.sensor"]).toEqual({ nested: [1, 2] });
    for (const category of ["constructor", "__proto__", "toString"]) {
      expect(adaptFeed("traccar", traccarDocument({ device: { category, model: null } })).vehicles[0]?.raw_data?.vehicle).toBeUndefined();
    }
  });

  it("refuses a NUL character anywhere in the document at its place, as endpoint 16 does in raw_data", () => {
    const details = refusal("traccar", traccarDocument({ device: { name: "Van\u0000 12" } }));
    expect(details).toEqual([{ field: "device.name", message: expect.stringContaining("NUL") }]);
  });
});

describe("Tesla adapter", () => {
  it("maps the unit traps: mph to km/h, miles to km, strings to numbers; Soc before BatteryLevel", () => {
    const [r] = adaptFeed("tesla", teslaPayload()).vehicles;
    expect(r).toMatchObject({
      device_id: "oem-5YJ3E7EB2KF123456",
      vin: "5YJ3E7EB2KF123456",
      timestamp: "2026-11-21T08:00:00.123Z",
      speed_kmh: 64.37376, // 40 mph × 1.609344
      odometer_km: 18250.3633, // 11,340.25 mi × 1.609344 = 18,250.363296 km, to 9 significant digits
      soc_percent: 71.3,
      lat: 59.3293,
      lon: 18.0686,
      charging_status: "disconnected",
      raw_data: { ambient_temp_c: -4.5, vehicle: { make: "Tesla", powertrain: "BEV", model: "Model 3" } },
    });
    // The pack voltage is the traction battery's, not the 12 V battery's: kept, not mapped.
    expect(r?.battery_voltage).toBeUndefined();
    expect((r?.raw_data as { tesla: Record<string, unknown> }).tesla).toMatchObject({ PackVoltage: { stringValue: "398.2" }, Trim: { stringValue: "LR AWD" } });
  });

  it("reads every typed number member (int64 as a string included) and falls back to BatteryLevel", () => {
    const payload = teslaPayload([], {
      data: [
        { key: "VehicleSpeed", value: { floatValue: 10 } },
        { key: "Odometer", value: { longValue: "1000" } },
        { key: "BatteryLevel", value: { intValue: 55 } },
        { key: "DCChargingPower", value: { doubleValue: 0 } },
        { key: "ACChargingPower", value: { stringValue: "11.0" } },
      ],
    });
    const [r] = adaptFeed("tesla", payload).vehicles;
    expect(r).toMatchObject({ speed_kmh: 16.09344, odometer_km: 1609.344, soc_percent: 55, raw_data: { charging_power_kw: 11 } });
    // The DC power while a DC charge flows, else the AC power, else whatever of the two was sent.
    const power = (data: { key: string; value: Record<string, unknown> }[]) => adaptFeed("tesla", teslaPayload([], { data })).vehicles[0]?.raw_data?.charging_power_kw;
    expect(
      power([
        { key: "DCChargingPower", value: { doubleValue: 48 } },
        { key: "ACChargingPower", value: { doubleValue: 0 } },
      ]),
    ).toBe(48);
    expect(power([{ key: "DCChargingPower", value: { doubleValue: 0 } }])).toBe(0);
    expect(power([{ key: "ACChargingPower", value: { doubleValue: 7.4 } }])).toBe(7.4);
    expect(power([])).toBeUndefined();
  });

  it("maps charge states to FDP's charging words, the detailed state first", () => {
    const state = (data: { key: string; value: Record<string, unknown> }[]) => adaptFeed("tesla", teslaPayload([], { data })).vehicles[0]?.charging_status;
    expect(state([{ key: "DetailedChargeState", value: { detailedChargeStateValue: "DetailedChargeStateCharging" } }])).toBe("charging");
    expect(state([{ key: "ChargeState", value: { chargingValue: "ChargeStateNoPower" } }])).toBe("not_charging");
    expect(state([{ key: "ChargeState", value: { stringValue: "Complete" } }])).toBe("complete");
    expect(
      state([
        { key: "ChargeState", value: { chargingValue: "ChargeStateCharging" } },
        { key: "DetailedChargeState", value: { detailedChargeStateValue: "DetailedChargeStateStopped" } },
      ]),
    ).toBe("stopped");
    expect(state([{ key: "DetailedChargeState", value: { detailedChargeStateValue: "DetailedChargeStateUnknown" } }])).toBeNull();
    expect(state([{ key: "DetailedChargeState", value: { stringValue: "constructor" } }])).toBeNull();
    // A detailed state marked invalid is not reported: the older state stands in.
    expect(
      state([
        { key: "DetailedChargeState", value: { invalid: true } },
        { key: "ChargeState", value: { stringValue: "Charging" } },
      ]),
    ).toBe("charging");
  });

  it("treats a value marked invalid as not reported", () => {
    const [r] = adaptFeed(
      "tesla",
      teslaPayload([], {
        data: [
          { key: "Soc", value: { invalid: true } },
          { key: "BatteryLevel", value: { stringValue: "64" } },
        ],
      }),
    ).vehicles;
    expect(r?.soc_percent).toBe(64);
    const [s] = adaptFeed("tesla", teslaPayload([], { data: [{ key: "VehicleSpeed", value: { invalid: true } }] })).vehicles;
    expect(s?.speed_kmh).toBeNull();
  });

  it("keeps unknown keys in raw_data, never an error, a key named like a prototype member or isResend included", () => {
    const payload = teslaPayload(
      [
        { key: "SomeFieldFrom2027", value: { fancyNewValue: { a: 1 } } },
        { key: "__proto__", value: { stringValue: "x" } },
        { key: "isResend", value: { booleanValue: false } },
      ],
      { isResend: true },
    );
    const [r] = adaptFeed("tesla", payload).vehicles;
    const tesla = (r?.raw_data as { tesla: Record<string, unknown> }).tesla;
    expect(tesla.SomeFieldFrom2027).toEqual({ fancyNewValue: { a: 1 } });
    expect(Object.getOwnPropertyDescriptor(tesla, "__proto__")?.value).toEqual({ stringValue: "x" });
    expect(Object.getPrototypeOf(tesla)).toBe(Object.prototype);
    expect(tesla.isResend).toEqual({ booleanValue: false });
    expect(r?.raw_data?.tesla_is_resend).toBe(true);
  });

  it("accepts a key repeated with the same value", () => {
    expect(adaptFeed("tesla", teslaPayload([{ key: "Odometer", value: { stringValue: "11340.25" } }])).vehicles[0]?.odometer_km).toBe(18250.3633);
  });

  it("refuses strings that are not numbers, a key repeated with another value, a payload without a VIN, each at its place", () => {
    expect(refusal("tesla", teslaPayload([], { data: [{ key: "VehicleSpeed", value: { stringValue: "fast" } }] }))).toEqual([
      { field: "data.0.value.stringValue", message: "must be a number (mph)" },
    ]);
    expect(refusal("tesla", teslaPayload([{ key: "Soc", value: { stringValue: "12" } }])).map((d) => d.field)).toEqual(["data.11"]);
    expect(refusal("tesla", teslaPayload([], { vin: undefined })).map((d) => d.field)).toEqual(["vin"]);
    expect(refusal("tesla", teslaPayload([], { data: [{ key: "Soc", value: { stringValue: "140" } }] }))).toEqual([
      { field: "data.0.value.stringValue", message: "must be at most 100 %" },
    ]);
    // A limit in FDP's unit says how the source's value was converted.
    expect(refusal("tesla", teslaPayload([], { data: [{ key: "VehicleSpeed", value: { doubleValue: 400 } }] }))).toEqual([
      { field: "data.0.value.doubleValue", message: "must be at most 500 km/h (mph × 1.609344 = km/h)" },
    ]);
    expect(refusal("tesla", teslaPayload([], { data: [5] }))).toEqual([{ field: "data.0", message: expect.stringContaining("must be a Datum") }]);
    // One problem per place: a VIN FDP cannot file is not also reported as a bad device id.
    expect(refusal("tesla", teslaPayload([], { vin: "5YJ 3E7" }))).toEqual([{ field: "vin", message: expect.any(String) }]);
  });

  it("accepts the proto field name created_at beside createdAt", () => {
    const payload = { ...teslaPayload(), createdAt: undefined, created_at: "2026-11-21T09:00:00Z" };
    expect(adaptFeed("tesla", payload).vehicles[0]?.timestamp).toBe("2026-11-21T09:00:00Z");
  });
});

describe("feed bodies", () => {
  // More than 10,000 documents is a 413 before the adapters run: tests/api/feeds.test.ts.
  it("takes one document or an array of them, and refuses an empty array", () => {
    expect(adaptFeed("traccar", [traccarDocument(), traccarDocument({ device: { uniqueId: "2" } })]).vehicles.map((v) => v.device_id)).toEqual([
      "traccar-356307042441013",
      "traccar-2",
    ]);
    expect(refusal("tesla", [])).toEqual([{ field: "(body)", message: "must hold at least one document" }]);
  });

  it("never throws on arbitrary JSON: the adapters and the whole body give records or a refusal", () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const shaped = fc.oneof(
      anyJson,
      fc.record({ position: fc.oneof(anyJson, fc.dictionary(fc.constantFrom("speed", "fixTime", "latitude", "valid", "attributes"), anyJson)), device: anyJson }),
      fc.record({
        vin: anyJson,
        createdAt: anyJson,
        data: fc.array(fc.record({ key: fc.oneof(fc.constantFrom("Soc", "Location", "VehicleSpeed", "CarType"), fc.string()), value: anyJson })),
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...FEED_FORMATS), shaped, (format, body) => {
        expect(() => (format === "traccar" ? adaptTraccar(body) : adaptTesla(body))).not.toThrow();
        const adapted = adaptFeedDocuments(format, body, new Date());
        expect(adapted.ok || adapted.issues.length > 0).toBe(true);
      }),
      { seed: Number(process.env.FUZZ_SEED ?? 1), numRuns: 500 },
    );
  });

  it("validates adapted records on endpoint 16's fast path exactly as zod does: same answer, same refusals", () => {
    // Mostly plausible readings, now and then one out of range, a string or something else.
    const value = fc.oneof(
      { weight: 12, arbitrary: fc.double({ noNaN: true, min: 0, max: 90 }) },
      { weight: 1, arbitrary: fc.integer({ min: -10, max: 6_000_000 }) },
      { weight: 1, arbitrary: fc.constantFrom("12.5", " 7 ", "x", null, true, -0) },
    );
    const time = fc.oneof(
      { weight: 12, arbitrary: fc.date({ min: new Date("1999-12-31T00:00:00Z"), max: new Date("2026-11-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()) },
      { weight: 1, arbitrary: fc.constantFrom("2026-11-21T08:00:00+02:00", "2026-11-21 08:00:00", "yesterday") },
    );
    const traccar = fc
      .record({
        speed: value,
        lat: value,
        lon: value,
        odometer: value,
        power: value,
        hours: value,
        time,
        vin: fc.constantFrom(undefined, "WF0XXXTTGXKA12345", " W F0 ", "a".repeat(70)),
        uniqueId: fc.constantFrom("356307042441013", "a/b", 42, "x".repeat(125)),
        dtcs: fc.constantFrom(undefined, "P0420", "P0420 XX", ""),
      })
      .map((r) =>
        traccarDocument({
          position: { speed: r.speed, latitude: r.lat, longitude: r.lon, fixTime: r.time },
          attributes: { odometer: r.odometer, power: r.power, hours: r.hours, vin: r.vin, dtcs: r.dtcs },
          device: { uniqueId: r.uniqueId },
        }),
      );
    const tesla = fc
      .record({ speed: value, soc: value, odometer: value, time, vin: fc.constantFrom("5YJ3E7EB2KF123456", "5YJ 3E", "b".repeat(70)), temp: value, kw: value })
      .map((r) =>
        teslaPayload([], {
          vin: r.vin,
          createdAt: r.time,
          data: [
            { key: "VehicleSpeed", value: { stringValue: String(r.speed) } },
            { key: "Soc", value: { doubleValue: r.soc } },
            { key: "Odometer", value: { longValue: String(r.odometer) } },
            { key: "OutsideTemp", value: { doubleValue: r.temp } },
            { key: "DCChargingPower", value: { doubleValue: r.kw } },
          ],
        }),
      );
    let fastAnswers = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          traccar.map((d) => adaptTraccar(d)),
          tesla.map((d) => adaptTesla(d)),
        ),
        (adapted) => {
          if (!adapted.ok) return;
          const zod = feedRecordSchema.safeParse(adapted.record);
          const fast = fastFeedRecord(adapted.record);
          if (fast === undefined) return; // zod decides (and words the refusal)
          fastAnswers++;
          expect(zod.success).toBe(true);
          expect(fast).toStrictEqual(zod.data);
          expect(JSON.stringify(fast)).toBe(JSON.stringify(zod.data));
        },
      ),
      { seed: Number(process.env.FUZZ_SEED ?? 1), numRuns: 1000 },
    );
    // The fast path answers most records of a healthy feed; zod is the fallback, not the rule.
    expect(fastAnswers).toBeGreaterThan(50);
    const healthy = adaptTraccar(traccarDocument());
    expect(healthy.ok && fastFeedRecord(healthy.record)).toBeTruthy();
  });
});
