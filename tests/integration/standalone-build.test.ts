import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { openDatabase, type DbHandle } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { ROOT, startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";
import { connectMcpClient } from "../helpers/mcp-client";

/**
 * The self-host build (docs/self-hosting.md) as the production image runs it. No container engine runs
 * on CI's machines, so this test does what the Dockerfile's run stage does, with the Dockerfile and
 * compose.yaml as they are in the repository:
 *   - `COPY .next/standalone ./`: the directory is copied out of the repository into a temporary one, so
 *     no package can come from the repository's node_modules (Node looks for packages in every parent);
 *   - the run stage's `ENV` and `CMD`, read from the Dockerfile, and the `fdp` service's environment, read
 *     from compose.yaml, with nothing inherited from the test process but PATH. What differs, and why:
 *     DATABASE_URL and REDIS_URL name this run's database and Redis database 9; HOST and PORT are a
 *     free loopback port; AUTH_SECRET and METRICS_TOKEN (from .env in a deployment) get test values;
 *     DATABASE_CONNECT_TIMEOUT_SECONDS is the test runs' 30 s (vitest.config.ts: a loaded CI machine
 *     has taken longer than the 5 s default to open a connection);
 *   - on Postgres (an empty database: the build's own migrations and seed run) and Redis.
 */

const exec = promisify(execFile);
const SANDBOX_KEY = "fdp_sandbox_3f6c0a1e9b7d4c25";
const METRICS_TOKEN = "standalone-test-metrics-token-0123456789";
// Redis database 9: no other test uses it, so this app's rate-limit counters meet no other app's.
const REDIS_URL = `${process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379"}/9`;

/** The Dockerfile's last stage: its `ENV` assignments, `CMD` (exec form) and what it copies from the build. */
function dockerfileRunStage(text: string): { env: Record<string, string>; cmd: string[]; copies: string[] } {
  const lines = text.replace(/\\\n/g, " ").split("\n");
  const stage = lines.slice(lines.findLastIndex((l) => /^FROM\s/.test(l)));
  const env: Record<string, string> = {};
  let cmd: string[] = [];
  const copies: string[] = [];
  for (const line of stage) {
    const [instruction, ...rest] = line.trim().split(/\s+/);
    if (instruction === "ENV") for (const pair of rest) env[pair.slice(0, pair.indexOf("="))] = pair.slice(pair.indexOf("=") + 1);
    if (instruction === "CMD") cmd = JSON.parse(line.trim().slice("CMD".length)) as string[];
    if (instruction === "COPY") copies.push(rest.filter((w) => !w.startsWith("--")).join(" "));
  }
  return { env, cmd, copies };
}

/** compose.yaml's `fdp` environment with `${VAR:?…}` given `secrets[VAR]` and `${VAR:-default}` its default unless given. */
function composeEnvironment(text: string, given: Record<string, string>): Record<string, string> {
  const compose = parseYaml(text) as { services: { fdp: { environment: Record<string, string> } } };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(compose.services.fdp.environment)) {
    env[name] = String(value).replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, variable: string, kind: string | undefined, rest: string) => {
      if (variable in given) return given[variable]!;
      if (kind === "-") return rest;
      throw new Error(`compose.yaml's ${name} needs ${variable}, which this test does not give`);
    });
  }
  return env;
}

let copy: string;
let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let db: DbHandle;
let app: AppProcess;
let runStage: ReturnType<typeof dockerfileRunStage>;
let appEnv: Record<string, string>;

