import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");

/** CI gate: Redocly (recommended) and Spectral (spectral:oas) report nothing, not even a warning. */
it("the OpenAPI document passes both linters without a single finding", async () => {
  const { stdout } = await run("npm", ["run", "--silent", "lint:openapi"], { cwd: ROOT, env: { ...process.env, PUBLIC_BASE_URL: "https://api.fdp.example" } }).catch(
    (err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }),
  );
  const report = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { findings: number; details: unknown[] };
  expect(report.details).toEqual([]);
  expect(report.findings).toBe(0);
}, 120_000);
