import { eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { tenants } from "@/lib/db/schema";
import { runDetectors } from "@/lib/detectors";
import type { DeviceContext } from "@/lib/detectors/types";
import { PayloadTooLargeError, ValidationError } from "@/lib/errors";
import { INGEST_MAX_FUTURE_SKEW_MS, INGEST_MAX_VEHICLES, type IngestBody, type IngestResponse } from "@/lib/schemas/ingest";
import { groupByDevice, masterUpdateFor, toTelemetryRecords } from "./normalize-records";
import { insertAlerts, readDeviceContexts, storeBatch } from "./store-batch";
import { verifyIngestSignature } from "./verify-signature";

/**
 * Checks that come before validating the payload (CONTRACT "OEM ingest"): more than 10,000 records is
 * a 413 (whatever else is wrong with them), and every signature present must verify against the raw
 * bytes or the canonical body (401 `invalid_signature`), as must one for a tenant that requires it.
 */
export async function verifyIngestRequest({
  ctx,
  rawBody,
  body,
  signatureHeader,
}: {
  ctx: TenantCtx;
  /** The request body exactly as received (the header signature is over these bytes). */
  rawBody: Uint8Array;
  /** The same body parsed, not yet validated (the body signature is over its canonical form). */
  body: Record<string, unknown>;
  signatureHeader: string | null;
}): Promise<void> {
  if (Array.isArray(body.vehicles) && body.vehicles.length > INGEST_MAX_VEHICLES) {
    throw new PayloadTooLargeError(`At most ${INGEST_MAX_VEHICLES} vehicle records per request; this one has ${body.vehicles.length}. Split it.`);
  }
  const [tenant] = await ctx.db
    .select({ secret: tenants.ingestSecret, required: tenants.requireSignedIngest })
    .from(tenants)
    .where(eq(tenants.id, ctx.tenantId));
  if (!tenant) throw new Error(`tenant ${ctx.tenantId} of an authenticated key is missing`);
  verifyIngestSignature({ secret: tenant.secret, required: tenant.required, rawBody, header: signatureHeader, body });
}

/**
 * OEM telemetry ingest (SPEC 4.2, CONTRACT "OEM ingest") of a validated payload whose request passed
 * `verifyIngestRequest`: store it in one transaction (devices, history, snapshot, alerts) and answer.
 * Nothing is stored unless everything is valid; the sandbox validates and stores nothing.
 */
export async function ingestTelemetry({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: IngestBody; now?: Date }): Promise<IngestResponse> {
  const records = toTelemetryRecords(input, now);
  const future = records.findIndex((r) => r.ts.getTime() > now.getTime() + INGEST_MAX_FUTURE_SKEW_MS);
  if (future >= 0) {
    throw new ValidationError(`vehicles.${future}.timestamp is more than ${INGEST_MAX_FUTURE_SKEW_MS / 60000} minutes in the future.`, [
      { field: `vehicles.${future}.timestamp`, message: "is in the future" },
    ]);
  }
  const byDevice = groupByDevice(records);
  const response: IngestResponse = { accepted: true, device_count: byDevice.size, tenant_id: ctx.tenantId };
  if (ctx.isSandbox) return response; // CONTRACT: the sandbox answers a mock acceptance and stores nothing

  const deviceIds = [...byDevice.keys()];
  const unique = [...byDevice.values()].flat();
  await ctx.db.transaction(async (tx) => {
    const known = await readDeviceContexts(tx, ctx.tenantId, deviceIds);
    const updates = deviceIds.map((id) => masterUpdateFor(id, byDevice.get(id) ?? []));
    await storeBatch(tx, ctx.tenantId, { updates, records: unique, receivedAt: now });

    // Detectors see what was known before this batch, with the batch's own master data filled in.
    const contexts: DeviceContext[] = updates.map((u) => {
      const before = known.get(u.deviceId);
      return {
        deviceId: u.deviceId,
        powertrain: before?.powertrain ?? u.powertrain,
        batteryKwh: u.batteryKwh ?? before?.batteryKwh ?? null,
        previous: before?.previous ?? null,
        odometerMax: before?.odometerMax ?? null,
      };
    });
    await insertAlerts(tx, ctx.tenantId, runDetectors({ devices: contexts, recordsByDevice: byDevice }), now);
  });
  return response;
}
