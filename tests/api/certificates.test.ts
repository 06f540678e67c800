import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import canonicalize from "canonicalize";
import { and, eq, gte, sql } from "drizzle-orm";
import { compactVerify, createLocalJWKSet, flattenedVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCertificate } from "@/lib/certificates/generate-certificate";
import { revokeCertificate } from "@/lib/certificates/revoke-certificate";
import { revokeSigningKey } from "@/lib/certificates/revoke-signing-key";
import { rotateSigningKey } from "@/lib/certificates/rotate-signing-key";
import { keysDocumentSchema } from "@/lib/certificates/signing/keys-document";
import { activeSigningKey, forgetActiveKey } from "@/lib/certificates/signing/signing-keys";
import { verifyCertificatePdf } from "@/lib/certificates/signing/verify-certificate-pdf";
import { certificates } from "@/lib/db/schema";
import { rootLogger } from "@/lib/log/logger";
import { CERTIFICATE_NUMBER_PATTERN, certificateVerificationSchema, generatedCertificateSchema, retrievedCertificateSchema } from "@/lib/schemas/certificates";
import { createTenantWithKey } from "../helpers/fixtures";
import { DAY, HOUR, iso, useIngestServer, type Rec } from "../helpers/ingest-api";

/**
 * Certificates end to end (endpoints 11 and 12, the PDF, the public verification, revocation, the
 * signing keys' lifecycle): real telemetry through the real ingest, the real signing keys, PDF renderer
 * and PDF signature, a real database; checked with jose and poppler's pdfsig as an outsider would.
 */

const server = useIngestServer();
type Tenant = Awaited<ReturnType<typeof createTenantWithKey>>;
let a: Tenant;
let b: Tenant;
let readOnly: Tenant;
const NOW = Date.now();
const work = mkdtempSync(path.join(tmpdir(), "fdp-cert-test-"));

/** 20 days of a BEV's daily readings: odometer +40 km a day, SoC, and the SoH the BMS reports. */
function bevHistory(deviceId: string, vin: string, soh: (day: number) => number, extra: Rec = {}): Rec[] {
  return Array.from({ length: 20 }, (_, i) => ({
    vin,
    device_id: deviceId,
    timestamp: iso(NOW - (20 - i) * DAY + 8 * HOUR),
    odometer_km: 31_000 + 40 * i,
    soc_percent: 64,
    soh_percent: soh(i),
    battery_voltage: 12.6,
    charging_status: "not_charging",
    speed_kmh: 0,
    lat: 60.17,
    lon: 24.94,
    dtc_codes: [],
    raw_data: {
      vehicle: { make: "Kia", model: "EV6", year: 2024, powertrain: "BEV", battery_kwh: 77.4, original_price_eur: 52_000, lease_start: "2024-03-01", lease_months: 36 },
      ...extra,
    },
  }));
}

const post = (p: string, key: string | null) => server.app.fetch(`/api/v1${p}`, { key, method: "POST" });
const get = (p: string, key: string | null) => server.app.fetch(`/api/v1${p}`, { key });

beforeAll(async () => {
  process.env.FDP_CERT_SIGNING_KEY_FILE = path.join(work, "no-legacy-signing-key.pem");
  const db = server.tdb.handle.db;
  a = await createTenantWithKey(db, { name: "Certificates A" });
  b = await createTenantWithKey(db, { name: "Certificates B" });
  readOnly = await createTenantWithKey(db, { name: "Certificates read-only", scopes: ["scores:read"] });
  await server.ingestAs(a, [...bevHistory("ev-good", "KNAC381A0R5000001", () => 93), ...bevHistory("ev-worn", "KNAC381A0R5000002", () => 55)]);
}, 180_000);

afterAll(() => {
  delete process.env.FDP_CERT_SIGNING_KEY_FILE;
  rmSync(work, { recursive: true, force: true });
});

/** verify_hash as anyone can recompute it from the retrieval fields (CONTRACT "Settled details"). */
function recomputeHash(c: Record<string, unknown>): string {
  const { certificate_number, device_id, grade, vehicle_health_score, residual_value_pct, data_snapshot, generated_at, expires_at } = c;
  const canonical = canonicalize({ certificate_number, device_id, grade, vehicle_health_score, residual_value_pct, data_snapshot, generated_at, expires_at }) as string;
  return createHash("sha256").update(canonical, "utf8").digest("hex");
}

