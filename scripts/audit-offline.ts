/**
 * Dependency audit that still works where the registry refuses npm's advisory endpoints.
 *
 *   npm run audit:offline                        live `npm audit --omit=dev --json` first, else the snapshot
 *   npm run audit:offline -- --snapshot-only     skip the live attempt (deterministic, no network)
 *   npm run audit:offline -- --include-dev       audit devDependencies too
 *   npm run audit:offline -- --lockfile <path> --snapshot <path>
 *
 * Exits 1 when a high or critical advisory applies to an installed version, or when the snapshot is
 * malformed (a typo in a range must not read as "nothing found"); 0 otherwise. Moderate and low
 * findings are printed but do not fail the run. docs/dependency-audit.md explains the snapshot.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import semver from "semver";
import { z } from "zod";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DEFAULT_SNAPSHOT = path.join(ROOT, "security/advisories.json");
export const DEFAULT_LOCKFILE = path.join(ROOT, "package-lock.json");
const DEFAULT_VENDOR_DIRECTORY = path.join(ROOT, "vendor");

const SEVERITIES = ["low", "moderate", "high", "critical"] as const;
type Severity = (typeof SEVERITIES)[number];
const FAILING: ReadonlySet<Severity> = new Set(["high", "critical"]);

/**
 * Ranges are matched with `includePrerelease`: a prerelease counts as the version it orders as, so
 * 5.0.0-beta.31 is inside "<5.0.0". semver's default would leave every prerelease outside a range
 * whose comparators carry none, which for a vulnerability check means silently missing a beta of an
 * affected line (next-auth 5 ships only betas). Over-reporting a beta is the safer error.
 */
const MATCH = { includePrerelease: true } as const;

const advisoryId = z.string().regex(/^(GHSA(-[23456789cfghjmpqrvwx]{4}){3}|CVE-\d{4}-\d{4,})$/, "a GHSA or CVE id");

const advisorySchema = z
  .object({
    id: advisoryId,
    aliases: z.array(advisoryId).default([]),
    package: z.string().min(1),
    vulnerable: z.string().refine((r) => semver.validRange(r, MATCH) !== null, "a semver range"),
    /** The first patched version of each release line the advisory names; empty when no fix is published. */
    patched: z.array(z.string().refine((v) => semver.valid(v) !== null, "a semver version")),
    severity: z.enum(SEVERITIES),
    summary: z.string().min(1),
    source: z.url(),
  })
  .strict()
  // A patched version inside its own vulnerable range is a transcription error, not an advisory.
  .refine((a) => a.patched.every((v) => !semver.satisfies(v, a.vulnerable, MATCH)), {
    message: "a patched version lies inside the vulnerable range",
    path: ["patched"],
  });

export const snapshotSchema = z
  .object({
    snapshot_date: z.iso.date(),
    sources: z.array(z.string().min(1)).min(1),
    limits: z.string().min(1),
    advisories: z.array(advisorySchema),
    searched_without_findings: z.array(z.object({ package: z.string().min(1), searched: z.iso.date(), note: z.string().optional() }).strict()),
  })
  .strict();

export type Snapshot = z.infer<typeof snapshotSchema>;
export type Advisory = Snapshot["advisories"][number];

export interface Installed {
  name: string;
  version: string;
  /** The lockfile key, e.g. node_modules/a/node_modules/b: where it sits in the tree. */
  location: string;
  dev: boolean;
}

export interface Finding {
  package: string;
  version: string;
  location: string;
  id: string;
  severity: Severity;
  vulnerable: string;
  patched: string[];
  summary: string;
  source: string;
}

export class SnapshotError extends Error {}

