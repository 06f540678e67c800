import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { telemetry } from "@/lib/db/schema";
import { ROOT, startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * The partner samples (samples/: curl, Python with the standard library only, Node with the typed client)
 * run as a partner runs them, against the built app (`npm start` on Postgres), with a tenant's own key and
 * ingest secret: signed ingest in both signature forms of the CONTRACT, then a certificate check. What
 * they stored is counted in the database, not taken from their output.
 *
 * The Node samples install as the README says, in a temporary copy: the client package is installed (its
 * `prepare` builds dist/ with tsc), then the samples' package, which depends on it by `file:`.
 */

const exec = promisify(execFile);
/** A sample's run: its exit code and what it printed. */
async function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === "number" ? err.code : -1, stdout: err.stdout ?? "", stderr: err.stderr ?? "" };
  }
}

let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let db: DbHandle;
let app: AppProcess;
let tenant: Awaited<ReturnType<typeof createTenantWithKey>>;
let work: string;
let sampleEnv: Record<string, string>;

beforeAll(async () => {
  pg = await createPostgresDatabase("fdp_it_samples", "seeded");
  db = await openDatabase({ url: pg.url });
  tenant = await createTenantWithKey(db.db, { name: "Samples tenant" });
  work = mkdtempSync(path.join(tmpdir(), "fdp-samples-"));
  const install = async (dir: string) => {
    const installed = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir });
    expect(installed.code, `npm install in ${dir}: ${installed.stderr}`).toBe(0);
  };
  const [started] = await Promise.all([
    startApp({ mode: "start", env: { DATABASE_URL: pg.url, REDIS_URL: undefined } }),
    (async () => {
      // The layout of the repository, so that samples/node's `file:../../clients/typescript` finds the client.
      cpSync(path.join(ROOT, "clients/typescript"), path.join(work, "clients/typescript"), {
        recursive: true,
        filter: (src) => !/[\\/](node_modules|dist)$/.test(src) && !src.endsWith(".tgz"),
      });
      cpSync(path.join(ROOT, "samples/node"), path.join(work, "samples/node"), { recursive: true, filter: (src) => !/[\\/]node_modules$/.test(src) });
      await install(path.join(work, "clients/typescript"));
      await install(path.join(work, "samples/node"));
    })(),
  ]);
  app = started;
  // PYTHONDONTWRITEBYTECODE: no __pycache__ written into the repository's samples/python.
  sampleEnv = { FDP_BASE_URL: app.url, FDP_API_KEY: tenant.key, FDP_INGEST_SECRET: tenant.ingestSecret, PYTHONDONTWRITEBYTECODE: "1" };
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await db?.close();
  await pg?.drop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const stored = async (vin: string) =>
  (
    await db.db
      .select({ n: sql<number>`count(*)::int` })
      .from(telemetry)
      .where(and(eq(telemetry.tenantId, tenant.tenantId), eq(telemetry.deviceId, `oem-${vin}`)))
  )[0]?.n;

const SAMPLES = {
  curl: { ingest: ["bash", ["signed-ingest.sh"], "samples/curl"], certificate: ["bash", ["check-certificate.sh"], "samples/curl"] },
  python: { ingest: ["python3", ["signed_ingest.py"], "samples/python"], certificate: ["python3", ["check_certificate.py"], "samples/python"] },
  node: { ingest: ["node", ["signed-ingest.mjs"], "node"], certificate: ["node", ["check-certificate.mjs"], "node"] },
} as const;

/** Where a sample runs: the repository's folder, or the installed copy for Node. */
const cwdOf = (folder: string) => (folder === "node" ? path.join(work, "samples/node") : path.join(ROOT, folder));

