/**
 * The self-host build's second half (`npm run build` runs it after `next build`): completes Next.js's
 * `output: "standalone"` directory into one that runs FDP with plain `node` and production packages
 * only, no tsx, no TypeScript, no dev tooling (docs/self-hosting.md).
 *
 * Next.js traces what its pages and route handlers need into `.next/standalone` and writes its own
 * `server.js`; FDP's server is `server.ts` (the API's one route matcher, the edge guard, the database
 * set-up, the webhook worker, the MQTT bridges), so this script:
 *   1. bundles with esbuild, FDP's code compiled in and every package left an import
 *      (`packages: "external"`): `server.ts` into `fdp-server.mjs`, started by `server.mjs`
 *      (scripts/standalone/server-entry.ts: the set-up Next.js's own server.js makes); the certificate
 *      PDF worker into an `.mjs` beside where its TypeScript file lives (render-certificate-pdf-in-worker.ts
 *      takes it); the admin CLI and `npm run db:migrate` into `fdp-admin.mjs` and `fdp-migrate.mjs`,
 *      started by `admin.mjs` and `migrate.mjs`, which run them from the build's directory;
 *   2. traces the packages those bundles import (@vercel/nft, the tracer Next.js itself uses) and
 *      copies each of them whole into the directory's node_modules, beside Next.js's own trace;
 *   3. copies what the app reads from disk at run time: the migrations (`drizzle/`), the methodology
 *      documents the MCP server publishes, Scalar's vendored bundle, the package files it reads by path (READ_BY_PATH), `public/`
 *      if there is one, and the browser assets (`.next/static`);
 *   4. removes Next.js's `server.js`, which would serve the pages without FDP's API and guards.
 */
import { existsSync } from "node:fs";
import { cp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { nodeFileTrace } from "@vercel/nft";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, ".next", "standalone");
/**
 * The bundles are made and traced here, then copied into `out`: traced from inside `out`, their imports
 * would resolve to Next.js's partial copies of packages there instead of the installed packages.
 */
const bundleDir = path.join(root, ".next", "fdp-bundles");

/** The bundles: entry (repository-relative) → output (relative to the standalone directory). */
const BUNDLES: ReadonlyArray<{ entry: string; output: string }> = [
  { entry: "scripts/standalone/server-entry.ts", output: "server.mjs" },
  { entry: "server.ts", output: "fdp-server.mjs" },
  { entry: "lib/certificates/pdf/render-certificate-pdf-worker.ts", output: "lib/certificates/pdf/render-certificate-pdf-worker.mjs" },
  { entry: "scripts/standalone/admin-entry.ts", output: "admin.mjs" },
  { entry: "scripts/admin.ts", output: "fdp-admin.mjs" },
  { entry: "scripts/standalone/migrate-entry.ts", output: "migrate.mjs" },
  { entry: "scripts/db-migrate.ts", output: "fdp-migrate.mjs" },
];

/**
 * What the trace reports and is known to be harmless:
 * - ws's optional native speed-ups, which it loads in a try/catch;
 * - the entries' imports of their bundles by URL (scripts/standalone/run-from-build-directory.ts): server.mjs
 *   of fdp-server.mjs, admin.mjs of fdp-admin.mjs, migrate.mjs of fdp-migrate.mjs, each itself a bundle;
 * - a yoga-layout file that is an ES module holding the WASM binary as base64: it imports nothing.
 * Anything else fails the build: a package the trace cannot follow would be missing at run time.
 */
const EXPECTED_TRACE_WARNINGS = [
  /^Failed to resolve dependency "(bufferutil|utf-8-validate)":/,
  /^Failed to resolve dependency "file:\/\/.*\/fdp-(server|admin|migrate)\.mjs":/,
  /^Failed to parse .*\/node_modules\/yoga-layout\/dist\/binaries\/yoga-wasm-base64-esm\.js as script:/,
];

/**
 * Package files the app reads by path from the working directory, which no trace sees: the Geist fonts
 * of the PDFs (lib/certificates/pdf/certificate-fonts.ts).
 */
const READ_BY_PATH = ["node_modules/geist/dist/fonts"];

/**
 * Read at run time from the working directory (lib/db/client.ts, lib/mcp/methodology-resources.ts, and
 * Scalar's vendored browser bundle with its provenance, lib/docs/scalar-bundle.ts).
 */
