/**
 * Lints the OpenAPI document the server serves with both linters CI requires, and fails on any
 * finding, warnings included:
 *   - Redocly CLI, `recommended` rules (redocly.yaml);
 *   - Spectral, `spectral:oas` (.spectral.yaml).
 *
 *   npm run lint:openapi
 *
 * The document is built for a deployed origin (PUBLIC_BASE_URL, default https://api.fdp.example):
 * with the local default `http://localhost:3000` Redocly rightly warns that a server points to localhost.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const BIN = path.join(process.cwd(), "node_modules/.bin");

interface Finding {
  linter: string;
  severity: string;
  rule: string;
  where: string;
  message: string;
}

async function exec(cmd: string, args: string[]): Promise<string> {
  // Both linters exit non-zero on findings; their JSON report on stdout is what counts.
  const out = await run(path.join(BIN, cmd), args, { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } }).catch(
    (err: { stdout?: string; stderr?: string; code?: number }) => {
      if (!err.stdout) throw new Error(`${cmd} failed (exit ${err.code}): ${err.stderr ?? ""}`);
      return { stdout: err.stdout };
    },
  );
  return out.stdout;
}

async function redocly(file: string): Promise<Finding[]> {
  const report = JSON.parse(await exec("redocly", ["lint", file, "--config", "redocly.yaml", "--format", "json"])) as {
    problems: { ruleId: string; severity: string; message: string; location?: { pointer?: string }[] }[];
  };
  return report.problems.map((p) => ({ linter: "redocly", severity: p.severity, rule: p.ruleId, where: p.location?.[0]?.pointer ?? "", message: p.message }));
}

async function spectral(file: string): Promise<Finding[]> {
  const text = await exec("spectral", ["lint", file, "--ruleset", ".spectral.yaml", "--format", "json", "--fail-severity", "hint", "--quiet"]);
  const report = (text.trim() ? JSON.parse(text) : []) as { code: string; severity: number; message: string; path: string[] }[];
  const names = ["error", "warn", "info", "hint"];
  return report.map((p) => ({ linter: "spectral", severity: names[p.severity] ?? String(p.severity), rule: p.code, where: p.path.join("."), message: p.message }));
}

async function main(): Promise<void> {
  process.env.PUBLIC_BASE_URL ??= "https://api.fdp.example";
  const { openApiDocument } = await import("@/lib/openapi/document");
  const dir = mkdtempSync(path.join(tmpdir(), "fdp-openapi-"));
  try {
    const file = path.join(dir, "openapi.json");
    writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
    const findings = [...(await redocly(file)), ...(await spectral(file))];
    console.log(JSON.stringify({ findings: findings.length, details: findings }));
    if (findings.length > 0) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 2;
});