async function publishedKeys() {
  const res = await server.app.fetch("/.well-known/fdp-certificate-keys.json");
  expect(res.status).toBe(200);
  return keysDocumentSchema.parse(await res.json());
}

describe("generate → retrieve → download → verify", () => {
  let generated: ReturnType<typeof generatedCertificateSchema.parse>;
  let pdf: Buffer;

  beforeAll(async () => {
    const res = await post("/certificates/generate/ev-good", a.key);
    expect(res.status, await res.clone().text()).toBe(200);
    generated = generatedCertificateSchema.parse(await res.json());
    pdf = Buffer.from(generated.pdf_base64 ?? "", "base64");
  }, 60_000);

  it("answers every SPEC 2.10 generated field, with CONTRACT's number, URL and 180-day validity", () => {
    expect(generated.certificate_number).toMatch(CERTIFICATE_NUMBER_PATTERN);
    expect(generated.certificate_number.slice(9, 17)).toBe(generated.generated_at.slice(0, 10).replace(/-/g, ""));
    expect(generated.device_id).toBe("ev-good");
    expect(["A", "B", "C", "D", "F"]).toContain(generated.grade);
    expect(typeof generated.vehicle_health_score).toBe("number");
    expect(typeof generated.residual_value_pct).toBe("number");
    expect(["high", "medium", "low"]).toContain(generated.confidence);
    expect(generated.verify_url).toBe(`http://localhost:3000/verify/${generated.certificate_number}`);
    expect(Date.parse(generated.expires_at) - Date.parse(generated.generated_at)).toBe(180 * DAY);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it("states the battery as read from the BMS, with the definition and versions it used", () => {
    const s = generated.data_snapshot;
    expect(s.battery.state_of_health).toMatchObject({ value_pct: 93, measured_by: "oem_bms_readout", uncertainty_pct: null });
    expect(s.battery.state_of_health.definition).toMatch(/battery management system/);
    expect(s.battery.ratedEnergy).toEqual({ value_kwh: 77.4, measured_by: "master_data" });
    expect(s.battery.stateOfCharge.value_pct).toBe(64);
    expect(s.vehicle).toMatchObject({ make: "Kia", model: "EV6", model_year: 2024, powertrain: "BEV", vin: "KNAC381A0R5000001" });
    expect(s.odometer).toMatchObject({ odometer_km: 31_760, manipulation_found: false });
    expect(Object.keys(s.methods).sort()).toEqual(["battery_snapshot", "certificate", "condition_grade", "residual_value", "vehicle_health"]);
    expect(s.residual_value.estimated_residual_pct).toBe(generated.residual_value_pct);
  });

  it("verify_hash recomputes from the answer, and jose verifies the JWS with the published JWK Set", async () => {
    expect(recomputeHash(generated)).toBe(generated.verify_hash);
    const keys = await publishedKeys();
    const key = keys.keys.find((k) => k.kid === generated.key_id);
    expect(key).toMatchObject({ status: "active", valid_until: null });
    expect(generated.signature).toMatchObject({ alg: "EdDSA", kid: generated.key_id });
    const [header, payloadPart, signature] = generated.jws!.split(".");
    expect(payloadPart).toBe(""); // detached (RFC 7515 appendix F)
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({ alg: "EdDSA", kid: generated.key_id });
    const { certificate_number, device_id, grade, vehicle_health_score, residual_value_pct, data_snapshot, generated_at, expires_at } = generated;
    const payload = Buffer.from(
      canonicalize({ certificate_number, device_id, grade, vehicle_health_score, residual_value_pct, data_snapshot, generated_at, expires_at }) as string,
    );
    // A JOSE library, the published document as its JWK Set, the key chosen by the header's kid.
    const jwks = createLocalJWKSet(keys);
    const verified = await compactVerify(`${header}.${payload.toString("base64url")}.${signature}`, jwks);
    expect(Buffer.from(verified.payload).equals(payload)).toBe(true);
    await expect(flattenedVerify({ protected: header!, payload: Buffer.concat([payload, Buffer.from(" ")]).toString("base64url"), signature: signature! }, jwks)).rejects.toThrow();
  });

  it("the PDF passes pdfinfo and qpdf --check, pdfsig reports its signature valid, and the published certificate signed it", async () => {
    const file = path.join(work, "generated.pdf");
    writeFileSync(file, pdf);
    expect(execFileSync("pdfinfo", [file], { encoding: "utf8" })).toContain(generated.certificate_number);
    execFileSync("qpdf", ["--check", file]); // throws on a damaged file
    const pdfsig = execFileSync("pdfsig", [file], { encoding: "utf8" });
    expect(pdfsig).toContain("Signature Validation: Signature is Valid.");
    expect(pdfsig).toContain("Total document signed");
    const altered = Buffer.from(pdf);
    altered[200] = altered[200]! ^ 1;
    writeFileSync(path.join(work, "altered.pdf"), altered);
    expect(execFileSync("pdfsig", [path.join(work, "altered.pdf")], { encoding: "utf8" })).toContain("Digest Mismatch");
    const result = verifyCertificatePdf(pdf, await publishedKeys());
    expect(result).toMatchObject({ ok: true, certificate_number: generated.certificate_number, verify_hash: generated.verify_hash, kid: generated.key_id });
    // The signing certificate served at /.well-known/fdp-certificate-signing.pem is the one in the PDF.
    const pemRes = await server.app.fetch("/.well-known/fdp-certificate-signing.pem");
    expect(pemRes.status).toBe(200);
    const pem = await pemRes.text();
    writeFileSync(path.join(work, "signing.pem"), pem);
    const fingerprint = execFileSync("openssl", ["x509", "-in", path.join(work, "signing.pem"), "-noout", "-fingerprint", "-sha256"], { encoding: "utf8" });
    expect(fingerprint.replace(/^.*=/, "").replace(/[:\s]/g, "").toLowerCase()).toBe(result.ok ? result.pdf_signing_certificate_sha256 : "");
  });

  it("retrieval returns the stored certificate unchanged, without the generation-only fields", async () => {
    const res = await get(`/certificates/${generated.certificate_number}`, a.key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    const retrieved = retrievedCertificateSchema.parse(body);
    for (const f of ["confidence", "verify_url", "pdf_base64"]) expect(body).not.toHaveProperty(f);
    expect(retrieved).toMatchObject({ is_expired: false, revoked_at: null, verify_hash: generated.verify_hash });
    for (const f of ["certificate_number", "device_id", "grade", "vehicle_health_score", "residual_value_pct", "data_snapshot", "generated_at", "expires_at"] as const) {
      expect(retrieved[f]).toEqual(generated[f]);
    }
    expect(recomputeHash(body)).toBe(generated.verify_hash);
  });

  it("every download is the issued PDF byte for byte", async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await get(`/certificates/${generated.certificate_number}/pdf`, a.key);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
    }
  });

  it("the public verification needs no key, shows the certificate's facts and never the tenant", async () => {
    const res = await get(`/certificates/${generated.certificate_number}/verify`, null);
    expect(res.status).toBe(200);
    expect(res.headers.get("ratelimit-limit")).toBe("60");
    const text = await res.text();
    expect(text).not.toContain(a.tenantId);
    const v = certificateVerificationSchema.parse(JSON.parse(text));
    expect(v).toMatchObject({
      status: "valid",
      status_reason: null,
      verify_hash: generated.verify_hash,
      grade: generated.grade,
      revoked_at: null,
      key_id: generated.key_id,
      jws: generated.jws,
    });
    expect(v.pdf_sha256).toBe(createHash("sha256").update(pdf).digest("hex"));
    expect(recomputeHash(v)).toBe(generated.verify_hash);
  });

  it("another tenant gets 404 for the certificate, its PDF and the device; a key without the scope gets 403", async () => {
    for (const p of [`/certificates/${generated.certificate_number}`, `/certificates/${generated.certificate_number}/pdf`]) {
      const res = await get(p, b.key);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: "not_found" });
    }
    expect((await post("/certificates/generate/ev-good", b.key)).status).toBe(404);
    expect((await get(`/certificates/${generated.certificate_number}`, readOnly.key)).status).toBe(403);
  });

  it("unknown and malformed numbers: 404 and 400", async () => {
    expect((await get("/certificates/FDP-CERT-20200101-ZZZZZ/verify", null)).status).toBe(404);
    expect((await get("/certificates/FDP-CERT-20200101-ZZZZZ", a.key)).status).toBe(404);
    const bad = await get("/certificates/not-a-number/verify", null);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "invalid_request" });
  });

  it("the stored certificate cannot be altered, even by SQL; revocation is recorded once and shown at once", async () => {
    const db = server.tdb.handle.db;
    await expect(db.execute(sql`update certificates set content = '{}' where number = ${generated.certificate_number}`)).rejects.toThrow();
    await expect(db.execute(sql`update certificates set device_id = 'ev-worn', revoked_at = now() where number = ${generated.certificate_number}`)).rejects.toThrow();

    const before = Date.now();
    expect(await revokeCertificate({ ctx: { db }, input: { number: generated.certificate_number, reason: "Odometer replaced after an accident" } })).toEqual({ revoked: true });
    const v = certificateVerificationSchema.parse(await (await get(`/certificates/${generated.certificate_number}/verify`, null)).json());
    expect(Date.now() - before).toBeLessThan(5_000);
    expect(v).toMatchObject({ status: "revoked", revocation_reason: "Odometer replaced after an accident" });
    expect(Date.parse(v.revoked_at ?? "")).toBeGreaterThanOrEqual(before - 1000);
    // Revoking again keeps the first record; retrieval still answers 200 with the stored certificate.
    await revokeCertificate({ ctx: { db }, input: { number: generated.certificate_number, reason: "Second thoughts" } });
    const r = retrievedCertificateSchema.parse(await (await get(`/certificates/${generated.certificate_number}`, a.key)).json());
    expect(r).toMatchObject({ revoked_at: v.revoked_at, revocation_reason: "Odometer replaced after an accident", verify_hash: generated.verify_hash });
    await expect(revokeCertificate({ ctx: { db }, input: { number: "FDP-CERT-20200101-ZZZZZ", reason: "nothing" } })).rejects.toThrow(/No certificate/);
  });
});

