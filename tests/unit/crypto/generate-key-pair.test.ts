import { createPublicKey, sign, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateKeyPair } from "@/lib/crypto/generate-key-pair";
import { CODE_DIRS, readRepositoryFile, repositoryFiles } from "../../helpers/repository-files";

const HOME = "lib/crypto/generate-key-pair.ts";

describe("generateKeyPair (lib/crypto/generate-key-pair.ts)", () => {
  it("gives a working pair of each kind, the public key the private key's", () => {
    const data = Buffer.from("FDP");
    const ed = generateKeyPair("ed25519");
    expect(ed.privateKey.asymmetricKeyType).toBe("ed25519");
    expect(verify(null, data, ed.publicKey, sign(null, data, ed.privateKey))).toBe(true);
    expect(createPublicKey(ed.privateKey).export({ format: "jwk" })).toEqual(ed.publicKey.export({ format: "jwk" }));
    const rsa = generateKeyPair("rsa", { modulusLength: 2048 });
    expect(rsa.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(verify("sha256", data, rsa.publicKey, sign("sha256", data, rsa.privateKey))).toBe(true);
    // Two calls, two keys.
    expect(generateKeyPair("ed25519").publicKey.export({ format: "jwk" })).not.toEqual(ed.publicKey.export({ format: "jwk" }));
  });

  it("is the only place the product and its tests generate keys (Node 20's deadlock when a generator's KeyObject is exported as a JWK)", () => {
    // The product's code and the tests and benchmarks, which would hang the same way.
    const files = [...repositoryFiles(CODE_DIRS, /\.(ts|tsx|mjs)$/), "server.ts"];
    expect(files.length).toBeGreaterThan(100);
    // Node's generators, imported by name or called on the module.
    const nodeGenerator = /import\s*\{[^}]*\bgenerateKeyPair(Sync)?\b[^}]*\}\s*from\s*["'](node:)?crypto["']|\bcrypto\.generateKeyPair(Sync)?\b/;
    const generating = files.filter((f) => f !== HOME && nodeGenerator.test(readRepositoryFile(f)));
    expect(generating).toEqual([]);
    expect(nodeGenerator.test(readRepositoryFile(HOME))).toBe(true);
    expect(readRepositoryFile(HOME)).toMatch(/privateKeyEncoding: \{ type: "pkcs8", format: "pem" \}/);
  });
});
