// `npm start`: the production server as `npm run build` compiled it (server.ts bundled by
// scripts/build-standalone.ts into .next/fdp-bundles/fdp-server.mjs, the same file the self-host build runs
// as fdp-server.mjs), in this process and from the repository: the working directory, .next and .data are
// the repository's, as with `npm run dev`. Compiled rather than through tsx: a start takes about 2 CPU-seconds
// less (docs/performance.md, "The compiled server in production").
import { existsSync } from "node:fs";

const server = new URL("../.next/fdp-bundles/fdp-server.mjs", import.meta.url);
if (!existsSync(server)) {
  console.error("npm start: no production build here (.next/fdp-bundles/fdp-server.mjs is missing): run `npm run build` first.");
  process.exit(1);
}
await import(server.href);
