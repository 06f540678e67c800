import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Scalar's API reference as one browser file, read from the installed `@scalar/api-reference`
 * package and served by the app itself (/docs/assets/…): the reference works offline and sends
 * nothing to a CDN. `standalone.js` is self-contained (its CSS is injected by the script; it loads
 * no chunks), so one file is all a browser needs.
 *
 * The package is found from the working directory upwards, like the certificate's Geist fonts
 * (lib/certificates/pdf/certificate-fonts.ts): `npm run dev`, `npm start`, the tests and a worktree
 * whose node_modules is a symlink all run from the repository, and `import.meta.url` may be rewritten
 * by the bundler. The package exports no package.json, so module resolution cannot find it either.
 */
const PACKAGE_IN_NODE_MODULES = path.join("node_modules", "@scalar", "api-reference");
const BUNDLE_IN_PACKAGE = path.join("dist", "browser", "standalone.js");

export function scalarPackageDirectory(start: string = process.cwd()): string {
  for (let dir = path.resolve(/*turbopackIgnore: true*/ start); ; dir = path.dirname(dir)) {
    const candidate = path.join(/*turbopackIgnore: true*/ dir, PACKAGE_IN_NODE_MODULES);
    if (existsSync(path.join(/*turbopackIgnore: true*/ candidate, BUNDLE_IN_PACKAGE))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`API reference: ${path.join(PACKAGE_IN_NODE_MODULES, BUNDLE_IN_PACKAGE)} not found from ${start} upwards (run npm install)`);
}

interface ScalarBundle {
  /** The installed package's version, put in the script URL so browsers may cache the file for good. */
  version: string;
  /** The script, without its `sourceMappingURL` comment (the 17 MB map is not served). */
  source: string;
}

let cached: ScalarBundle | undefined;

/** Read once per process (4 MB): the installed package does not change while the app runs. */
export function scalarBundle(): ScalarBundle {
  if (cached) return cached;
  const dir = scalarPackageDirectory();
  const { version } = JSON.parse(readFileSync(path.join(/*turbopackIgnore: true*/ dir, "package.json"), "utf8")) as { version: string };
  const source = readFileSync(path.join(/*turbopackIgnore: true*/ dir, BUNDLE_IN_PACKAGE), "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
  cached = { version, source };
  return cached;
}
