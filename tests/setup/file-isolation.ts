import { clearKeyCache } from "@/lib/auth/authenticate-api-key";
import { resetEnvCache } from "@/lib/env";
import { resetRateLimiters } from "@/lib/rate-limit/limiter-store";

/**
 * Test files of a worker share its loaded modules (`isolate: false` in vitest.config.ts: loading the app's
 * module graph again for every file was a fifth of Vitest's time). What a file leaves behind in the
 * process must not reach the next file, so before each file the environment is put back as the worker
 * started (a file's STATEMENT_TIMEOUT_MS=1000 once cancelled the next file's queries) and the caches built
 * from it are emptied: the parsed environment, the API-key cache, the rate limiters.
 */
const g = globalThis as { __fdpWorkerEnv?: Record<string, string | undefined> };
const initial = (g.__fdpWorkerEnv ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in initial)) delete process.env[name];
Object.assign(process.env, initial);
resetEnvCache();
clearKeyCache();
resetRateLimiters();