describe("knockouts and expiry", () => {
  it("a battery below 60 % SoH is certified F, naming the knockout", async () => {
    const res = await post("/certificates/generate/ev-worn", a.key);
    expect(res.status).toBe(200);
    const c = generatedCertificateSchema.parse(await res.json());
    expect(c.grade).toBe("F");
    expect(c.data_snapshot.condition.knockouts.map((k) => k.knockout)).toEqual(["soh_below_60"]);
    expect(c.data_snapshot.battery.state_of_health.value_pct).toBe(55);
  });

  it("a certificate past its 180 days says expired, in retrieval and verification", async () => {
    const db = server.tdb.handle.db;
    const ctx = { db, tenantId: a.tenantId, isSandbox: false, log: rootLogger() };
    // The key has been active for a year (a certificate can only be signed within its key's validity).
    await db.execute(sql`update certificate_signing_keys set valid_from = ${new Date(NOW - 365 * DAY).toISOString()}::timestamptz where status = 'active'`);
    forgetActiveKey(db);
    const old = await generateCertificate({ ctx, input: { device_id: "ev-good" }, now: new Date(NOW - 181 * DAY) });
    const r = retrievedCertificateSchema.parse(await (await get(`/certificates/${old.certificate_number}`, a.key)).json());
    expect(r.is_expired).toBe(true);
    const v = certificateVerificationSchema.parse(await (await get(`/certificates/${old.certificate_number}/verify`, null)).json());
    expect(v.status).toBe("expired");
  });
});

