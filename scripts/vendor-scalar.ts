/**
 * Vendors Scalar's API reference browser bundle (the /docs page, lib/docs/scalar-bundle.ts):
 *
 *   npx tsx scripts/vendor-scalar.ts 1.72.1
 *
 * FDP serves one file of `@scalar/api-reference`, `dist/browser/standalone.js`, which already holds
 * everything the page runs (Vue and the rest, bundled by Scalar). Installed as a dependency, the package
 * brought 241 packages and 34,016 files (35 % of node_modules, 24 EBADENGINE warnings on Node 20), none
 * of them loaded by FDP, and about 22 s and 30 CPU-seconds to every clean install (docs/testing.md).
 *
 * `npm pack` fetches the release's tarball and checks it against the registry's integrity; this script
 * then takes the bundle out of it and records where it came from in vendor/scalar-api-reference/
 * provenance.json (the tarball's integrity, as package-lock.json would, and the file's SHA-256, which
 * tests/unit/docs/api-reference-page.test.ts checks). `npm run audit:offline` audits the vendored
 * version like an installed one (scripts/audit-offline.ts).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGE = "@scalar/api-reference";
const BUNDLE_IN_PACKAGE = "dist/browser/standalone.js";
const VENDOR_DIRECTORY = path.join(ROOT, "vendor", "scalar-api-reference");

const packResult = z.array(z.object({ name: z.literal(PACKAGE), version: z.string(), integrity: z.string().startsWith("sha512-"), filename: z.string() })).length(1);

function main(): void {
  const version = process.argv[2];
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error("usage: npx tsx scripts/vendor-scalar.ts <exact version, e.g. 1.72.1>");
  const work = mkdtempSync(path.join(tmpdir(), "fdp-vendor-scalar-"));
  try {
    const [packed] = packResult.parse(JSON.parse(execFileSync("npm", ["pack", `${PACKAGE}@${version}`, "--json", "--pack-destination", work], { encoding: "utf8" })));
    execFileSync("tar", ["-xzf", path.join(work, packed!.filename), "-C", work, `package/${BUNDLE_IN_PACKAGE}`, "package/package.json"]);
    const manifest = z.object({ version: z.literal(version), license: z.string() }).parse(JSON.parse(readFileSync(path.join(work, "package", "package.json"), "utf8")));
    const target = path.join(VENDOR_DIRECTORY, "standalone.js");
    copyFileSync(path.join(work, "package", BUNDLE_IN_PACKAGE), target);
    const provenance = {
      package: PACKAGE,
      version,
      license: manifest.license,
      file: BUNDLE_IN_PACKAGE,
      tarball: `https://registry.npmjs.org/${PACKAGE}/-/api-reference-${version}.tgz`,
      tarball_integrity: packed!.integrity,
      sha256: createHash("sha256").update(readFileSync(target)).digest("hex"),
    };
    writeFileSync(path.join(VENDOR_DIRECTORY, "provenance.json"), `${JSON.stringify(provenance, null, 2)}\n`);
    console.log(`vendored ${PACKAGE}@${version} ${BUNDLE_IN_PACKAGE} (${provenance.sha256})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