export function parseSnapshot(json: unknown): Snapshot {
  const parsed = snapshotSchema.safeParse(json);
  if (!parsed.success) throw new SnapshotError(`malformed advisory snapshot:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const lockfileSchema = z.object({
  lockfileVersion: z.number(),
  packages: z.record(z.string(), z.object({ name: z.string().optional(), version: z.string().optional(), dev: z.boolean().optional(), link: z.boolean().optional() })).optional(),
});

/**
 * The installed packages of a lockfileVersion 2/3 lockfile (its `packages` map). `dev: true` marks a
 * package only devDependencies reach; `devOptional` ones are installed by `--omit=dev` too (an optional
 * dependency of a production package), so they count as production, as npm itself treats them.
 */
export function installedPackages(lockfile: unknown, opts: { includeDev: boolean }): Installed[] {
  const lock = lockfileSchema.parse(lockfile);
  if (lock.lockfileVersion < 2 || !lock.packages) {
    throw new Error(`lockfileVersion ${lock.lockfileVersion} has no packages map; npm 7+ writes version 2 or 3`);
  }
  const out: Installed[] = [];
  for (const [location, entry] of Object.entries(lock.packages)) {
    // Only what sits under node_modules is a dependency: "" is the project itself and a workspace
    // folder (reached through a `link` entry) is the project's own code.
    if (!location.includes("node_modules/") || entry.link || !entry.version) continue;
    const dev = entry.dev === true;
    if (dev && !opts.includeDev) continue;
    const name = entry.name ?? location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);
    out.push({ name, version: entry.version, location, dev });
  }
  return out;
}

/**
 * Releases kept in the repository rather than installed (vendor/<name>/provenance.json, written by
 * scripts/vendor-scalar.ts): no lockfile lists them, and they are served to every visitor of /docs, so
 * they are audited as production packages.
 */
export function vendoredPackages(vendorDir: string = DEFAULT_VENDOR_DIRECTORY): Installed[] {
  if (!existsSync(vendorDir)) return [];
  const provenance = z.object({ package: z.string().min(1), version: z.string().min(1) });
  return readdirSync(vendorDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(vendorDir, entry.name, "provenance.json")))
    .map((entry) => {
      const { package: name, version } = provenance.parse(JSON.parse(readFileSync(path.join(vendorDir, entry.name, "provenance.json"), "utf8")));
      return { name, version, location: path.join("vendor", entry.name), dev: false };
    });
}

/** Every (installed package, advisory) pair whose version lies in the advisory's vulnerable range. */
export function match(installed: Installed[], snapshot: Snapshot): Finding[] {
  const byPackage = new Map<string, Advisory[]>();
  for (const a of snapshot.advisories) byPackage.set(a.package, [...(byPackage.get(a.package) ?? []), a]);
  const findings: Finding[] = [];
  for (const pkg of installed) {
    // A version that is not semver (a git or file dependency) cannot be placed in any range.
    if (!semver.valid(pkg.version)) continue;
    for (const a of byPackage.get(pkg.name) ?? []) {
      if (!semver.satisfies(pkg.version, a.vulnerable, MATCH)) continue;
      findings.push({
        package: pkg.name,
        version: pkg.version,
        location: pkg.location,
        id: [a.id, ...a.aliases].join(" / "),
        severity: a.severity,
        vulnerable: a.vulnerable,
        patched: a.patched,
        summary: a.summary,
        source: a.source,
      });
    }
  }
  return findings.sort((x, y) => SEVERITIES.indexOf(y.severity) - SEVERITIES.indexOf(x.severity) || x.package.localeCompare(y.package));
}

export function failing(findings: Finding[]): Finding[] {
  return findings.filter((f) => FAILING.has(f.severity));
}

/** How much of the installed tree the snapshot says anything about (an advisory or a recorded empty search). */
export function coverage(installed: Installed[], snapshot: Snapshot): { names: number; covered: number; uncovered: string[] } {
  const names = [...new Set(installed.map((p) => p.name))].sort();
  const known = new Set([...snapshot.advisories.map((a) => a.package), ...snapshot.searched_without_findings.map((s) => s.package)]);
  const uncovered = names.filter((n) => !known.has(n));
  return { names: names.length, covered: names.length - uncovered.length, uncovered };
}

/** The result of the checked snapshot on a lockfile: what the unit test and the CLI both run. */
export function auditWithSnapshot(opts: { lockfile: string; snapshot: string; includeDev: boolean; vendorDir?: string }) {
  const snapshot = parseSnapshot(JSON.parse(readFileSync(opts.snapshot, "utf8")));
  const installed = [...installedPackages(JSON.parse(readFileSync(opts.lockfile, "utf8")), { includeDev: opts.includeDev }), ...vendoredPackages(opts.vendorDir)];
  const findings = match(installed, snapshot);
  return { snapshot, installed, findings, failing: failing(findings), coverage: coverage(installed, snapshot) };
}

interface LiveFinding {
  package: string;
  severity: Severity;
  range: string;
  title: string;
  url: string;
}

/**
 * `npm audit --json`, or why it gave no report (here: the registry answers 405 on the bulk endpoint).
 * npm exits 1 both on findings and on errors, so the JSON decides, not the exit code.
 */
async function liveAudit(includeDev: boolean, cwd: string): Promise<{ findings: LiveFinding[] } | { unavailable: string }> {
  const args = ["audit", "--json", ...(includeDev ? [] : ["--omit=dev"])];
  const stdout = await new Promise<string>((resolve) => {
    execFile("npm", args, { cwd, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (_err, out) => resolve(out ?? ""));
  });
  let report: { vulnerabilities?: Record<string, { via: unknown[] }>; error?: unknown; message?: string };
  try {
    report = JSON.parse(stdout) as typeof report;
  } catch {
    return { unavailable: "npm printed no JSON report" };
  }
  if (!report.vulnerabilities || report.error || report.message) {
    return { unavailable: typeof report.message === "string" ? report.message : "npm reported an error" };
  }
  const out: LiveFinding[] = [];
  for (const [name, v] of Object.entries(report.vulnerabilities)) {
    for (const via of v.via) {
      // A string `via` names another vulnerable package whose own entry carries the advisory.
      if (typeof via !== "object" || via === null) continue;
      const a = via as { severity?: string; range?: string; title?: string; url?: string };
      // npm's "info" is below low; a severity npm may add later counts as failing until read.
      const severity = a.severity === "info" ? "low" : (SEVERITIES.find((s) => s === a.severity) ?? "high");
      out.push({ package: name, severity, range: a.range ?? "?", title: a.title ?? "", url: a.url ?? "" });
    }
  }
  return { findings: out };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** The command line; returns the exit code (exported so the tests run it in-process). */
export async function main(argv: string[]): Promise<number> {
  const flag = (name: string) => argv.includes(name);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const includeDev = flag("--include-dev");
  const lockfile = path.resolve(value("--lockfile") ?? DEFAULT_LOCKFILE);
  const snapshotPath = path.resolve(value("--snapshot") ?? DEFAULT_SNAPSHOT);
  const scope = includeDev ? "production and development dependencies" : "production dependencies (--omit=dev)";

  // The snapshot is validated on every run, the live one included, so a broken file fails CI at once.
  let result: ReturnType<typeof auditWithSnapshot>;
  try {
    result = auditWithSnapshot({ lockfile, snapshot: snapshotPath, includeDev });
  } catch (err) {
    if (err instanceof SnapshotError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  }

  if (!flag("--snapshot-only")) {
    const live = await liveAudit(includeDev, path.dirname(lockfile));
    if ("findings" in live) {
      console.log(`source: live \`npm audit\` from the registry, ${scope}`);
      if (live.findings.length) {
        console.log(table([["package", "severity", "range", "advisory"], ...live.findings.map((f) => [f.package, f.severity, f.range, `${f.title} ${f.url}`])]));
      }
      const bad = live.findings.filter((f) => FAILING.has(f.severity));
      console.log(`${live.findings.length} advisories, ${bad.length} high or critical`);
      return bad.length ? 1 : 0;
    }
    console.log(`live \`npm audit\` unavailable (${live.unavailable}); falling back to the snapshot`);
  }

  const { snapshot, installed, findings, coverage: cov } = result;
  console.log(
    `source: pinned snapshot ${path.relative(process.cwd(), snapshotPath)} of ${snapshot.snapshot_date} ` +
      `(${snapshot.advisories.length} advisories), ${scope}: ${installed.length} installed packages, ` +
      `${cov.covered} of ${cov.names} names covered by an advisory or a recorded search`,
  );
  if (findings.length) {
    console.log(
      table([
        ["severity", "package", "installed", "advisory", "vulnerable", "patched", "where"],
        ...findings.map((f) => [f.severity, f.package, f.version, f.id, f.vulnerable, f.patched.join(", ") || "none", f.location]),
      ]),
    );
    for (const f of findings) console.log(`  ${f.id}: ${f.summary} (${f.source})`);
  }
  console.log(`${findings.length} findings, ${result.failing.length} high or critical`);
  return result.failing.length ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
