/** `migrate.mjs` of the self-host build: `npm run db:migrate` (scripts/db-migrate.ts, bundled as `fdp-migrate.mjs`), run from the build's directory. */
import { runFromBuildDirectory } from "./run-from-build-directory";

await runFromBuildDirectory(import.meta.url, "./fdp-migrate.mjs");
