import type { TenantCtx } from "@/lib/context";
import { sqlDate, sqlNumber, sqlText } from "@/lib/db/sql-values";
import { residualValueOf } from "@/lib/leasing/get-residual-value";
import { loadResidualInputs } from "@/lib/leasing/queries/load-residual-inputs";
import { buildBatterySnapshot } from "@/lib/scores/battery-snapshot";
import { eolFromInputs } from "@/lib/scores/get-eol-summary";
import { loadBatterySnapshotInputs } from "@/lib/scores/queries/load-battery-snapshot-inputs";
import { parts } from "@/lib/devices/device-parts";
import { queryDevices } from "@/lib/devices/device-query";
import { computeVehicleHealth } from "@/lib/scores/vehicle-health";
import { normalisePowertrain } from "@/lib/vocabulary/powertrain";
import type { CertificateSources, CertificateVehicle } from "../build-certificate";

/** Master data and the latest odometer reading of the tenant's devices among `deviceIds` (one round trip). */
async function loadCertificateVehicles(args: { ctx: TenantCtx; deviceIds: string[] }): Promise<Map<string, CertificateVehicle>> {
  const found = await queryDevices("certificate_vehicle", args, [
    parts.master("name", "vin", "make", "model", "year", "powertrain", "asset_class", "battery_kwh"),
    parts.latestOdometer(),
  ]);
  return new Map(
    found.map((r) => {
      const id = String(r.device_id);
      return [
        id,
        {
          device_id: id,
          name: sqlText(r.name) ?? id,
          vin: sqlText(r.vin),
          make: sqlText(r.make),
          model: sqlText(r.model),
          year: sqlNumber(r.year),
          powertrain: normalisePowertrain(sqlText(r.powertrain)),
          asset_class: sqlText(r.asset_class),
          battery_kwh: sqlNumber(r.battery_kwh),
          latest_odometer_km: sqlNumber(r.latest_odo),
          latest_odometer_at: sqlDate(r.latest_odo_ts),
        },
      ];
    }),
  );
}

/**
 * Everything a certificate aggregates, for the tenant's devices among `deviceIds`: the vehicle, its
 * health score, EOL summary, battery snapshot and rule-based residual value, from the same loaders
 * and pure functions as endpoints 4, 6, 7 and 10 (so a certificate states what those endpoints answer
 * at that moment). A fixed number of round trips whatever the number of devices: the residual value's
 * loaders carry the vehicle-health inputs, so they are read once for both.
 */
export async function loadCertificateSources({ ctx, deviceIds, now }: { ctx: TenantCtx; deviceIds: string[]; now: Date }): Promise<Map<string, CertificateSources>> {
  const args = { ctx, deviceIds, now };
  const [vehicles, residualInputs, battery] = await Promise.all([loadCertificateVehicles(args), loadResidualInputs(args), loadBatterySnapshotInputs(args)]);
  const out = new Map<string, CertificateSources>();
  for (const [id, vehicle] of vehicles) {
    const d = residualInputs.get(id);
    const b = battery.get(id);
    // Loaded in separate statements: a device created between them is skipped, not half-certified.
    if (!d || !b) continue;
    const vehicleHealth = computeVehicleHealth(d.health.vehicleHealth, { now });
    out.set(id, { vehicle, vehicleHealth, eol: eolFromInputs(d.health, now, vehicleHealth), battery: buildBatterySnapshot(b, { now }), residual: residualValueOf(id, d, now) });
  }
  return out;
}
