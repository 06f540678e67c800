import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import semver from "semver";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { scalarProvenance } from "@/lib/docs/scalar-bundle";
import { auditWithSnapshot, DEFAULT_LOCKFILE, DEFAULT_SNAPSHOT, installedPackages, main, match, parseSnapshot, SnapshotError, type Snapshot } from "@/scripts/audit-offline";

/** A lockfileVersion 3 `packages` map as npm writes it: the root, nested copies, a dev-only entry, an alias, a link. */
const lockfile = {
  name: "fixture",
  lockfileVersion: 3,
  packages: {
    "": { name: "fixture", version: "1.0.0" },
    "node_modules/next": { version: "16.3.0" },
    "node_modules/next-auth": { version: "5.0.0-beta.31" },
    "node_modules/@auth/core": { version: "0.41.3" },
    "node_modules/semver": { version: "7.5.1", devOptional: true },
    "node_modules/a/node_modules/semver": { version: "6.3.0" },
    "node_modules/esbuild": { version: "0.18.20", dev: true },
    "node_modules/pdf-alias": { name: "crypto-js", version: "3.3.0" },
    "node_modules/local-lib": { resolved: "packages/local-lib", link: true },
    "packages/local-lib": { name: "local-lib", version: "0.1.0" },
  },
};

function advisory(over: Partial<Snapshot["advisories"][number]>): Snapshot["advisories"][number] {
  return {
    id: "GHSA-2464-fhr4-w9xw",
    aliases: [],
    package: "next",
    vulnerable: ">=16.0.0 <16.4.1",
    patched: ["16.4.1"],
    severity: "critical",
    summary: "fixture",
    source: "https://osv.dev/vulnerability/GHSA-2464-fhr4-w9xw",
    ...over,
  };
}

function snapshot(advisories: Snapshot["advisories"]): Snapshot {
  return { snapshot_date: "2026-11-29", sources: ["fixture"], limits: "fixture", advisories, searched_without_findings: [] };
}

const prod = installedPackages(lockfile, { includeDev: false });

describe("installedPackages (lockfile v3)", () => {
  it("lists every installed copy with its name from the path, or from `name` for an alias; not the project or its workspaces", () => {
    expect(prod.map((p) => `${p.name}@${p.version}`).sort()).toEqual([
      "@auth/core@0.41.3",
      "crypto-js@3.3.0",
      "next-auth@5.0.0-beta.31",
      "next@16.3.0",
      "semver@6.3.0",
      "semver@7.5.1",
    ]);
  });

  it("skips `dev: true` entries unless asked, and keeps `devOptional` ones (npm installs them with --omit=dev)", () => {
    expect(prod.some((p) => p.name === "esbuild")).toBe(false);
    expect(prod.some((p) => p.name === "semver" && p.version === "7.5.1")).toBe(true);
    const all = installedPackages(lockfile, { includeDev: true });
    expect(all.find((p) => p.name === "esbuild")).toMatchObject({ version: "0.18.20", dev: true });
  });

  it("refuses a lockfile without a packages map (npm 6)", () => {
    expect(() => installedPackages({ lockfileVersion: 1, dependencies: {} }, { includeDev: false })).toThrow(/lockfileVersion 1 has no packages map/);
  });
});

describe("match", () => {
  it("reports a version inside the range and not the patched one", () => {
    const snap = snapshot([advisory({})]);
    expect(match(prod, snap).map((f) => [f.package, f.version, f.id])).toEqual([["next", "16.3.0", "GHSA-2464-fhr4-w9xw"]]);
    const patched = installedPackages({ lockfileVersion: 3, packages: { "node_modules/next": { version: "16.4.1" } } }, { includeDev: false });
    expect(match(patched, snap)).toEqual([]);
  });

  it("applies each alternative of a `||` range, and nothing between the lines", () => {
    const snap = snapshot([
      advisory({
        id: "GHSA-c2qf-rxjj-qqgw",
        package: "semver",
        vulnerable: "<5.7.2 || >=6.0.0 <6.3.1 || >=7.0.0 <7.5.2",
        patched: ["5.7.2", "6.3.1", "7.5.2"],
        severity: "moderate",
      }),
    ]);
    expect(
      match(prod, snap)
        .map((f) => f.location)
        .sort(),
    ).toEqual(["node_modules/a/node_modules/semver", "node_modules/semver"]);
    const between = installedPackages({ lockfileVersion: 3, packages: { "node_modules/semver": { version: "6.4.0" } } }, { includeDev: false });
    expect(match(between, snap)).toEqual([]);
  });

  it("places prereleases by semver precedence: beta.31 is inside `<5.0.0-beta.32`, beta.32 is not", () => {
    const snap = snapshot([
      advisory({
        id: "GHSA-x445-f3h2-j279",
        package: "next-auth",
        vulnerable: "<4.24.15 || >=5.0.0-beta.1 <5.0.0-beta.32",
        patched: ["4.24.15", "5.0.0-beta.32"],
        severity: "moderate",
      }),
    ]);
    expect(match(prod, snap)).toHaveLength(1);
    const fixed = installedPackages({ lockfileVersion: 3, packages: { "node_modules/next-auth": { version: "5.0.0-beta.32" } } }, { includeDev: false });
    expect(match(fixed, snap)).toEqual([]);
  });

  it("counts a beta of an affected release as affected by a range without prereleases (semver's default would not)", () => {
    const beta = installedPackages({ lockfileVersion: 3, packages: { "node_modules/next-auth": { version: "5.0.0-beta.32" } } }, { includeDev: false });
    // The deliberate difference: without includePrerelease a beta never satisfies "<5.0.0".
    expect(semver.satisfies("5.0.0-beta.32", "<5.0.0")).toBe(false);
    expect(match(beta, snapshot([advisory({ package: "next-auth", vulnerable: "<5.0.0", patched: ["5.0.0"] })]))).toHaveLength(1);
  });

  it("matches an alias by the package it installs, and ignores packages the snapshot does not name", () => {
    const snap = snapshot([advisory({ id: "GHSA-xwcq-pm8m-c4vf", package: "crypto-js", vulnerable: "<4.2.0", patched: ["4.2.0"] })]);
    expect(match(prod, snap).map((f) => f.location)).toEqual(["node_modules/pdf-alias"]);
  });
});

