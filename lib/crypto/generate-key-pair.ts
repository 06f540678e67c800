import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";

/**
 * A new key pair as KeyObjects of their own, parsed from the generator's PEM, never the generator's
 * KeyObjects themselves. Node 20 can deadlock the process otherwise: a KeyObject straight from
 * `generateKeyPairSync` shares its key data (and that data's mutex) with the generator's job object,
 * and exporting it as a JWK holds the mutex while allocating; a garbage collection inside it that
 * frees the job locks the same mutex, and the main thread waits on itself for good (seen on 2026-12-01:
 * an app answering nothing, its main thread in ~KeyGenJob under ExportJWKEdKey, found with gdb; a loop
 * of Ed25519 generations and JWK exports hangs within seconds, this one ran 14,000 keys in 15 s). Parsed
 * from PEM, the keys share nothing with the job. Every key FDP generates comes from here
 * (tests/unit/crypto/generate-key-pair.test.ts).
 */
export function generateKeyPair(type: "ed25519"): { privateKey: KeyObject; publicKey: KeyObject };
export function generateKeyPair(type: "rsa", options: { modulusLength: number }): { privateKey: KeyObject; publicKey: KeyObject };
export function generateKeyPair(type: "ed25519" | "rsa", options?: { modulusLength: number }): { privateKey: KeyObject; publicKey: KeyObject } {
  const generated =
    type === "rsa"
      ? generateKeyPairSync("rsa", {
          modulusLength: options!.modulusLength,
          publicKeyEncoding: { type: "spki", format: "pem" },
          privateKeyEncoding: { type: "pkcs8", format: "pem" },
        })
      : generateKeyPairSync("ed25519", { publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
  return { privateKey: createPrivateKey(generated.privateKey), publicKey: createPublicKey(generated.publicKey) };
}
