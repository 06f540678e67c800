import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { certificateWords } from "@/lib/certificates/certificate-pdf";
import { generatedCertificateSchema } from "@/lib/schemas/certificates";
import { residualValueSchema } from "@/lib/schemas/leasing-residual";
import { batteryHealthSnapshotSchema, eolSummarySchema, vehicleHealthScoreSchema } from "@/lib/schemas/scores-device";
import { createTenantWithKey } from "../helpers/fixtures";
import { DAY, HOUR, iso, useIngestServer, type Rec } from "../helpers/ingest-api";
import { withPdfFile } from "../helpers/temp-pdf";

/**
 * CONTRACT "Evidence and trust": a certificate certifies what was measured. Constructed BEVs through
 * the real ingest, certified over HTTP on both databases:
 * - no SoH, no 12 V and no trouble codes ever (issue 27: it was grade A, "No significant findings");
 * - a 99 % SoH read 23 months before generation, nothing since (it was certified as current);
 * - the same 99 % read 90 days before generation (the limit: measured);
 * - a 95 % SoH read yesterday (measured).
 */

const server = useIngestServer();
const NOW = Date.now();
type Tenant = Awaited<ReturnType<typeof createTenantWithKey>>;
let t: Tenant;

const vehicle = { make: "Kia", model: "EV6", year: 2024, powertrain: "BEV", battery_kwh: 77.4, original_price_eur: 52_000 };

/** 20 days of a parked BEV's daily readings (odometer +40 km a day); `extra` adds fields per day. */
function days(deviceId: string, vin: string, extra: (day: number) => Rec = () => ({})): Rec[] {
  return Array.from({ length: 20 }, (_, i) => ({
    vin,
    device_id: deviceId,
    timestamp: iso(NOW - (20 - i) * DAY + 8 * HOUR),
    odometer_km: 21_000 + 40 * i,
    soc_percent: 64,
    speed_kmh: 0,
    lat: 60.17,
    lon: 24.94,
    raw_data: { vehicle },
    ...extra(i),
  }));
}

const post = (p: string) => server.app.fetch(`/api/v1${p}`, { key: t.key, method: "POST" });
const get = (p: string) => server.app.fetch(`/api/v1${p}`, { key: t.key });

