import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { ROOT } from "../../helpers/app-process";

const run = promisify(execFile);

/**
 * `npm start` (scripts/start-production.mjs) runs the compiled server the build leaves in
 * .next/fdp-bundles, found beside the script, not from the working directory. Without a build it says
 * so and exits 1. That the compiled server itself serves is what the integration and browser tests show:
 * they start the app with `npm start`.
 */
const copy = mkdtempSync(path.join(tmpdir(), "fdp-start-"));
mkdirSync(path.join(copy, "scripts"));
cpSync(path.join(ROOT, "scripts", "start-production.mjs"), path.join(copy, "scripts", "start-production.mjs"));
afterAll(() => rmSync(copy, { recursive: true, force: true }));

it("without a build, says to run `npm run build` and exits 1", async () => {
  const failed = await run(process.execPath, [path.join(copy, "scripts", "start-production.mjs")], { cwd: tmpdir() }).then(
    () => null,
    (err: { code: number; stderr: string }) => err,
  );
  expect(failed?.code).toBe(1);
  expect(failed?.stderr).toContain("run `npm run build` first");
});

it("imports the compiled server beside it, whatever the working directory", async () => {
  mkdirSync(path.join(copy, ".next", "fdp-bundles"), { recursive: true });
  writeFileSync(path.join(copy, ".next", "fdp-bundles", "fdp-server.mjs"), 'console.log("compiled server loaded", process.env.NODE_ENV);\n');
  const { stdout } = await run(process.execPath, [path.join(copy, "scripts", "start-production.mjs")], { cwd: tmpdir(), env: { ...process.env, NODE_ENV: "production" } });
  expect(stdout.trim()).toBe("compiled server loaded production");
});