describe.each(Object.entries(SAMPLES))("the %s samples", (language, { ingest, certificate }) => {
  const vin = `${language.toUpperCase()}SAMPLEVIN00001`.slice(0, 17);

  it("ingest signed in both forms (stored once each) and refuse a changed body (nothing stored)", async () => {
    const [command, args, folder] = ingest;
    const result = await run(command, [...args, vin], { cwd: cwdOf(folder), env: sampleEnv });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain("invalid_signature");
    expect(await stored(vin)).toBe(2);
  });

  it("check a certificate of the vehicle: valid; an unknown number is not", async () => {
    const generated = await fetch(`${app.url}/api/v1/certificates/generate/oem-${vin}`, { method: "POST", headers: { authorization: `Bearer ${tenant.key}` } });
    expect(generated.status).toBe(200);
    const { certificate_number: number } = (await generated.json()) as { certificate_number: string };
    const [command, args, folder] = certificate;
    const result = await run(command, [...args, number], { cwd: cwdOf(folder), env: sampleEnv });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/"valid": ?true|^valid$/m);
    const unknown = await run(command, [...args, "FDP-CERT-20200101-NONE0"], { cwd: cwdOf(folder), env: sampleEnv });
    expect(unknown.code).not.toBe(0);
  });
});

/**
 * The typed client's tour as its README runs it, from the installed copy (`npm run tour`: tsx, a dev
 * dependency of the client's own package), with the tenant's key: one call per capability, each answered.
 */
describe("the typed client's tour", () => {
  it("runs every step with npm run tour, and what it ingested is stored", async () => {
    const result = await run("npm", ["run", "--silent", "tour"], { cwd: path.join(work, "clients/typescript"), env: sampleEnv });
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const steps = result.stdout.trim().split("\n");
    expect(steps[0]).toBe("ingest: 1 vehicle(s) accepted");
    expect(steps.at(-1)).toMatch(/^webhook deleted: wh_\w+$/);
    expect(steps.find((line) => line.startsWith("verification:"))).toBe("verification: status valid");
    expect(await stored("TOURVIN0000000001")).toBeGreaterThanOrEqual(1);
  });
});

/**
 * The Postman collection (clients/postman, `npm run postman:generate`) run by newman, as a QA team runs it,
 * against the built app on a seeded sandbox, top to bottom (a certificate made early is read later): every
 * folder with the sandbox key but the webhooks', which the sandbox key may not manage and which runs with
 * the tenant's own key (an endpoint made first, read, replayed, deleted last). Each request carries its
 * contract tests: status, request id, media type, JSON schema.
 */
describe("the Postman collection", () => {
  const collectionPath = path.join(ROOT, "clients/postman/fdp.postman_collection.json");
  const folders = (JSON.parse(readFileSync(collectionPath, "utf8")) as { item: { name: string; item: unknown[] }[] }).item;
  const newman = async (label: string, args: string[]) => {
    const report = path.join(work, `newman-${label}.json`);
    const result = await run(
      path.join(ROOT, "node_modules/.bin/newman"),
      ["run", collectionPath, "--env-var", `baseUrl=${app.url}/api/v1`, ...args, "--reporters", "cli,json", "--reporter-json-export", report, "--color", "off"],
      { cwd: work },
    );
    expect(result.code, `${result.stdout.slice(-6000)}\n${result.stderr}`).toBe(0);
    return (JSON.parse(readFileSync(report, "utf8")) as { run: { stats: Record<string, { total: number; failed: number }>; failures: unknown[] } }).run;
  };

  it("runs with newman: every request answered, every contract test passed", async () => {
    const webhooks = folders.find((f) => f.name.startsWith("Webhooks"))!;
    const sandbox = await newman(
      "sandbox",
      folders.filter((f) => f !== webhooks).flatMap((f) => ["--folder", f.name]),
    );
    const own = await newman("tenant", ["--folder", webhooks.name, "--env-var", `apiKey=${tenant.key}`]);
    for (const r of [sandbox, own]) {
      expect(r.failures).toEqual([]);
      expect(r.stats.assertions!.failed).toBe(0);
    }
    // Every request of the collection, once.
    const requests = folders.reduce((n, f) => n + f.item.length, 0);
    expect(sandbox.stats.requests!.total + own.stats.requests!.total).toBe(requests);
    expect(own.stats.requests!.total).toBe(webhooks.item.length);
    // Status, request id and media type on each request, the schema on each JSON answer: more than 3 a request.
    expect(sandbox.stats.assertions!.total + own.stats.assertions!.total).toBeGreaterThan(3 * requests);
  });
});
