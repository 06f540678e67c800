import { sql } from "drizzle-orm";
import { sqlDate, sqlNumber, sqlText, sqlTextArray } from "@/lib/db/sql-values";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices, type DevicePart, type DeviceQueryArgs } from "@/lib/devices/device-query";
import { odometerEvidenceOf, sohJudgementOf } from "@/lib/devices/reading-rows";
import type { DeviceResidualFacts } from "./resolve-inputs";

/** Master data the shared `parts.master` does not list, and the tenant's entitlements (for `factors`). */
const residualMaster = (): DevicePart => ({
  columns: sql`d.make, d.model, d.year, d.powertrain, d.battery_kwh, d.original_price_eur, d.lease_start::text as lease_start,
    (select tn.entitlements from tenants tn where tn.id = d.tenant_id) as entitlements`,
});

/**
 * Endpoint 20's facts about the tenant's devices among `deviceIds`, in one round trip: master data, the
 * latest odometer reading with the evidence of a rollback (the shared knockout rule), the latest SoH readings (judged by the shared plausibility rule) and the
 * tenant's entitlements.
 */
export async function loadResidualModelInputs(args: DeviceQueryArgs): Promise<Map<string, DeviceResidualFacts>> {
  const found = await queryDevices("residual_model", args, [residualMaster(), parts.latestOdometer(), parts.odometerEvidence(), parts.recentSoh()]);
  const out = new Map<string, DeviceResidualFacts>();
  for (const r of found) {
    const id = String(r.device_id);
    const odoKm = sqlNumber(r.latest_odo);
    const odoAt = sqlDate(r.latest_odo_ts);
    const soh = sohJudgementOf(r).accepted;
    out.set(id, {
      device_id: id,
      make: sqlText(r.make),
      model: sqlText(r.model),
      year: sqlNumber(r.year),
      powertrain: sqlText(r.powertrain),
      battery_kwh: sqlNumber(r.battery_kwh),
      original_price_eur: sqlNumber(r.original_price_eur),
      lease_start: sqlText(r.lease_start),
      latest_odometer: odoKm !== null && odoAt !== null ? { km: odoKm, at: odoAt } : null,
      odometer_rollback: odometerEvidenceOf(r),
      soh: soh ? { pct: soh.pct, at: soh.at } : null,
      entitlements: sqlTextArray(r.entitlements) ?? [],
    });
  }
  return out;
}
