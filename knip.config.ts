import type { KnipConfig } from "knip";

/**
 * `npm run knip`: no file, dependency, export or exported type that nothing uses. Exports used only in
 * their own file count as unused (knip's default), so an `export` has to be earned by an importer.
 * Entry points beyond those knip's plugins find (Next.js app router and proxy, vitest, Playwright,
 * drizzle-kit, the npm scripts): the processes started by path rather than by import.
 */
const config: KnipConfig = {
  // server.ts (npm run dev) and proxy.ts (Next.js) are found by knip's plugins.
  entry: [
    // Run by hand with `npx tsx …` (README, docs/performance.md), not all of them from npm scripts.
    "scripts/*.ts",
    // The self-host build's server.mjs (bundled by scripts/build-standalone.ts).
    "scripts/standalone/*.ts",
    // Run by .ci/run.
    "scripts/cpu-reference.mjs",
    // npm start's `node --enable-source-maps scripts/start-production.mjs`, which knip's script parser does not follow.
    "scripts/start-production.mjs",
    "bench/*.ts",
    // Spawned as its own process by bench/benchmarks/read-floor.ts.
    "bench/lib/floor-server.ts",
    "bin/*.mjs",
    // The typed client's public API (what partners import) and its runnable tour.
    "clients/typescript/src/index.ts",
    "clients/typescript/examples/tour.ts",
  ],
  // The typed client's public API is for partners, and its generated types are openapi-typescript's whole output.
  // The partner samples (samples/) import the client as installed in their own folder, and run as they are.
  ignore: ["clients/typescript/src/schema.ts", "samples/**"],
  project: ["**/*.{ts,tsx,mjs}"],
  ignoreDependencies: [
    // Run as command-line tools by name (scripts/lint-openapi.ts execs `redocly` and `spectral`;
    // tests/integration/mcp-server.test.ts runs the MCP Inspector's CLI), never imported.
    "@redocly/cli",
    "@stoplight/spectral-cli",
    "@modelcontextprotocol/inspector",
    // tests/integration/partner-samples.test.ts runs its CLI (node_modules/.bin/newman) over the Postman collection.
    "newman",
    // Next.js brings its own PostCSS and loads postcss.config.mjs itself.
    "postcss",
  ],
};

export default config;
