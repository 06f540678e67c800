import type { Scope } from "@/lib/auth/key-format";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { generateCertificate } from "@/lib/certificates/generate-certificate";
import { rootLogger } from "@/lib/log/logger";
import type { Db } from "@/lib/db/client";
import { alerts, devices, fleetSnapshot, telemetry } from "@/lib/db/schema";
import type { AlertAgent, Severity } from "@/lib/vocabulary/alerts";
import { newId } from "@/lib/ids";
import { createTenant } from "@/lib/tenants/create-tenant";

/** A fresh tenant and key per test file (unkey-style harness). */
export async function createTenantWithKey(db: Db, opts: { scopes?: Scope[]; rateLimitPerMin?: number; name?: string } = {}) {
  const tenant = await createTenant({ ctx: { db }, input: { name: opts.name ?? "Test tenant", rateLimitPerMin: opts.rateLimitPerMin } });
  const key = await createApiKey({ ctx: { db }, input: { tenantId: tenant.tenantId, scopes: opts.scopes } });
  return { tenantId: tenant.tenantId, ingestSecret: tenant.ingestSecret, key: key.key, keyId: key.keyId };
}

interface DeviceFixture {
  deviceId: string;
  name?: string;
  ts?: Date;
  speedKmh?: number | null;
  ignition?: number | null;
  chargingStatus?: string | null;
  lat?: number;
  lon?: number;
  weatherTemp?: number | null;
  /** An odometer reading: also written to the telemetry history (what the mileage forecast reads). */
  odometerKm?: number;
  /** A state of charge: also written to the telemetry history (what the charging recommendation reads). */
  socPct?: number;
  /** Master data (an EV needs both for the charging recommendation). */
  powertrain?: "BEV" | "PHEV" | "HEV" | "ICE";
  batteryKwh?: number;
}

/** Inserts devices with a snapshot each (ingest arrives in a later issue; this is its stand-in for reads). */
export async function insertDevices(db: Db, tenantId: string, list: DeviceFixture[]): Promise<void> {
  await db.insert(devices).values(
    list.map((d) => ({
      tenantId,
      deviceId: d.deviceId,
      name: d.name ?? d.deviceId,
      powertrain: d.powertrain ?? null,
      powertrainSource: d.powertrain ? ("master_data" as const) : null,
      batteryKwh: d.batteryKwh ?? null,
    })),
  );
  await db.insert(fleetSnapshot).values(
    list.map((d) => ({
      tenantId,
      deviceId: d.deviceId,
      ts: d.ts ?? new Date(),
      lat: d.lat ?? 60.17,
      lon: d.lon ?? 24.94,
      speedKmh: d.speedKmh ?? 0,
      batteryVoltage: 12.6,
      ignition: d.ignition ?? null,
      chargingStatus: d.chargingStatus ?? null,
      weatherTemp: d.weatherTemp === undefined ? -3 : d.weatherTemp,
      odometerKm: d.odometerKm ?? null,
      socPct: d.socPct ?? null,
    })),
  );
  const withHistory = list.filter((d) => d.odometerKm !== undefined || d.socPct !== undefined);
  if (withHistory.length > 0) {
    await db
      .insert(telemetry)
      .values(withHistory.map((d) => ({ tenantId, deviceId: d.deviceId, ts: d.ts ?? new Date(), odometerKm: d.odometerKm ?? null, socPct: d.socPct ?? null })));
  }
}

export async function insertAlert(
  db: Db,
  tenantId: string,
  a: { deviceId: string; severity: Severity; acknowledged?: boolean; createdAt?: Date; agent?: AlertAgent },
): Promise<string> {
  const id = newId("alt");
  await db.insert(alerts).values({
    id,
    tenantId,
    deviceId: a.deviceId,
    agent: a.agent ?? "battery",
    severity: a.severity,
    prediction: `Test ${a.severity.toLowerCase()} alert`,
    confidence: 0.8,
    technicalData: { test: true },
    acknowledged: a.acknowledged ?? false,
    acknowledgedBy: a.acknowledged ? "ops@example.com" : null,
    acknowledgedAt: a.acknowledged ? new Date() : null,
    createdAt: a.createdAt ?? new Date(),
  });
  return id;
}

/** Issues a certificate for a device of `tenantId` through the real generation (signing, PDF); returns its number. */
export async function issueCertificate(db: Db, tenantId: string, deviceId: string, now = new Date()): Promise<string> {
  const ctx = { db, tenantId, isSandbox: false, log: rootLogger() };
  return (await generateCertificate({ ctx, input: { device_id: deviceId }, now })).certificate_number;
}

/** Nothing listens on port 9: a test's spot prices never reach the real source (the recorded day answers). */
export const OFFLINE_SPOT_PRICE_URL = "http://127.0.0.1:9";
