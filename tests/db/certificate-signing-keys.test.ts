import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificateSigningKeys } from "@/lib/db/schema";
import { keysDocumentSchema } from "@/lib/certificates/pdf/keys-document";
import { renderSealedCertificatePdf } from "@/lib/certificates/pdf/render-certificate-pdf";
import { verifyCertificatePdf } from "@/lib/certificates/pdf/seal-certificate-pdf";
import { currentSigningKey, jwkThumbprint, keysDocument, publishSigningKey, signBytes, signingKeyFrom } from "@/lib/certificates/signing-key";
import { resetEnvCache } from "@/lib/env";
import { certificatePdfInput } from "../helpers/certificate-pdf-fixture";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * The signing key's life: where it comes from (the environment, else a file generated once), and the
 * published keys document after a rotation: the newest key active, the older one retired but still
 * listed, so what it sealed keeps verifying against the document.
 */
let tdb: TestDatabase;
const work = mkdtempSync(path.join(tmpdir(), "fdp-keys-"));

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
});

afterAll(async () => {
  delete process.env.FDP_CERT_SIGNING_KEY;
  delete process.env.FDP_CERT_SIGNING_KEY_FILE;
  resetEnvCache();
  await tdb?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe("where the signing key comes from", () => {
  it("without FDP_CERT_SIGNING_KEY: generated once into the key file (0600), the same key on every later read", () => {
    delete process.env.FDP_CERT_SIGNING_KEY;
    process.env.FDP_CERT_SIGNING_KEY_FILE = path.join(work, "nested", "signing-key.pem");
    resetEnvCache();
    const first = currentSigningKey();
    const file = process.env.FDP_CERT_SIGNING_KEY_FILE;
    expect(readFileSync(file, "utf8")).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Another configuration in between, then back: the file's key, not a new one.
    process.env.FDP_CERT_SIGNING_KEY_FILE = path.join(work, "other.pem");
    resetEnvCache();
    expect(currentSigningKey().kid).not.toBe(first.kid);
    process.env.FDP_CERT_SIGNING_KEY_FILE = file;
    resetEnvCache();
    expect(currentSigningKey().kid).toBe(first.kid);
    expect(first.kid).toBe(jwkThumbprint(first.publicJwk));
  });

  it("FDP_CERT_SIGNING_KEY wins, with its newlines written as \\n on one line; a non-Ed25519 key is refused", () => {
    const { privateKey } = generateKeyPairSync("ed25519");
    const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
    process.env.FDP_CERT_SIGNING_KEY = pem.replace(/\n/g, "\\n");
    resetEnvCache();
    expect(currentSigningKey().kid).toBe(signingKeyFrom(privateKey).kid);
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey;
    expect(() => signingKeyFrom(rsa)).toThrow(/Ed25519/);
  });
});

describe("the published keys across a rotation", () => {
  it("lists every key that signed: the newest active, the older retired from the moment its successor first signed", async () => {
    const db = tdb.handle.db;
    const old = signingKeyFrom(generateKeyPairSync("ed25519").privateKey);
    const current = signingKeyFrom(generateKeyPairSync("ed25519").privateKey);
    await publishSigningKey(db, old);
    await publishSigningKey(db, old); // once per process: no second row, no error
    const rotatedAt = new Date(Date.now() + 60_000);
    await db.insert(certificateSigningKeys).values({ kid: current.kid, publicJwk: current.publicJwk, firstUsedAt: rotatedAt });

    const doc = keysDocumentSchema.parse(await keysDocument(db));
    expect(doc.keys.map((k) => [k.kid, k.status])).toEqual([
      [old.kid, "retired"],
      [current.kid, "active"],
    ]);
    expect(doc.keys[0]?.retired_at).toBe(rotatedAt.toISOString());
    expect(doc.keys[1]?.retired_at).toBeUndefined();

    // A PDF sealed by the retired key still verifies against today's document; one by an unlisted key does not.
    const sealWith = (key: typeof old) =>
      renderSealedCertificatePdf(certificatePdfInput({ content_signature: { kid: key.kid, alg: "Ed25519", value: "x" } }), { kid: key.kid, sign: (b) => signBytes(key, b) });
    expect(verifyCertificatePdf(await sealWith(old), doc)).toMatchObject({ ok: true, kid: old.kid, key_status: "retired" });
    const stranger = signingKeyFrom(generateKeyPairSync("ed25519").privateKey);
    expect(verifyCertificatePdf(await sealWith(stranger), doc)).toMatchObject({ ok: false });
  }, 60_000);
});
