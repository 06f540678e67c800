import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import canonicalize from "canonicalize";
import { asc } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { certificateSigningKeys } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";
import type { KeysDocument } from "./pdf/keys-document";

/**
 * The Ed25519 key that signs certificates, and the published list of every key that ever signed.
 *
 * The key comes from FDP_CERT_SIGNING_KEY (production: a secret store), else from a file generated
 * once beside the embedded database, so a new user's certificates verify across restarts. Its id is
 * the RFC 7638 JWK thumbprint of the public key: derived, never configured, so two instances with the
 * same key agree on it. Each instance records its key in `certificate_signing_keys` before the first
 * signature; nothing is ever deleted there, which is what keeps old certificates verifiable after a
 * rotation (docs/certificates.md "Key rotation").
 */

export interface PublicJwk {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: PublicJwk;
}

/** RFC 7638: SHA-256 over the canonical JSON of the required members {crv, kty, x}, base64url. */
export function jwkThumbprint(jwk: PublicJwk): string {
  return createHash("sha256")
    .update(canonicalize({ crv: jwk.crv, kty: jwk.kty, x: jwk.x }) as string)
    .digest("base64url");
}

export function signingKeyFrom(privateKey: KeyObject): SigningKey {
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error("The certificate signing key must be an Ed25519 key.");
  const jwk = createPublicKey(privateKey).export({ format: "jwk" }) as { kty: string; crv: string; x: string };
  const publicJwk: PublicJwk = { kty: "OKP", crv: "Ed25519", x: jwk.x };
  return { kid: jwkThumbprint(publicJwk), privateKey, publicJwk };
}

function defaultKeyFile(): string {
  return path.join(path.dirname(path.resolve(/*turbopackIgnore: true*/ env().FDP_DATA_DIR)), "certificate-signing-key.pem");
}

function loadOrCreateKeyFile(file: string): KeyObject {
  try {
    return createPrivateKey(readFileSync(file, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const { privateKey } = generateKeyPairSync("ed25519");
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: if another process created it meanwhile, keep theirs (read below).
    writeFileSync(file, privateKey.export({ format: "pem", type: "pkcs8" }), { mode: 0o600, flag: "wx" });
    rootLogger().warn({ file }, "certificates: generated a new signing key (set FDP_CERT_SIGNING_KEY in production)");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return createPrivateKey(readFileSync(file, "utf8"));
}

let cachedKey: { source: string; key: SigningKey } | undefined;

/** The key this instance signs with (read once per configuration). */
export function currentSigningKey(): SigningKey {
  const configured = env().FDP_CERT_SIGNING_KEY;
  const source = configured ? `env:${configured}` : `file:${env().FDP_CERT_SIGNING_KEY_FILE ?? defaultKeyFile()}`;
  if (cachedKey?.source === source) return cachedKey.key;
  const privateKey = configured
    ? createPrivateKey(configured.replace(/\\n/g, "\n"))
    : loadOrCreateKeyFile(env().FDP_CERT_SIGNING_KEY_FILE ?? defaultKeyFile());
  cachedKey = { source, key: signingKeyFrom(privateKey) };
  return cachedKey.key;
}

const published = new WeakMap<Db, Set<string>>();

/** Records the key in the published list (once per database and process) before it signs anything. */
export async function publishSigningKey(db: Db, key: SigningKey): Promise<void> {
  const seen = published.get(db) ?? new Set<string>();
  if (seen.has(key.kid)) return;
  await db.insert(certificateSigningKeys).values({ kid: key.kid, publicJwk: key.publicJwk }).onConflictDoNothing();
  seen.add(key.kid);
  published.set(db, seen);
}

/** Ed25519 signature (base64url) over `bytes`. */
export function signBytes(key: SigningKey, bytes: Uint8Array): Buffer {
  return sign(null, bytes, key.privateKey);
}

/**
 * Every key that ever signed, oldest first. The newest is `active`; each older one is `retired` from
 * the moment its successor first signed, and stays listed so its certificates keep verifying.
 */
export async function keysDocument(db: Db): Promise<KeysDocument> {
  const rows = await db.select().from(certificateSigningKeys).orderBy(asc(certificateSigningKeys.firstUsedAt), asc(certificateSigningKeys.kid));
  return {
    issuer: "FDP",
    keys: rows.map((row, i) => {
      const next = rows[i + 1];
      return {
        ...row.publicJwk,
        kid: row.kid,
        alg: "EdDSA",
        use: "sig",
        status: next ? "retired" : "active",
        created_at: row.firstUsedAt.toISOString(),
        ...(next ? { retired_at: next.firstUsedAt.toISOString() } : {}),
      };
    }),
  };
}