describe("signing keys: rotation and revocation, as an auditor sees them", () => {
  it("a rotation on another instance takes effect at once: no certificate is stored under the retired key", async () => {
    const db = server.tdb.handle.db;
    const ctx = { db, tenantId: a.tenantId, isSandbox: false, log: rootLogger() };
    const before = await generateCertificate({ ctx, input: { device_id: "ev-good" } }); // this instance now holds the key
    // Another instance (its own key cache) rotates; this one still has the old key cached.
    const otherInstance = new Proxy(db, {});
    const rotation = await rotateSigningKey({ ctx: { db: otherInstance }, input: {} });
    expect(rotation.retired_kid).toBe(before.key_id);
    const after = await generateCertificate({ ctx, input: { device_id: "ev-good" } });
    expect(after.key_id).toBe(rotation.kid);
    const [{ n }] = (await db
      .select({ n: sql<number>`count(*)::int` })
      .from(certificates)
      .where(
        and(eq(certificates.signatureKid, rotation.retired_kid!), gte(certificates.createdAt, new Date(Date.now() - 60_000)), eq(certificates.number, after.certificate_number)),
      )) as [{ n: number }];
    expect(Number(n)).toBe(0);
    // The certificate signed before the rotation still verifies, under its now retired key.
    const v = certificateVerificationSchema.parse(await (await get(`/certificates/${before.certificate_number}/verify`, null)).json());
    expect(v).toMatchObject({ status: "valid", key_id: rotation.retired_kid });
    const keys = await publishedKeys();
    expect(keys.keys.find((k) => k.kid === rotation.retired_kid)).toMatchObject({ status: "retired" });
    expect(verifyCertificatePdf(Buffer.from(before.pdf_base64!, "base64"), keys)).toMatchObject({ ok: true, key_status: "retired" });
  });

  it("a certificate whose signing raced a rotation is signed again at the present time, under the new key, and is valid", async () => {
    const db = server.tdb.handle.db;
    const ctx = { db, tenantId: a.tenantId, isSandbox: false, log: rootLogger() };
    await generateCertificate({ ctx, input: { device_id: "ev-good" } }); // this instance holds the active key
    const asOf = new Date(Date.now() - 3_000); // the request began before the rotation's second
    const rotation = await rotateSigningKey({ ctx: { db: new Proxy(db, {}) }, input: {} });
    const c = await generateCertificate({ ctx, input: { device_id: "ev-good" }, now: asOf });
    expect(c.key_id).toBe(rotation.kid);
    expect(Date.parse(c.generated_at)).toBeGreaterThan(asOf.getTime());
    const v = certificateVerificationSchema.parse(await (await get(`/certificates/${c.certificate_number}/verify`, null)).json());
    expect(v).toMatchObject({ status: "valid", key_id: rotation.kid });
  });

  it("a certificate signed under a revoked key verifies as revoked: JSON, page-level check of its PDF, and its status reason", async () => {
    const db = server.tdb.handle.db;
    const ctx = { db, tenantId: a.tenantId, isSandbox: false, log: rootLogger() };
    const c = await generateCertificate({ ctx, input: { device_id: "ev-good" } });
    const result = await revokeSigningKey({ ctx: { db }, input: { kid: c.key_id, reason: "private key exposed in a backup" } });
    expect(result.new_active_kid).not.toBe(c.key_id);
    const v = certificateVerificationSchema.parse(await (await get(`/certificates/${c.certificate_number}/verify`, null)).json());
    expect(v).toMatchObject({ status: "revoked", revoked_at: null, key_id: c.key_id });
    expect(v.status_reason).toMatch(/signing key .* was revoked on \d{4}-\d{2}-\d{2}: private key exposed in a backup/);
    const keys = await publishedKeys();
    expect(keys.keys.find((k) => k.kid === c.key_id)).toMatchObject({ status: "revoked", revocation_reason: "private key exposed in a backup" });
    expect(verifyCertificatePdf(Buffer.from(c.pdf_base64!, "base64"), keys)).toMatchObject({ ok: false, status: "revoked" });
    // New certificates are signed with the replacement key and are valid.
    expect((await activeSigningKey(db)).kid).toBe(result.new_active_kid);
    const next = await generateCertificate({ ctx, input: { device_id: "ev-good" } });
    expect(next.key_id).toBe(result.new_active_kid);
    expect(certificateVerificationSchema.parse(await (await get(`/certificates/${next.certificate_number}/verify`, null)).json()).status).toBe("valid");
  });
});
