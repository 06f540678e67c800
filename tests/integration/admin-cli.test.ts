import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/app-process";

/**
 * The operations CLI as operators and acceptance checks run it: `npm run --silent admin -- …`, one real
 * process. Its commands are tests/db/admin-cli.test.ts's, run in process; what only a process shows is
 * here: stdout holds exactly the one JSON line, the exit code follows the answer, and an embedded
 * database that another process (this one) holds is refused instead of being opened twice (in one
 * process the CLI cannot tell another opener from itself).
 */

const dataDir = mkdtempSync(path.join(tmpdir(), "fdp-admin-spawn-"));
let holder: PGlite | undefined;

afterAll(async () => {
  await holder?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function npmRunAdmin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "admin", "--", ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run --silent admin", () => {
  it("refuses an embedded database another process holds: one JSON line on stdout and exit 1", async () => {
    holder = new PGlite(dataDir);
    await holder.query("select 1");
    const { DATABASE_URL: _unused, ...inherited } = process.env;

    const run = await npmRunAdmin(["key:revoke", "--key-id", "key_doesnotexist000000"], { ...inherited, FDP_DATA_DIR: dataDir });

    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout.endsWith("\n")).toBe(true);
    expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
    const answer = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(["error", "message"]);
    expect(answer.error).toBe("internal_error");
    expect(answer.message).toMatch(/in use by another process \(pid \d+/);
    expect(answer.message).toMatch(/DATABASE_URL/);
    expect(run.stderr).not.toContain(answer.message as string);
  }, 120_000);
});
