import { diagnosticsKey, type Severity } from "@/lib/vocabulary/alerts";
import { hasTractionBattery } from "@/lib/vocabulary/powertrain";
import { corroborated, iso, makeDraft, sortedByTs, tsMs } from "./common";
import type { AlertDraft, Detector, DeviceContext, TelemetryRecord } from "./types";

/**
 * Diagnostics detector: one alert per diagnostic trouble code (DTC) reported in the batch, its
 * severity from the code's family (SAE J2012 / ISO 15031-6 structure). Rules and sources:
 * docs/methodology/alerts.md#diagnostics.
 */

/** The shape ingest accepts: a system letter and four hex digits (SAE J2012 five-character form). */
const DTC_PATTERN = /^[PCBU][0-9A-F]{4}$/;

const SYSTEMS = { P: "powertrain", C: "chassis", B: "body", U: "network" } as const;
type SystemLetter = keyof typeof SYSTEMS;

export type DtcFamily =
  "misfire" | "hybrid_ev_propulsion" | "brake_abs" | "chassis" | "lost_communication" | "network" | "catalyst" | "evap" | "restraints" | "powertrain" | "body";

interface DtcClassification {
  code: string;
  system: (typeof SYSTEMS)[SystemLetter];
  /** SAE-defined (generic) or manufacturer-specific, from the second character. */
  definition: "generic" | "manufacturer_specific" | "nonstandard";
  family: DtcFamily;
  severity: Severity;
  /** Plain-English consequence and advice, without the code. */
  advice: string;
  title: string;
}

/** Upper-cased, trimmed code, or null when it does not have the DTC shape. */
export function normaliseDtc(code: unknown): string | null {
  if (typeof code !== "string") return null;
  const c = code.trim().toUpperCase();
  return DTC_PATTERN.test(c) ? c : null;
}

/**
 * SAE J2012: the second character is 0–3 (two bits of the encoded DTC). P0, P2 and P34–P39 are
 * SAE-defined, P1 and P30–P33 manufacturer-specific; for B, C and U, 0 and 3 are SAE-defined and 1 and 2
 * manufacturer-specific. 4–F cannot be encoded in J2012 and are reported as non-standard.
 */
function definitionOf(code: string): DtcClassification["definition"] {
  const letter = code[0] as SystemLetter;
  const d = code[1] ?? "";
  if (!"0123".includes(d)) return "nonstandard";
  if (letter === "P") {
    if (d === "1") return "manufacturer_specific";
    if (d === "3") return parseInt(code[2] ?? "0", 16) <= 3 ? "manufacturer_specific" : "generic";
    return "generic";
  }
  return d === "1" || d === "2" ? "manufacturer_specific" : "generic";
}

/** The four characters after the letter as a number: J2012 numbers codes in hexadecimal (P0A0F follows P0A0E). */
const hexOf = (code: string): number => parseInt(code.slice(1), 16);

/** Inclusive range test in J2012's hexadecimal order on codes of the same letter, e.g. inRange(code, "C0000", "C02FF"). */
function inRange(code: string, from: string, to: string): boolean {
  return code[0] === from[0] && hexOf(code) >= hexOf(from) && hexOf(code) <= hexOf(to);
}

