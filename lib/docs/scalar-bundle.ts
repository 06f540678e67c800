import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Scalar's API reference as one browser file, vendored in the repository (vendor/scalar-api-reference/,
 * written by scripts/vendor-scalar.ts from the release's npm tarball) and served by the app itself
 * (/docs/assets/…): the reference works offline and sends nothing to a CDN. `standalone.js` is
 * self-contained (its CSS is injected by the script; it loads no chunks), so one file is all a browser
 * needs. Installing `@scalar/api-reference` instead brought 241 packages FDP never loads
 * (docs/dependency-audit.md).
 *
 * The folder is found from the working directory upwards, like the certificate's Geist fonts
 * (lib/certificates/pdf/certificate-fonts.ts): `npm run dev`, `npm start`, the tests and the self-host
 * build (which copies the folder) all run from the repository, and `import.meta.url` may be rewritten by
 * the bundler.
 */
const VENDOR_DIRECTORY = path.join("vendor", "scalar-api-reference");
const BUNDLE_FILE = "standalone.js";
const PROVENANCE_FILE = "provenance.json";

export function scalarVendorDirectory(start: string = process.cwd()): string {
  for (let dir = path.resolve(/*turbopackIgnore: true*/ start); ; dir = path.dirname(dir)) {
    const candidate = path.join(/*turbopackIgnore: true*/ dir, VENDOR_DIRECTORY);
    if (existsSync(path.join(/*turbopackIgnore: true*/ candidate, BUNDLE_FILE))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`API reference: ${path.join(VENDOR_DIRECTORY, BUNDLE_FILE)} not found from ${start} upwards`);
}

/** What vendor/scalar-api-reference/provenance.json records (scripts/vendor-scalar.ts writes it). */
interface ScalarProvenance {
  package: string;
  version: string;
  /** SHA-256 of standalone.js as the release's tarball holds it. */
  sha256: string;
}

export function scalarProvenance(dir: string = scalarVendorDirectory()): ScalarProvenance {
  return JSON.parse(readFileSync(path.join(/*turbopackIgnore: true*/ dir, PROVENANCE_FILE), "utf8")) as ScalarProvenance;
}

interface ScalarBundle {
  /** The vendored release's version, put in the script URL so browsers may cache the file for good. */
  version: string;
  /** The script, without its `sourceMappingURL` comment (the 17 MB map is not vendored). */
  source: string;
}

let cached: ScalarBundle | undefined;

/** Read once per process (4 MB): the vendored file does not change while the app runs. */
export function scalarBundle(): ScalarBundle {
  if (cached) return cached;
  const dir = scalarVendorDirectory();
  const { version } = scalarProvenance(dir);
  const source = readFileSync(path.join(/*turbopackIgnore: true*/ dir, BUNDLE_FILE), "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
  cached = { version, source };
  return cached;
}
