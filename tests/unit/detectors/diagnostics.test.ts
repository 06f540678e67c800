import { describe, expect, it } from "vitest";
import { classifyDtc, detectDiagnostics, normaliseDtc } from "@/lib/detectors/diagnostics";
import { ctx, normalBevDay, normalIceDay, rec, t } from "./fixtures";

const run = (codes: unknown[], powertrain: "BEV" | "PHEV" | "HEV" | "ICE" | null = "ICE") =>
  detectDiagnostics({ device: ctx({ powertrain }), records: [rec({ ts: t("10:00"), dtcCodes: codes as string[] })] });
const sev = (code: string, powertrain: "BEV" | "PHEV" | "HEV" | "ICE" | null = "ICE") => run([code], powertrain).map((d) => d.severity)[0];

describe("detectDiagnostics: severity by code family", () => {
  it("misfire P0300–P0312 is CRITICAL; P0313 falls back to the powertrain default", () => {
    expect(sev("P0300")).toBe("CRITICAL");
    expect(sev("P0301")).toBe("CRITICAL");
    expect(sev("P0312")).toBe("CRITICAL");
    expect(sev("P0313")).toBe("WARNING");
    expect(sev("P030A")).toBe("WARNING");
    expect(run(["P0304"])[0]?.prediction).toContain("misfire in cylinder 4");
  });

  it("P0A** is CRITICAL on electrified powertrains, WARNING (probable data error) on ICE", () => {
    for (const p of ["BEV", "PHEV", "HEV", null] as const) expect(sev("P0A80", p)).toBe("CRITICAL");
    expect(sev("P0A80", "ICE")).toBe("WARNING");
  });

  it("chassis: the brake/ABS block C00xx–C02xx is CRITICAL, other chassis codes WARNING", () => {
    expect(sev("C0035")).toBe("CRITICAL");
    expect(sev("C0110")).toBe("CRITICAL");
    expect(sev("C02FF")).toBe("CRITICAL");
    expect(sev("C0300")).toBe("WARNING");
    expect(sev("C1234")).toBe("WARNING");
  });

  it("network codes are WARNING; U0001–U02FF are lost communication", () => {
    expect(sev("U0100")).toBe("WARNING");
    expect(run(["U0100"])[0]?.technicalData.family).toBe("lost_communication");
    expect(run(["U1000"])[0]?.technicalData.family).toBe("network");
  });

  it("catalyst P0420/P0430 WARNING, EVAP P0440–P0457 INFO, other P WARNING, restraints B00xx WARNING, other B INFO", () => {
    expect(sev("P0420")).toBe("WARNING");
    expect(sev("P0430")).toBe("WARNING");
    expect(run(["P0430"])[0]?.technicalData.family).toBe("catalyst");
    expect(sev("P0440")).toBe("INFO");
    expect(sev("P0455")).toBe("INFO");
    expect(sev("P0457")).toBe("INFO");
    expect(sev("P0458")).toBe("WARNING");
    expect(sev("P0171")).toBe("WARNING");
    expect(sev("P2463")).toBe("WARNING");
    expect(sev("B0001")).toBe("WARNING");
    expect(sev("B1000")).toBe("INFO");
    expect(sev("B0100")).toBe("INFO");
  });

  it("generic vs manufacturer-specific from the second character (SAE J2012)", () => {
    const def = (c: string) => classifyDtc(c, "ICE").definition;
    expect(def("P0420")).toBe("generic");
    expect(def("P1234")).toBe("manufacturer_specific");
    expect(def("P2463")).toBe("generic");
    expect(def("P3000")).toBe("manufacturer_specific");
    expect(def("P3400")).toBe("generic");
    expect(def("B1000")).toBe("manufacturer_specific");
    expect(def("U2100")).toBe("manufacturer_specific");
    expect(def("U3000")).toBe("generic");
    expect(def("P4000")).toBe("nonstandard");
    // the maker's own meaning is unknown: lower confidence
    expect(run(["P1234"])[0]?.confidence).toBeLessThan(run(["P0171"])[0]?.confidence ?? 0);
  });
});