export function classifyDtc(code: string, powertrain: DeviceContext["powertrain"]): DtcClassification {
  const letter = code[0] as SystemLetter;
  const base = { code, system: SYSTEMS[letter], definition: definitionOf(code) };

  const misfire = /^P03(0[0-9]|1[0-2])$/.exec(code);
  if (misfire) {
    const cyl = parseInt(code.slice(3), 10);
    return {
      ...base,
      family: "misfire",
      severity: "CRITICAL",
      title: cyl === 0 ? "random/multiple-cylinder misfire" : `misfire in cylinder ${cyl}`,
      advice:
        "unburnt fuel from misfires overheats and can destroy the catalytic converter within a short drive; limit driving and have ignition coils, plugs and injectors checked at once",
    };
  }
  if (code.startsWith("P0A")) {
    // An unknown powertrain may well have a traction battery: judged like one.
    const electrified = hasTractionBattery(powertrain) !== false;
    return {
      ...base,
      family: "hybrid_ev_propulsion",
      severity: electrified ? "CRITICAL" : "WARNING",
      title: "hybrid/EV battery or drive system fault",
      advice: electrified
        ? "expect reduced power, a no-start or a stop by the roadside; have a dealer inspect the high-voltage system before further use"
        : "a hybrid/EV drive code on a vehicle registered as combustion-only, so the powertrain master data or the OEM mapping is probably wrong; check it",
    };
  }
  if (inRange(code, "C0000", "C02FF")) {
    return {
      ...base,
      family: "brake_abs",
      severity: "CRITICAL",
      title: "brake / ABS / stability-control fault",
      advice:
        "anti-lock braking and stability control may be switched off, so wheels can lock under hard braking; the base brakes still work, but repair it before normal use; a lit ABS warning is a major deficiency at periodic inspection",
    };
  }
  if (letter === "C") {
    return {
      ...base,
      family: "chassis",
      severity: "WARNING",
      title: "chassis fault (steering, suspension, wheels or brakes)",
      advice: "steering assistance, suspension or braking aids may be limited; have it checked soon",
    };
  }
  if (letter === "U") {
    const lostComm = inRange(code, "U0001", "U02FF");
    return {
      ...base,
      family: lostComm ? "lost_communication" : "network",
      severity: "WARNING",
      title: lostComm ? "lost communication between control modules" : "vehicle network fault",
      advice: "functions that depend on the silent module may stop working and the vehicle may not start; check the module's wiring, connectors and 12 V supply",
    };
  }
  if (/^P04[23][0-9]$/.test(code)) {
    return {
      ...base,
      family: "catalyst",
      severity: "WARNING",
      title: "catalytic converter efficiency below threshold",
      advice: "exhaust emissions are above the legal limit, so the vehicle will probably fail its next periodic emissions inspection; plan a repair",
    };
  }
  if (/^P04(4[0-9]|5[0-7])$/.test(code)) {
    return {
      ...base,
      family: "evap",
      severity: "INFO",
      title: "fuel vapour (EVAP) system leak or fault",
      advice: "often a loose or worn fuel cap; no effect on driving, but fuel vapour escapes; check the cap and have it looked at during the next service",
    };
  }
  if (inRange(code, "B0000", "B00FF")) {
    return {
      ...base,
      family: "restraints",
      severity: "WARNING",
      title: "airbag / restraint system fault",
      advice: "an airbag or seat-belt pretensioner may not fire in a crash; have the restraint system repaired promptly",
    };
  }
  if (letter === "P") {
    return {
      ...base,
      family: "powertrain",
      severity: "WARNING",
      title: "powertrain fault",
      advice: "the engine/drive warning lamp is probably on; have it diagnosed soon to avoid a larger repair",
    };
  }
  return {
    ...base,
    family: "body",
    severity: "INFO",
    title: "body electronics fault (lighting, locks, climate or comfort)",
    advice: "no effect on driving is expected; fix it at the next service",
  };
}

export const detectDiagnostics: Detector = ({ device, records }) => {
  const sorted = sortedByTs(records);
  const seen = new Map<string, { first: TelemetryRecord; last: TelemetryRecord; readings: number }>();
  // A code already active in the state FDP held before this batch is not news: it was raised then
  // (and, if acknowledged since, the fleet manager knows). A code that clears (a reported list
  // without it) and later returns is new. Records without a DTC list say nothing either way.
  let active = new Set((device.previous?.dtcCodes ?? []).flatMap((c) => normaliseDtc(c) ?? []));
  for (const r of sorted) {
    if (!Array.isArray(r.dtcCodes)) continue;
    const codes = new Set(r.dtcCodes.flatMap((c) => normaliseDtc(c) ?? []));
    for (const code of codes) {
      const s = seen.get(code);
      if (s) {
        s.last = r;
        s.readings++;
      } else if (!active.has(code)) seen.set(code, { first: r, last: r, readings: 1 });
    }
    active = codes;
  }
  if (seen.size === 0) return [];

  // The latest record that reported a DTC list at all (an empty list means "no active codes").
  const latestList = [...sorted].reverse().find((r) => Array.isArray(r.dtcCodes));
  const latestCodes = new Set((latestList?.dtcCodes ?? []).flatMap((c) => normaliseDtc(c) ?? []));

  const drafts: AlertDraft[] = [];
  // Codes in a stable order: first appearance, then code.
  const entries = [...seen.entries()].sort(([a, x], [b, y]) => tsMs(x.first) - tsMs(y.first) || a.localeCompare(b));
  for (const [code, s] of entries) {
    const c = classifyDtc(code, device.powertrain);
    const stillPresent = latestCodes.has(code);
    let conf = corroborated(0.8, 0.05, s.readings, 0.9);
    if (stillPresent && s.readings > 1) conf += 0.05;
    if (c.definition !== "generic") conf -= 0.15; // the family rule cannot know a maker's own meaning
    drafts.push(
      makeDraft({
        deviceId: device.deviceId,
        agent: "diagnostics",
        severity: c.severity,
        prediction: `Fault code ${code} reported — ${c.title}: ${c.advice}.`,
        confidence: conf,
        dedupeKey: diagnosticsKey(code),
        measure: null,
        observedAt: s.first.ts,
        technicalData: {
          rule: "dtc",
          dtc_code: code,
          system: c.system,
          definition: c.definition,
          family: c.family,
          description: c.title,
          powertrain: device.powertrain,
          first_seen_at: iso(s.first.ts),
          last_seen_at: iso(s.last.ts),
          readings_with_code: s.readings,
          still_present: stillPresent,
          odometer_km_at_first_seen: s.first.odometerKm,
        },
      }),
    );
  }
  return drafts;
};
