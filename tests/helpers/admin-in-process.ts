import { setEnv } from "./test-env";
import { runAdmin } from "@/scripts/lib/run-admin";

export interface AdminInProcessRun {
  code: 0 | 1;
  /** The answer as the CLI prints it on stdout: through JSON, so dates are strings as there. */
  json: Record<string, unknown>;
  /** What the CLI wrote to stderr (logs, usage), one line per write. */
  stderr: string;
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * One command of the operations CLI in this process, as `npm run --silent admin -- <args>` runs it in
 * its own (scripts/admin.ts is that run plus printing and the exit code). The CLI reads DATABASE_URL,
 * FDP_DATA_DIR and the secrets through `env()` (lib/env.ts), which parses process.env once per process:
 * so `env` (undefined: unset) is put on process.env and the parsed copy forgotten before the run, and
 * both are put back after it. Runs go one at a time, since process.env is the whole process's.
 */
export function runAdminInProcess(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<AdminInProcessRun> {
  const run = queue.then(() => runWithEnv(args, env));
  queue = run.catch(() => undefined);
  return run;
}

async function runWithEnv(args: readonly string[], env: Record<string, string | undefined>): Promise<AdminInProcessRun> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  setEnv(env);
  try {
    const stderr: string[] = [];
    const { code, output } = await runAdmin(args, { stderr: (text) => stderr.push(text.replace(/\n$/, "")) });
    return { code, json: JSON.parse(JSON.stringify(output)) as Record<string, unknown>, stderr: stderr.join("\n") };
  } finally {
    setEnv(saved);
  }
}
