import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "@/lib/dashboard/auth-secret";
import { env } from "@/lib/env";

/**
 * Certificate signing keys are stored in the database (so that every instance signs with the one
 * active key and `signing-key:rotate` takes effect everywhere), encrypted: AES-256-GCM under a key
 * derived with HKDF-SHA256 from the deployment's secret, FDP_CERT_KEY_SECRET, else AUTH_SECRET (which
 * every instance already shares; on the embedded default the generated one beside the database). A
 * copy of the database alone therefore signs nothing. The key id and the key's purpose are bound as
 * additional data: a ciphertext moved to another row or purpose does not decrypt.
 *
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each base64url.
 */

const INFO = "fdp certificate signing keys v1";
const SALT = "fdp";

type KeyPurpose = "jws-ed25519" | "pdf-rsa";

let cached: { secret: string; kek: Buffer } | undefined;

function keyEncryptionKey(): Buffer {
  const secret = env().FDP_CERT_KEY_SECRET ?? authSecret();
  if (cached?.secret === secret) return cached.kek;
  const kek = Buffer.from(hkdfSync("sha256", secret, SALT, INFO, 32));
  cached = { secret, kek };
  return kek;
}

const aad = (kid: string, purpose: KeyPurpose) => Buffer.from(`${purpose}:${kid}`, "utf8");

export function encryptPrivateKey(pkcs8Pem: string, kid: string, purpose: KeyPurpose): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyEncryptionKey(), iv, { authTagLength: 16 });
  cipher.setAAD(aad(kid, purpose));
  const body = Buffer.concat([cipher.update(pkcs8Pem, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
}

class KeyDecryptionError extends Error {}

export function decryptPrivateKey(stored: string, kid: string, purpose: KeyPurpose): string {
  const [version, iv, body, tag] = stored.split(".");
  if (version !== "v1" || !iv || !body || !tag) throw new KeyDecryptionError(`signing key ${kid}: unknown storage format`);
  try {
    const authTag = Buffer.from(tag, "base64url");
    if (authTag.length !== 16) throw new Error("short tag");
    const decipher = createDecipheriv("aes-256-gcm", keyEncryptionKey(), Buffer.from(iv, "base64url"), { authTagLength: 16 });
    decipher.setAAD(aad(kid, purpose));
    decipher.setAuthTag(authTag);
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new KeyDecryptionError(
      `signing key ${kid} cannot be decrypted with this deployment's secret (FDP_CERT_KEY_SECRET, else AUTH_SECRET): did it change? Restore it, or run \`npm run admin -- signing-key:rotate\` for a new key.`,
    );
  }
}
