import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantCtx } from "@/lib/context";
import { listCertifiableVehicles, listCertificates } from "@/lib/certificates/queries/list-certificates";
import { certificates, certificateSigningKeys } from "@/lib/db/schema";
import { rootLogger } from "@/lib/log/logger";
import { countingDb } from "../helpers/counting-db";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey, insertDevices } from "../helpers/fixtures";

/** The dashboard's certificate list and vehicle choice: one round trip each, the session's tenant only. */
let tdb: TestDatabase;
const NOW = new Date("2026-11-24T12:00:00Z");
const ctxOf = (tenantId: string, db = tdb.handle.db): TenantCtx => ({ db, tenantId, isSandbox: false, log: rootLogger() });

function row(tenantId: string, number: string, deviceId: string, generatedAt: string, expiresAt: string, revokedAt: Date | null = null, signatureKid = "kid-active") {
  return {
    number,
    tenantId,
    deviceId,
    content: "{}",
    verifyHash: "0".repeat(64),
    confidence: "high",
    grade: "B",
    generatedAt: new Date(generatedAt),
    expiresAt: new Date(expiresAt),
    signatureKid,
    signature: "sig",
    pdf: Buffer.from("%PDF-1.7 stand-in"),
    pdfSha256: "0".repeat(64),
    revokedAt,
    revokedReason: revokedAt ? "test" : null,
  };
}

const jwk = { kty: "OKP" as const, crv: "Ed25519" as const, x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" };

beforeAll(async () => {
  tdb = await createTestDatabase();
  // The keys the rows name: one active since 2025, one revoked (its certificates are revoked too).
  await tdb.handle.db.insert(certificateSigningKeys).values([
    { kid: "kid-active", publicJwk: jwk, status: "active", validFrom: new Date("2025-01-01T00:00:00Z") },
    {
      kid: "kid-revoked",
      publicJwk: jwk,
      status: "revoked",
      validFrom: new Date("2025-01-01T00:00:00Z"),
      validUntil: new Date("2026-11-21T00:00:00Z"),
      revokedAt: new Date("2026-11-21T00:00:00Z"),
      revocationReason: "leaked",
    },
  ]);
});
afterAll(async () => {
  await tdb?.dispose();
});

describe("listCertificates", () => {
  it("lists the tenant's certificates newest first with status and device name, never another tenant's, in one statement", async () => {
    const a = await createTenantWithKey(tdb.handle.db, { name: "A" });
    const b = await createTenantWithKey(tdb.handle.db, { name: "B" });
    await insertDevices(tdb.handle.db, a.tenantId, [{ deviceId: "v1", name: "Van One" }]);
    // The same device id in tenant B, with another name: the join must not cross tenants.
    await insertDevices(tdb.handle.db, b.tenantId, [{ deviceId: "v1", name: "B's van" }]);
    await tdb.handle.db
      .insert(certificates)
      .values([
        row(a.tenantId, "FDP-CERT-20260101-AAAAA", "v1", "2026-01-01T10:00:00Z", "2026-06-30T10:00:00Z"),
        row(a.tenantId, "FDP-CERT-20261120-BBBBB", "v1", "2026-11-20T10:00:00Z", "2027-05-19T10:00:00Z"),
        row(a.tenantId, "FDP-CERT-20261010-CCCCC", "gone", "2026-10-10T10:00:00Z", "2027-04-08T10:00:00Z", new Date("2026-10-11T00:00:00Z")),
        row(b.tenantId, "FDP-CERT-20261123-DDDDD", "v1", "2026-11-23T10:00:00Z", "2027-05-22T10:00:00Z"),
        row(a.tenantId, "FDP-CERT-20261115-EEEEE", "v1", "2026-11-15T10:00:00Z", "2027-05-14T10:00:00Z", null, "kid-revoked"),
      ]);

    const counting = countingDb(tdb.handle.db);
    const list = await listCertificates({ ctx: ctxOf(a.tenantId, counting.db), now: NOW });
    expect(counting.statements()).toBe(1);
    expect(list.map((c) => [c.number, c.device_id, c.device_name, c.status])).toEqual([
      ["FDP-CERT-20261120-BBBBB", "v1", "Van One", "valid"],
      ["FDP-CERT-20261115-EEEEE", "v1", "Van One", "revoked"], // its signing key was revoked
      ["FDP-CERT-20261010-CCCCC", "gone", null, "revoked"],
      ["FDP-CERT-20260101-AAAAA", "v1", "Van One", "expired"],
    ]);

    const other = await listCertificates({ ctx: ctxOf(b.tenantId), now: NOW });
    expect(other.map((c) => [c.number, c.device_name])).toEqual([["FDP-CERT-20261123-DDDDD", "B's van"]]);

    expect((await listCertificates({ ctx: ctxOf(a.tenantId), now: NOW, limit: 2 })).map((c) => c.number)).toEqual(["FDP-CERT-20261120-BBBBB", "FDP-CERT-20261115-EEEEE"]);
  });

  it("the vehicle choice holds the tenant's vehicles only, in one statement", async () => {
    const a = await createTenantWithKey(tdb.handle.db, { name: "C" });
    const b = await createTenantWithKey(tdb.handle.db, { name: "D" });
    await insertDevices(tdb.handle.db, a.tenantId, [
      { deviceId: "z1", name: "Zeta" },
      { deviceId: "a1", name: "Alpha" },
    ]);
    await insertDevices(tdb.handle.db, b.tenantId, [{ deviceId: "b1", name: "Beta" }]);
    const counting = countingDb(tdb.handle.db);
    expect(await listCertifiableVehicles({ ctx: ctxOf(a.tenantId, counting.db) })).toEqual([
      { device_id: "a1", name: "Alpha" },
      { device_id: "z1", name: "Zeta" },
    ]);
    expect(counting.statements()).toBe(1);
  });
});
