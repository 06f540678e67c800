/**
 * `server.mjs` of the self-host build (scripts/build-standalone.ts): what Next.js's own standalone
 * `server.js` does before it loads Next.js, then FDP's server (server.ts, bundled as `fdp-server.mjs`).
 *
 * - NODE_ENV is production, as in Next.js's file: the bundle is a production build and React picks its
 *   build from NODE_ENV when it is first loaded, hence the set-up here and the server imported after.
 * - The working directory is the build's directory, so `node /app/server.mjs` works from anywhere: the
 *   app reads its migrations, methodology documents, fonts and `.next` from the working directory.
 * - Next.js's settings come from the build (`.next/required-server-files.json`): next.config.ts is
 *   TypeScript and is not part of the build.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

Object.assign(process.env, { NODE_ENV: "production" });
process.chdir(fileURLToPath(new URL(".", import.meta.url)));
const { config } = JSON.parse(readFileSync(".next/required-server-files.json", "utf8")) as { config: unknown };
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);

// A URL, not a literal path: the bundler leaves the import to run time, after the set-up above.
await import(new URL("./fdp-server.mjs", import.meta.url).href);
