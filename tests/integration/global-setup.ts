import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The integration tests run the production build as users do. It is built once per run;
 * FDP_SKIP_BUILD=1 reuses an existing .next build (handy while iterating on tests only).
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, "../..");
  if (process.env.FDP_SKIP_BUILD === "1" && existsSync(path.join(root, ".next", "BUILD_ID"))) return;
  execFileSync("npm", ["run", "--silent", "build"], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
  });
}