const RUNTIME_DIRECTORIES = ["drizzle", path.join("docs", "methodology"), path.join("vendor", "scalar-api-reference")];

async function main(): Promise<void> {
  if (!existsSync(path.join(out, ".next", "required-server-files.json"))) {
    throw new Error(`${path.relative(root, out)} holds no Next.js build: run \`next build\` (next.config.ts has output: "standalone") first`);
  }

  await build({
    entryPoints: Object.fromEntries(BUNDLES.map(({ entry, output }) => [output.replace(/\.mjs$/, ""), path.join(root, entry)])),
    outdir: bundleDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    jsx: "automatic",
    tsconfig: path.join(root, "tsconfig.json"),
    // Maps from the bundles to the TypeScript sources, used with `node --enable-source-maps`.
    sourcemap: "linked",
    logLevel: "warning",
  });

  // Next.js's trace already holds `next` (its server.js runs the same `next()`), react and what the pages
  // import; tracing `next` again from server.mjs would copy its whole compiled toolchain.
  const bundles = BUNDLES.map(({ output }) => path.join(bundleDir, output));
  const { fileList, warnings } = await nodeFileTrace(bundles, { base: root, ignore: (file) => file.startsWith("node_modules/next/") });
  const unexpected = [...warnings].map((w) => w.message.split("\n")[0]!).filter((message) => !EXPECTED_TRACE_WARNINGS.some((known) => known.test(message)));
  if (unexpected.length > 0) {
    // A package the bundles import that the trace cannot find would be missing from the directory.
    throw new Error(`the trace of the bundles left something out:\n${unexpected.join("\n")}`);
  }
  // Whole packages, not the traced files alone: a package may load files by names no tracer can follow
  // (pdfkit's standard fonts, `require("#standard-fonts/" + name)` through its package.json `imports`,
  // resolve to .cjs files a trace of the ES module never reaches: a 500 on the first certificate).
  const packages = [...new Set([...fileList].map(packageDirectory).filter((dir): dir is string => dir !== null))];
  for (const dir of packages) {
    const source = path.join(root, dir);
    // A package's own node_modules holds other packages: copied when the trace reaches them.
    await cp(source, path.join(out, dir), { recursive: true, force: true, filter: (src) => src === source || !src.slice(source.length).split(path.sep).includes("node_modules") });
  }

  for (const file of READ_BY_PATH) await cp(path.join(root, file), path.join(out, file), { recursive: true });
  await cp(bundleDir, out, { recursive: true });
  for (const dir of RUNTIME_DIRECTORIES) await cp(path.join(root, dir), path.join(out, dir), { recursive: true });
  // Next.js serves public/ from the working directory; FDP has none today (its icons are app/ files).
  if (existsSync(path.join(root, "public"))) await cp(path.join(root, "public"), path.join(out, "public"), { recursive: true });
  await cp(path.join(root, ".next", "static"), path.join(out, ".next", "static"), { recursive: true });
  await rm(path.join(out, "server.js"), { force: true });
  await writeFile(path.join(out, "STANDALONE.md"), standaloneReadme(), "utf8");
  console.log(`[standalone] ${path.relative(root, out)}: server.mjs, admin.mjs, migrate.mjs and ${packages.length} packages; start with \`node server.mjs\``);
}

/** `node_modules/a/node_modules/@b/c/lib/x.js` → `node_modules/a/node_modules/@b/c`; null outside node_modules. */
function packageDirectory(file: string): string | null {
  const match = /^(?:node_modules\/(?:@[^/]+\/)?[^/]+\/)+/.exec(file);
  return match ? match[0].slice(0, -1) : null;
}

function standaloneReadme(): string {
  return [
    "# FDP, self-host build",
    "",
    "Made by `npm run build`. Runs with Node.js 20 or later and nothing else installed (each command runs in",
    "this directory, wherever it is started from):",
    "",
    "    DATABASE_URL=postgres://… REDIS_URL=redis://… AUTH_SECRET=… node server.mjs",
    "    node migrate.mjs     # the migrations alone (the server runs them at start unless FDP_AUTO_SETUP=0)",
    "    node admin.mjs --help",
    "",
    "Configuration, the container image and compose file: docs/self-hosting.md in the repository.",
    "",
  ].join("\n");
}

await main();