describe("detectDiagnostics: batch handling", () => {
  it("one alert per code, observed at its first appearance, with evidence", () => {
    const records = [
      rec({ ts: t("08:00"), dtcCodes: [] }),
      rec({ ts: t("09:00"), dtcCodes: ["P0420"], odometerKm: 80_100 }),
      rec({ ts: t("10:00"), dtcCodes: ["P0420", "P0301"] }),
      rec({ ts: t("11:00"), dtcCodes: ["p0420", "P0420"] }),
    ];
    const drafts = detectDiagnostics({ device: ctx({ powertrain: "ICE" }), records });
    expect(drafts.map((d) => d.dedupeKey)).toEqual(["diagnostics:P0420", "diagnostics:P0301"]);
    const [cat, misfire] = drafts;
    expect(cat?.observedAt).toEqual(t("09:00"));
    expect(cat?.technicalData).toMatchObject({
      dtc_code: "P0420",
      readings_with_code: 3,
      still_present: true,
      first_seen_at: "2026-11-17T09:00:00.000Z",
      last_seen_at: "2026-11-17T11:00:00.000Z",
      odometer_km_at_first_seen: 80_100,
    });
    expect(misfire?.technicalData).toMatchObject({ still_present: false, readings_with_code: 1 });
    expect(cat?.prediction).toMatch(/^Fault code P0420 reported — catalytic converter efficiency below threshold: exhaust emissions/);
  });

  it("normalises case and whitespace, ignores malformed codes without crashing", () => {
    expect(normaliseDtc(" p0301 ")).toBe("P0301");
    expect(normaliseDtc("P03")).toBeNull();
    expect(normaliseDtc("X0301")).toBeNull();
    expect(normaliseDtc("P0G01")).toBeNull();
    expect(normaliseDtc(42)).toBeNull();
    const drafts = run(["", "P03", "PP0301", null, 42, { code: "P0301" }, "P 0301", "u0100"]);
    expect(drafts.map((d) => d.dedupeKey)).toEqual(["diagnostics:U0100"]);
    expect(detectDiagnostics({ device: ctx(), records: [rec({ ts: t("10:00"), dtcCodes: "P0301" as unknown as string[] })] })).toEqual([]);
  });

  it("is quiet without codes", () => {
    expect(detectDiagnostics(normalBevDay())).toEqual([]);
    expect(detectDiagnostics(normalIceDay())).toEqual([]);
    expect(detectDiagnostics({ device: ctx(), records: [] })).toEqual([]);
  });
});

describe("detectDiagnostics: only newly reported codes", () => {
  const prev = (dtcCodes: string[] | null) => ({ ts: t("09:00"), odometerKm: null, socPct: null, sohPct: null, dtcCodes });

  it("does not re-raise a code that was already active before the batch", () => {
    const records = [rec({ ts: t("10:00"), dtcCodes: ["P0420", "P0171"] })];
    const drafts = detectDiagnostics({ device: ctx({ powertrain: "ICE", previous: prev(["p0420"]) }), records });
    expect(drafts.map((d) => d.dedupeKey)).toEqual(["diagnostics:P0171"]);
  });

  it("raises a code that cleared and returned within the batch", () => {
    const records = [rec({ ts: t("10:00"), dtcCodes: [] }), rec({ ts: t("10:05"), dtcCodes: null }), rec({ ts: t("10:10"), dtcCodes: ["P0420"] })];
    const drafts = detectDiagnostics({ device: ctx({ powertrain: "ICE", previous: prev(["P0420"]) }), records });
    expect(drafts.map((d) => d.dedupeKey)).toEqual(["diagnostics:P0420"]);
    expect(drafts[0]?.observedAt).toEqual(t("10:10"));
  });

  it("treats records without a DTC list as silent", () => {
    const records = [rec({ ts: t("10:00"), dtcCodes: null }), rec({ ts: t("10:05"), dtcCodes: ["P0420"] })];
    expect(detectDiagnostics({ device: ctx({ powertrain: "ICE", previous: prev(["P0420"]) }), records })).toEqual([]);
  });
});