beforeAll(async () => {
  const built = path.join(ROOT, ".next", "standalone");
  expect(existsSync(path.join(built, "server.mjs")), "npm run build makes .next/standalone/server.mjs").toBe(true);
  copy = mkdtempSync(path.join(tmpdir(), "fdp-standalone-"));
  cpSync(built, copy, { recursive: true, verbatimSymlinks: true });
  pg = await createPostgresDatabase("fdp_it_standalone");
  runStage = dockerfileRunStage(readFileSync(path.join(ROOT, "Dockerfile"), "utf8"));
  const compose = composeEnvironment(readFileSync(path.join(ROOT, "compose.yaml"), "utf8"), {
    AUTH_SECRET: "standalone-test-session-secret-0123456789abcdef",
    METRICS_TOKEN,
  });
  expect(new URL(compose.DATABASE_URL!).hostname).toBe("postgres");
  expect(new URL(compose.REDIS_URL!).hostname).toBe("redis");
  // The image listens on the Dockerfile's HOST and PORT; the test on a free loopback port (startApp's).
  const { HOST: _host, PORT: _port, ...imageEnv } = runStage.env;
  appEnv = { ...imageEnv, ...compose, DATABASE_URL: pg.url, REDIS_URL, DATABASE_CONNECT_TIMEOUT_SECONDS: process.env.DATABASE_CONNECT_TIMEOUT_SECONDS ?? "30" };
  // The Dockerfile's CMD with its script named by path and started from another directory: server.mjs
  // runs from its own directory (scripts/standalone/run-from-build-directory.ts), as in the image's /app.
  const [executable, script, ...args] = runStage.cmd as [string, string, ...string[]];
  // Ready well within the hook's own timeout, so a slow start is stopped by startApp, not left running.
  app = await startApp({ mode: "start", env: appEnv, readyTimeoutMs: 180_000, command: { argv: [executable, path.join(copy, script), ...args], cwd: tmpdir(), cleanEnv: true } });
  db = await openDatabase({ url: pg.url });
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await db?.close();
  await pg?.drop();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("the self-host build (.next/standalone), started as the Dockerfile and compose.yaml start it", () => {
  it("is what the image copies and starts: the standalone directory, `node server.mjs`, production settings", () => {
    expect(runStage.copies).toContain("/app/.next/standalone ./");
    expect(runStage.cmd).toEqual(["node", "server.mjs"]);
    expect(runStage.env.NODE_ENV).toBe("production");
    expect(Object.keys(appEnv)).toEqual(expect.arrayContaining(["DATABASE_URL", "REDIS_URL", "AUTH_SECRET", "METRICS_TOKEN", "NODE_ENV"]));
  });

  it("holds no TypeScript and no dev tooling: no tsx, TypeScript, bundler or test runner among its packages", () => {
    for (const tool of ["tsx", "typescript", "esbuild", "@vercel/nft", "vitest", "@playwright/test", "drizzle-kit", "eslint", "newman"]) {
      expect(existsSync(path.join(copy, "node_modules", tool)), tool).toBe(false);
    }
    const sources = (readdirSync(copy, { recursive: true }) as string[]).filter((f) => !/(^|\/)node_modules\//.test(f) && /\.tsx?$/.test(f));
    expect(sources).toEqual([]);
    // What the server and the CLIs are: the bundles, and the migrations they read.
    for (const file of ["server.mjs", "fdp-server.mjs", "admin.mjs", "fdp-admin.mjs", "migrate.mjs", "fdp-migrate.mjs", "lib/certificates/pdf/render-certificate-pdf-worker.mjs"]) {
      expect(existsSync(path.join(copy, file)), file).toBe(true);
    }
    expect(readdirSync(path.join(copy, "drizzle")).filter((f) => f.endsWith(".sql")).length).toBe(readdirSync(path.join(ROOT, "drizzle")).filter((f) => f.endsWith(".sql")).length);
  });

  it("answers /api/health on Postgres, migrated and seeded by the build's own migrations", async () => {
    const res = await fetch(`${app.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok" });
    expect(app.output()).toMatch(/"database":"postgres","seeded":true/);
    // Started with the image's settings alone: the production modulus, so no warning about a weak one.
    expect(app.output()).not.toContain("FDP_PDF_SIGNING_RSA_BITS");
    const [sandbox] = await db.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, "sandbox"));
    expect(sandbox).toEqual({ id: "sandbox" });
  });

  it("serves an operation: the sandbox fleet", async () => {
    const res = await fetch(`${app.url}/api/v1/fleet?limit=2`, { headers: { Authorization: `Bearer ${SANDBOX_KEY}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const body = (await res.json()) as { data: { device_id: string }[]; tenant_id: string };
    expect(body.tenant_id).toBe("sandbox");
    expect(body.data).toHaveLength(2);
  });

  it("serves pages with their assets: the sign-in page and its stylesheet, the API reference and its script", async () => {
    const login = await fetch(`${app.url}/login`);
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain("Sign in");
    const css = html.match(/\/_next\/static\/[^"]+\.css/)?.[0];
    expect(css, "the page links a stylesheet").toBeTruthy();
    expect((await fetch(`${app.url}${css}`)).status).toBe(200);

    const docs = await (await fetch(`${app.url}/docs`)).text();
    const script = docs.match(/\/docs\/assets\/[^"]+/)?.[0];
    expect(script, "the reference page loads the bundled Scalar script").toBeTruthy();
    const bundle = await fetch(`${app.url}${script!.replace(/&amp;/g, "&")}`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(1_000_000);
  });

  it("renders a certificate PDF in its compiled worker, with the Geist fonts it carries", async () => {
    const auth = { Authorization: `Bearer ${SANDBOX_KEY}` };
    const fleet = (await (await fetch(`${app.url}/api/v1/fleet?limit=1`, { headers: auth })).json()) as { data: { device_id: string }[] };
    const generated = await fetch(`${app.url}/api/v1/certificates/generate/${fleet.data[0]!.device_id}`, { method: "POST", headers: auth });
    expect(generated.status, app.output().slice(-3000)).toBe(200);
    const { certificate_number } = (await generated.json()) as { certificate_number: string };
    const pdf = await fetch(`${app.url}/api/v1/certificates/${certificate_number}/pdf`, { headers: auth });
    expect(pdf.status).toBe(200);
    const file = path.join(copy, "certificate.pdf");
    writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    const { stdout: info } = await exec("pdfinfo", [file]);
    expect(info).toContain(`Title:           FDP Vehicle Certificate ${certificate_number}`);
    const { stdout: fonts } = await exec("pdffonts", [file]);
    expect(fonts).toMatch(/Geist/);
  });

  it("publishes the methodology documents over MCP from the copy it carries", async () => {
    const client = await connectMcpClient(app.url, SANDBOX_KEY);
    try {
      const resource = await client.readResource({ uri: "fdp://methodology/tas" });
      const text = (resource.contents[0] as { text: string }).text;
      expect(text).toBe(readFileSync(path.join(ROOT, "docs", "methodology", "tas.md"), "utf8"));
    } finally {
      await client.close();
    }
  });

  it("answers /api/metrics to compose's METRICS_TOKEN", async () => {
    expect((await fetch(`${app.url}/api/metrics`)).status).toBe(401);
    const res = await fetch(`${app.url}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^fdp_http_requests_total\{operation="listFleet",method="GET",status="200"\} \d+$/m);
  });

  it("runs its migration and admin CLIs with plain node, from any directory: a tenant and key made with admin.mjs work at once", async () => {
    const cliEnv: Record<string, string | undefined> = { PATH: process.env.PATH, ...appEnv };
    // Started from elsewhere, as `node /opt/fdp/migrate.mjs` would be: each CLI runs from its own directory.
    const cli = async (file: string, args: string[]) => {
      const { stdout } = await exec("node", [path.join(copy, file), ...args], { cwd: tmpdir(), env: cliEnv as NodeJS.ProcessEnv });
      return JSON.parse(stdout) as Record<string, string>;
    };
    expect(await cli("migrate.mjs", [])).toMatchObject({ migrated: true, database: "postgres" });
    const tenant = await cli("admin.mjs", ["tenant:create", "--name", "Self-hosted fleet"]);
    const [row] = await db.db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenant.tenant_id!));
    expect(row).toEqual({ name: "Self-hosted fleet" });
    const { key } = await cli("admin.mjs", ["key:create", "--tenant", tenant.tenant_id!]);
    const res = await fetch(`${app.url}/api/v1/fleet`, { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: [], count: 0, tenant_id: tenant.tenant_id });
  });
});
