import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dismissAlert } from "@/lib/alerts/dismiss-alert";
import { alerts } from "@/lib/db/schema";
import { rootLogger } from "@/lib/log/logger";
import { ALERT_KEYS } from "@/lib/vocabulary/alerts";
import { DAY, HOUR, MIN, iso, type Rec, useIngestApi, vinSequence } from "../helpers/ingest-api";

/**
 * Issue 11, "dismiss as false alarm": a knockout raised through the real ingest endpoint (its detectors
 * raise the alert), the alert dismissed by a reviewer (the dashboard's verb), and the TAS and EOL answers
 * read back over HTTP: the readings the alert cited no longer knock out, and the answers say a reviewer
 * dismissed them. A later reading the dismissed alert did not cite knocks out again.
 */

const api = useIngestApi("Dismissed knockouts");
const { ingest, tas, eol } = api;
const BASE = Math.floor((Date.now() - 3 * DAY) / MIN) * MIN;
const newVin = vinSequence("KNA8DIS0000");

function records(vin: string, n: number, each: (i: number) => Rec, startH = 0): Rec[] {
  return Array.from({ length: n }, (_, i) => ({
    vin,
    timestamp: iso(BASE + (startH + i) * HOUR),
    speed_kmh: 0,
    raw_data: { ignition: false, vehicle: { make: "Kia", model: "EV6", powertrain: "BEV" } },
    ...each(i),
  }));
}

const reviewer = () => ({
  db: api.tdb.handle.db,
  tenantId: api.t.tenantId,
  isSandbox: false,
  log: rootLogger(),
  actor: { userId: "usr_reviewer", email: "reviewer@example.com" },
});

async function alertOf(deviceId: string, key: string) {
  const found = await api.tdb.handle.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.tenantId, api.t.tenantId), eq(alerts.deviceId, deviceId), eq(alerts.dedupeKey, key)));
  return found;
}

describe("a dismissed knockout alert", () => {
  it("odometer rollback: F with evidence, then dismissed → no knockout, and TAS and EOL say a reviewer dismissed it", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    const km = [80_000, 80_100, 80_200, 15_000, 15_040, 15_080];
    await ingest(records(vin, km.length, (i) => ({ odometer_km: km[i], soh_percent: 92, soc_percent: 70 })));
    const before = await tas(id);
    expect(before.tas_grade).toBe("F");
    expect(before.knockout_flags).toEqual(["odometer_manipulation"]);
    expect(before.data_quality.dismissed_evidence).toEqual([]);

    const raised = await alertOf(id, ALERT_KEYS.odometerRollback);
    expect(raised.length).toBeGreaterThan(0);
    const dismissedAt = new Date();
    for (const a of raised)
      await dismissAlert({ ctx: reviewer(), input: { alert_id: a.id, reason: "  Instrument cluster replaced at the dealer, invoice on file.  " }, now: dismissedAt });

    const after = await tas(id);
    expect(after.knockout_flags).toEqual([]);
    expect(after.tas_grade).not.toBe("F");
    expect(after.data_quality.knockout_evidence).toEqual([]);
    expect(after.data_quality.dismissed_evidence).toHaveLength(1);
    const d = after.data_quality.dismissed_evidence[0]!;
    expect(d).toMatchObject({ knockout: "odometer_manipulation", reason: "Instrument cluster replaced at the dealer, invoice on file.", dismissed_at: dismissedAt.toISOString() });
    expect(raised.map((a) => a.id)).toContain(d.alert_id);
    expect(d.readings).toContainEqual({ role: "first_lower", value: 15_000, unit: "km", at: iso(BASE + 3 * HOUR) });
    expect(d.statement).toContain(`odometer rollback at ${iso(BASE + 3 * HOUR)} was dismissed as a false alarm by a reviewer on ${dismissedAt.toISOString().slice(0, 10)}`);
    // The reviewer's e-mail stays in the audit log, not in the score answer.
    expect(JSON.stringify(after)).not.toContain("reviewer@example.com");

    const e = await eol(id);
    expect(e.condition_grade).not.toBe("F");
    expect(e.knockout_evidence).toEqual([]);
    expect(e.limitations.join(" ")).toContain("dismissed as a false alarm by a reviewer");

    // A new drop the dismissed alert never cited knocks out again.
    await ingest(records(vin, 3, (i) => ({ odometer_km: [15_200, 2_000, 2_010][i], soh_percent: 92, soc_percent: 70 }), 6));
    const again = await tas(id);
    expect(again.knockout_flags).toEqual(["odometer_manipulation"]);
    expect(again.data_quality.dismissed_evidence).toEqual([]);
  });

  it("SoH below 60 %: the dismissed reading no longer knocks out; a later reading below 60 % the alert did not cite does", async () => {
    const vin = newVin();
    const id = `oem-${vin}`;
    await ingest(records(vin, 4, () => ({ odometer_km: 40_000, soh_percent: 55, soc_percent: 70 })));
    const before = await tas(id);
    expect(before.knockout_flags).toEqual(["soh_below_60"]);
    expect((await eol(id)).condition_grade).toBe("F");

    const raised = (await alertOf(id, ALERT_KEYS.batterySohLow)).filter((a) => a.severity === "CRITICAL");
    expect(raised).toHaveLength(1);
    await dismissAlert({ ctx: reviewer(), input: { alert_id: raised[0]!.id, reason: "BMS firmware bug, capacity test shows 88 %." } });

    const after = await tas(id);
    expect(after.knockout_flags).toEqual([]);
    expect(after.tas_grade).not.toBe("F");
    expect(after.data_quality.dismissed_evidence).toMatchObject([
      {
        knockout: "soh_below_60",
        alert_id: raised[0]!.id,
        reason: "BMS firmware bug, capacity test shows 88 %.",
        readings: [{ role: "latest_plausible_soh", value: 55, unit: "%", at: iso(BASE + 3 * HOUR) }],
      },
    ]);
    const e = await eol(id);
    // The dismissed knockout no longer forces F; the reading still caps the grade at C.
    expect(["C", "D"]).toContain(e.condition_grade);
    expect(e.knockout_evidence).toEqual([]);
    expect(e.limitations.join(" ")).toMatch(/state of health below 60 % at .* was dismissed as a false alarm by a reviewer on \d{4}-\d{2}-\d{2}: BMS firmware bug/);

    // A new low reading, after the dismissed alert's evidence: a knockout again.
    await ingest(records(vin, 2, () => ({ odometer_km: 40_010, soh_percent: 54, soc_percent: 70 }), 10));
    const again = await tas(id);
    expect(again.knockout_flags).toEqual(["soh_below_60"]);
    expect(again.data_quality.knockout_evidence[0]?.readings[0]?.at).toBe(iso(BASE + 11 * HOUR));
  });
});