async function certify(deviceId: string) {
  const res = await post(`/certificates/generate/${deviceId}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return generatedCertificateSchema.parse(await res.json());
}

beforeAll(async () => {
  t = await createTenantWithKey(server.tdb.handle.db, { name: "Evidence" });
  const oldReading = (deviceId: string, vin: string, daysAgo: number): Rec => ({
    vin,
    device_id: deviceId,
    timestamp: iso(NOW - daysAgo * DAY),
    odometer_km: 20_000,
    soh_percent: 99,
    raw_data: { vehicle },
  });
  await server.ingestAs(t, [
    ...days("ev-unmeasured", "KNAC381A0R5100001"),
    oldReading("ev-old-soh", "KNAC381A0R5100002", 700),
    ...days("ev-old-soh", "KNAC381A0R5100002"),
    oldReading("ev-limit-soh", "KNAC381A0R5100003", 89.9),
    ...days("ev-limit-soh", "KNAC381A0R5100003"),
    ...days("ev-measured", "KNAC381A0R5100004", () => ({ soh_percent: 95, battery_voltage: 12.6, dtc_codes: [] })),
  ]);
}, 180_000);

describe("a BEV whose battery was never measured", () => {
  it("is not certified A: grade at most C, confidence low, the snapshot says the SoH was not measured", async () => {
    const c = await certify("ev-unmeasured");
    expect(["C", "D", "F"]).toContain(c.grade);
    expect(c.confidence).toBe("low");
    expect(c.data_snapshot.condition).toMatchObject({ grade: c.grade, confidence: "low" });
    const soh = c.data_snapshot.battery.state_of_health;
    expect(soh).toMatchObject({ value_pct: null, measured_by: "not_measured", measured_at: null });
    expect(soh.definition).toMatch(/^Not measured: no plausible state-of-health reading was ever received/);
    expect(soh.evidence).toMatchObject({ status: "none", max_age_days: 90, last_reading_pct: null });
    expect(c.data_snapshot.methods.certificate).toBe("fdp-certificate-2027.02");
  });

  it("the EOL summary (endpoint 7) gives the same capped grade and says why", async () => {
    const eol = eolSummarySchema.parse(await (await get("/vehicles/ev-unmeasured/eol-summary")).json());
    expect(eol.condition_grade).toBe("C");
    expect(eol.confidence).toBe("low");
    expect(eol.soh_evidence.status).toBe("none");
    expect(eol.limitations.join(" ")).toMatch(/at most C/);
  });
});

describe("a BEV whose only SoH reading is 23 months old", () => {
  it("is not certified on it: no SoH value, the last reading and its age in words, grade at most C, confidence low", async () => {
    const c = await certify("ev-old-soh");
    expect(["C", "D", "F"]).toContain(c.grade);
    expect(c.confidence).toBe("low");
    const soh = c.data_snapshot.battery.state_of_health;
    expect(soh.value_pct).toBeNull();
    expect(soh.measured_by).toBe("not_measured");
    expect(soh.evidence).toMatchObject({ status: "outdated", last_reading_pct: 99, age_days: 700 });
    expect(soh.definition).toMatch(new RegExp(`last read on ${iso(NOW - 700 * DAY).slice(0, 10)} \\(99 %\\), 700 days before this certificate`));

    // The PDF and the verify page (both worded by certificateWords) say it plainly.
    const words = certificateWords(c);
    const row = words.sections.find((x) => x.title === "Traction battery")!.rows.find((r) => r.label === "State of health")!;
    expect(row.value).toBe("not measured");
    expect(row.note).toMatch(/^Not measured: the battery's state of health was last read on/);
    expect(words.grade_explanation).toMatch(/not measured within 90 days of this certificate, so the grade is at most C/);
    const text = withPdfFile(Buffer.from(c.pdf_base64!, "base64"), (file) => execFileSync("pdftotext", [file, "-"], { encoding: "utf8" })).replace(/\s+/g, " ");
    expect(text).toContain("Not measured: the battery's state of health was last read on");
    expect(text).toContain("so the grade is at most C");
  });

  it("battery snapshot, vehicle health and EOL apply the same rule and say so", async () => {
    const battery = batteryHealthSnapshotSchema.parse(await (await get("/vehicles/ev-old-soh/battery-health-snapshot")).json());
    expect(battery.data_quality.soh_pct).toBeNull();
    expect(battery.data_quality.missing_fields).toContain("soh_pct");
    expect(battery.data_quality.soh_evidence).toMatchObject({ status: "outdated", last_reading_pct: 99, age_days: 700 });
    expect(battery.data_quality.range_model?.soh_applied).toBe(false);

    const health = vehicleHealthScoreSchema.parse(await (await get("/scores/vehicle-health/ev-old-soh")).json());
    expect(health.components.battery).toBeNull();
    expect(health.missing_signals).toContain("soh_pct");
    expect(health.soh_evidence.status).toBe("outdated");

    const eol = eolSummarySchema.parse(await (await get("/vehicles/ev-old-soh/eol-summary")).json());
    expect(eol.condition_grade).toBe("C");
    expect(eol.soh_evidence).toMatchObject({ status: "outdated", age_days: 700 });
  });

  it("both residual values apply the same rule and say so: no credit for the 99 % read 23 months ago", async () => {
    const rules = residualValueSchema.parse(await (await get("/vehicles/ev-old-soh/residual-value")).json());
    expect(rules.factors.battery_soh_pct).toBeNull();
    expect(rules.data_quality.battery_soh_status).toBe("outdated");
    expect(rules.depreciation_curve.battery_penalty_pct).toBe(0);
    expect(rules.data_quality.notes.join(" ")).toMatch(/99 % on .* is 700 days old/);
    const model = (await (await get("/predict/residual-value/ev-old-soh")).json()) as { inputs: Record<string, { source: string; value: unknown }>; limitations: string[] };
    expect(model.inputs.battery_soh_pct!.source).toBe("telemetry.outdated_soh_upper_bound");
    expect(model.inputs.battery_soh_pct!.value).not.toBe(99);
    expect(model.limitations.join(" ")).toMatch(/700 days old/);
  });
});

describe("SoH readings within 90 days", () => {
  it("a reading 89.9 days before generation is certified, with its date", async () => {
    const c = await certify("ev-limit-soh");
    const soh = c.data_snapshot.battery.state_of_health;
    expect(soh).toMatchObject({ value_pct: 99, measured_by: "oem_bms_readout" });
    expect(soh.evidence).toMatchObject({ status: "measured", age_days: 89 });
    expect(soh.measured_at).toBe(iso(NOW - 89.9 * DAY));
  });

  it("a BEV measured within the last day, with 12 V and trouble codes reported, can be certified above C", async () => {
    const c = await certify("ev-measured");
    expect(["A", "B"]).toContain(c.grade);
    expect(c.confidence).not.toBe("low");
    expect(c.data_snapshot.battery.state_of_health).toMatchObject({ value_pct: 95, measured_by: "oem_bms_readout", evidence: { status: "measured", age_days: 0 } });
  });
});
