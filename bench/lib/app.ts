import { spawn } from "node:child_process";
import { ROOT, startApp, type AppProcess } from "../../tests/helpers/app-process";

export { ROOT };
export type { AppProcess };

/** `npm run build` (production build of the app), output passed through to stderr. */
export async function buildApp(log: (m: string) => void): Promise<void> {
  log("building: npm run build");
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn("npm", ["run", "build"], {
      cwd: ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
      stdio: ["ignore", process.stderr, process.stderr],
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`npm run build failed (${signal ?? code})`))));
  });
  log(`build done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Starts the built app with `npm start` on a free loopback port against `databaseUrl`, with Redis
 * off (REDIS_URL unset: the rate limiter counts in Postgres, as a single-instance deployment does).
 */
export async function startBuiltApp(databaseUrl: string, log: (m: string) => void, env: Record<string, string | undefined> = {}): Promise<AppProcess> {
  log("starting: npm start");
  const started = Date.now();
  const app = await startApp({
    mode: "start",
    env: { DATABASE_URL: databaseUrl, REDIS_URL: undefined, ...env },
    readyTimeoutMs: 120_000,
  });
  log(`app ready at ${app.url} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return app;
}