describe("parseSnapshot", () => {
  const valid = snapshot([advisory({})]);

  it("accepts a well-formed snapshot", () => {
    expect(parseSnapshot(valid).advisories).toHaveLength(1);
  });

  it.each([
    ["a range semver cannot read", { vulnerable: "before 16.4.1" }],
    ["a patched version inside its own range", { patched: ["16.3.0"] }],
    ["a severity outside GitHub's four", { severity: "severe" }],
    ["an id that is neither GHSA nor CVE", { id: "SNYK-JS-NEXT-1" }],
    ["a source that is not a URL", { source: "osv" }],
  ])("refuses %s", (_what, over) => {
    const bad = { ...valid, advisories: [{ ...advisory({}), ...over }] };
    expect(() => parseSnapshot(bad)).toThrow(SnapshotError);
  });
});

describe("the command (--snapshot-only)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "audit-offline-"));
  const lockPath = path.join(dir, "package-lock.json");
  const snapPath = path.join(dir, "advisories.json");
  writeFileSync(lockPath, JSON.stringify(lockfile));
  const run = async (snap: unknown) => {
    writeFileSync(snapPath, JSON.stringify(snap));
    const out: string[] = [];
    vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
    vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
    const code = await main(["--snapshot-only", "--lockfile", lockPath, "--snapshot", snapPath]);
    return { code, out: out.join("\n") };
  };
  afterEach(() => vi.restoreAllMocks());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("exits 1 on a critical finding and names the source, the advisory and where the package sits", async () => {
    const { code, out } = await run(snapshot([advisory({})]));
    expect(code).toBe(1);
    expect(out).toMatch(/source: pinned snapshot/);
    expect(out).toMatch(/critical\s+next\s+16\.3\.0\s+GHSA-2464-fhr4-w9xw/);
    expect(out).toMatch(/1 findings, 1 high or critical/);
  });

  it("exits 0 when only moderate findings apply, and still prints them", async () => {
    const { code, out } = await run(snapshot([advisory({ severity: "moderate" })]));
    expect(code).toBe(0);
    expect(out).toMatch(/moderate\s+next/);
  });

  it("exits 1 on a malformed snapshot rather than reading it as no findings", async () => {
    const { code, out } = await run({ ...snapshot([]), advisories: [{ id: "GHSA-2464-fhr4-w9xw" }] });
    expect(code).toBe(1);
    expect(out).toMatch(/malformed advisory snapshot/);
  });
});

/** CI fails here when package-lock.json gains a version the pinned snapshot knows to be high or critical. */
describe("this repository's production tree against security/advisories.json", () => {
  const result = auditWithSnapshot({ lockfile: DEFAULT_LOCKFILE, snapshot: DEFAULT_SNAPSHOT, includeDev: false });

  it("has no high or critical advisory", () => {
    expect(result.failing.map((f) => `${f.package}@${f.version} ${f.id} (${f.location})`)).toEqual([]);
  });

  it("audits the vendored Scalar bundle as a production package at its vendored version", () => {
    const vendored = result.installed.filter((p) => p.location.startsWith("vendor"));
    expect(vendored).toEqual([{ name: "@scalar/api-reference", version: scalarProvenance().version, location: path.join("vendor", "scalar-api-reference"), dev: false }]);
    const covered = result.snapshot.searched_without_findings.map((s) => s.package);
    expect(covered).toContain("@scalar/api-reference");
    // An advisory for that release would be reported there.
    const snap = snapshot([advisory({ package: "@scalar/api-reference", vulnerable: `<=${scalarProvenance().version}`, patched: [] })]);
    expect(match(vendored, snap).map((f) => `${f.package}@${f.version} ${f.location}`)).toEqual([
      `@scalar/api-reference@${scalarProvenance().version} vendor/scalar-api-reference`,
    ]);
  });

  it("covers every direct production dependency (an advisory or a recorded search)", () => {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../package.json"), "utf8")) as { dependencies: Record<string, string> };
    const covered = new Set([...result.snapshot.advisories.map((a) => a.package), ...result.snapshot.searched_without_findings.map((s) => s.package)]);
    expect(Object.keys(pkg.dependencies).filter((d) => !covered.has(d))).toEqual([]);
  });
});
