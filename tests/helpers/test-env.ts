import { resetEnvCache } from "@/lib/env";

/**
 * Sets (or, for `undefined`, removes) variables on process.env and drops the cached settings, so the
 * next env() reads them. tests/setup/file-isolation.ts puts the environment back after each file.
 */
export function setEnv(values: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}
