import { and, desc, eq } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { certificates, certificateSigningKeys, devices } from "@/lib/db/schema";
import type { CertificateStatus } from "@/lib/schemas/certificates";
import { certificateStatus } from "../certificate-status";
import { keyLifecycleColumns } from "../stored-certificate";

/** The dashboard shows the newest certificates first; older ones stay reachable by number (API, verify page). */
const CERTIFICATE_LIST_LIMIT = 200;

export interface CertificateListRow {
  number: string;
  device_id: string;
  /** The vehicle's current name, null when the device has since been removed. */
  device_name: string | null;
  grade: string;
  generated_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  status: CertificateStatus;
}

/**
 * The tenant's certificates, newest first, at most `limit`: one round trip (the device name by a
 * join on the tenant and device id, the status with the signing key's lifecycle, never the PDF bytes). Another tenant's certificates never appear.
 */
export async function listCertificates({ ctx, limit = CERTIFICATE_LIST_LIMIT, now = new Date() }: { ctx: TenantCtx; limit?: number; now?: Date }): Promise<CertificateListRow[]> {
  const rows = await ctx.db
    .select({
      number: certificates.number,
      deviceId: certificates.deviceId,
      deviceName: devices.name,
      grade: certificates.grade,
      generatedAt: certificates.generatedAt,
      expiresAt: certificates.expiresAt,
      revokedAt: certificates.revokedAt,
      key: keyLifecycleColumns,
    })
    .from(certificates)
    .leftJoin(devices, and(eq(devices.tenantId, certificates.tenantId), eq(devices.deviceId, certificates.deviceId)))
    .leftJoin(certificateSigningKeys, eq(certificateSigningKeys.kid, certificates.signatureKid))
    .where(eq(certificates.tenantId, ctx.tenantId))
    .orderBy(desc(certificates.generatedAt), desc(certificates.number))
    .limit(limit);
  return rows.map((r) => ({
    number: r.number,
    device_id: r.deviceId,
    device_name: r.deviceName,
    grade: r.grade,
    generated_at: r.generatedAt,
    expires_at: r.expiresAt,
    revoked_at: r.revokedAt,
    status: certificateStatus(r, r.key?.kid ? r.key : null, now).status,
  }));
}

/** The tenant's vehicles for the "generate certificate" choice (one round trip), by name. */
export async function listCertifiableVehicles({ ctx }: { ctx: TenantCtx }): Promise<{ device_id: string; name: string }[]> {
  const rows = await ctx.db
    .select({ device_id: devices.deviceId, name: devices.name })
    .from(devices)
    .where(eq(devices.tenantId, ctx.tenantId))
    .orderBy(devices.name, devices.deviceId)
    .limit(1000);
  return rows;
}
