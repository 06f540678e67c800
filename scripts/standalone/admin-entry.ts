/** `admin.mjs` of the self-host build: the operations CLI (scripts/admin.ts, bundled as `fdp-admin.mjs`), run from the build's directory. */
import { runFromBuildDirectory } from "./run-from-build-directory";

await runFromBuildDirectory(import.meta.url, "./fdp-admin.mjs");
