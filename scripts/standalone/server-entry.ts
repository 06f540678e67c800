/**
 * `server.mjs` of the self-host build (scripts/build-standalone.ts): what Next.js's own standalone
 * `server.js` does before it loads Next.js, then FDP's server (server.ts, bundled as `fdp-server.mjs`).
 *
 * - NODE_ENV is production, as in Next.js's file: the bundle is a production build and React picks its
 *   build from NODE_ENV when it is first loaded, hence the set-up here and the server imported after.
 * - The working directory is the build's directory (run-from-build-directory.ts), so `node /app/server.mjs`
 *   works from anywhere.
 * - Next.js's settings come from the build (`.next/required-server-files.json`): next.config.ts is
 *   TypeScript and is not part of the build.
 */
import { readFileSync } from "node:fs";
import { runFromBuildDirectory } from "./run-from-build-directory";

Object.assign(process.env, { NODE_ENV: "production" });
const { config } = JSON.parse(readFileSync(new URL(".next/required-server-files.json", import.meta.url), "utf8")) as { config: unknown };
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);

await runFromBuildDirectory(import.meta.url, "./fdp-server.mjs");
