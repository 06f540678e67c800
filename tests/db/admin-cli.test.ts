import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monthStart } from "@/lib/db/telemetry-partitions";
import { SCOPES } from "@/lib/auth/key-format";
import { runAdminInProcess, type AdminInProcessRun } from "../helpers/admin-in-process";
import { createPostgresDatabase } from "../helpers/databases";

/**
 * The operations CLI's commands (scripts/lib/run-admin.ts) against a fresh PostgreSQL database and a
 * fresh embedded (PGlite) database, run in this process with the environment a CLI process would get
 * (tests/helpers/admin-in-process.ts). The process around them (stdout, stderr, exit code) and the
 * refusal of an embedded database another process holds, which takes two processes, are
 * tests/integration/admin-cli.test.ts's one real `npm run --silent admin`.
 */

/** Per case: a few commands, each opening and migrating its database (PGlite: a second or more). */
const CASE_TIMEOUT_MS = 120_000;

const runCli = (args: string[], env: Record<string, string | undefined>) => runAdminInProcess(args, env);

/** Expects a failure: exit 1 and exactly `{"error","message"}` (plus optional `details`). */
function expectFailure(run: AdminInProcessRun, error: string): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.json.error).toBe(error);
  expect(typeof run.json.message).toBe("string");
  expect((run.json.message as string).length).toBeGreaterThan(10);
  for (const k of Object.keys(run.json)) expect(["error", "message", "details"]).toContain(k);
}

function expectSuccess(run: AdminInProcessRun): Record<string, unknown> {
  expect(run.code, `${JSON.stringify(run.json)}\n${run.stderr}`).toBe(0);
  return run.json;
}

type Row = Record<string, unknown>;

/** Read-back access to the database the CLI wrote, from the test process. */
interface Reader {
  query(text: string, params?: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

interface Backend {
  kind: "postgres" | "pglite";
  env: Record<string, string | undefined>;
  /** PGlite: the folder the data directory is in, where the CLI writes a session secret it generates. */
  besideData?: string;
  /** Opens a reader. For PGlite only between commands: the embedded database allows one opener at a time. */
  openReader(): Promise<Reader>;
  dispose(): Promise<void>;
}

async function postgresBackend(): Promise<Backend> {
  const pg = await createPostgresDatabase("fdp_admintest");
  return {
    kind: "postgres",
    env: { DATABASE_URL: pg.url, FDP_DATA_DIR: undefined },
    async openReader() {
      const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
      return {
        query: async (text, params = []) => await sql.unsafe(text, params as never[]),
        close: () => sql.end({ timeout: 5 }),
      };
    },
    dispose: () => pg.drop(),
  };
}

async function pgliteBackend(): Promise<Backend> {
  // The data directory one level down, as .data/pglite is: the generated session secret (the key of the
  // stored PDF signing keys) is written beside it, inside this test's folder rather than in the shared tmpdir.
  const work = mkdtempSync(path.join(tmpdir(), "fdp-admintest-"));
  const dataDir = path.join(work, "pglite");
  return {
    kind: "pglite",
    env: { DATABASE_URL: undefined, FDP_DATA_DIR: dataDir },
    besideData: work,
    async openReader() {
      const db = new PGlite(dataDir);
      await db.waitReady;
      await db.query("select 1");
      return {
        query: async (text, params = []) => (await db.query<Row>(text, params)).rows,
        close: () => db.close(),
      };
    },
    async dispose() {
      rmSync(work, { recursive: true, force: true });
    },
  };
}

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
const toDate = (v: unknown) => (v instanceof Date ? v : new Date(String(v)));

describe("admin CLI: failures found before any database is opened", () => {
  // A database nobody can open: these must fail on their flags alone.
  const env = { DATABASE_URL: "postgres://postgres@127.0.0.1:1/never", FDP_DATA_DIR: undefined };

  it(
    "answers unknown commands, bad flags, missing flags and help with one JSON error and exit 1",
    async () => {
      const [unknown, certificate, none, help, badFlag, missing, bogusScope, badBool, badRole, badCreateRole] = await Promise.all([
        runCli(["tenant:delete", "--tenant", "x"], env),
        runCli(["certificate:revoke", "--number", "FDP-CERT-2025-1", "--reason", "test"], env),
        runCli([], env),
        runCli(["--help"], env),
        runCli(["tenant:create", "--name", "A", "--colour", "red"], env),
        runCli(["user:create", "--tenant", "tn_x", "--email", "a@b.co"], env),
        runCli(["key:create", "--tenant", "tn_x", "--scopes", "bogus"], env),
        runCli(["tenant:update", "--tenant", "tn_x", "--require-signed-ingest", "yes"], env),
        runCli(["tenant:update", "--tenant", "tn_x", "--reporting-role", "lessee"], env),
        runCli(["tenant:create", "--name", "A", "--reporting-role", "owner"], env),
      ]);
      expectFailure(unknown, "invalid_request");
      expect(unknown.json.message).toContain("tenant:delete");
      for (const name of ["tenant:create", "tenant:update", "key:create", "key:revoke", "user:create"]) expect(unknown.json.message).toContain(name);

      // A malformed certificate number is refused before the database is opened, naming the flag.
      expectFailure(certificate, "invalid_request");
      expect(certificate.json.message).toMatch(/--number/);

      for (const run of [none, help]) {
        expectFailure(run, "invalid_request");
        expect(run.stderr).toContain("Usage: npm run --silent admin");
        expect(run.stderr).toContain("tenant:create --name <name>");
      }
      expectFailure(badFlag, "invalid_request");
      expect(badFlag.json.message).toContain("--colour");
      expectFailure(missing, "invalid_request");
      expect(missing.json.message).toContain("--password");
      expectFailure(bogusScope, "invalid_request");
      expect(bogusScope.json.message).toContain('"bogus"');
      expectFailure(badBool, "invalid_request");
      expect(badBool.json.message).toContain("--require-signed-ingest");
      // A bad CSRD reporting role is refused on its flag (the database above cannot be opened).
      for (const run of [badRole, badCreateRole]) {
        expectFailure(run, "invalid_request");
        expect(run.json.message).toContain("--reporting-role");
        expect(run.json.message).toMatch(/operator, lessor/);
      }
    },
    CASE_TIMEOUT_MS,
  );
});

describe.each(["postgres", "pglite"] as const)("admin CLI on %s", (kind) => {
  let backend: Backend;
  const state = {
    tenantA: "",
    tenantB: "",
    tenantLessor: "",
    ingestSecret: "",
    keyAll: "",
    keyAllId: "",
    keyFleet: "",
    keyFleetId: "",
    firstRevokeDone: 0,
    userId: "",
  };
  const cli = (...args: string[]) => runCli(args, backend.env);

  beforeAll(async () => {
    backend = kind === "postgres" ? await postgresBackend() : await pgliteBackend();
  }, CASE_TIMEOUT_MS);
  afterAll(async () => {
    await backend?.dispose();
  }, CASE_TIMEOUT_MS);

  it(
    "tenant:create and tenant:update",
    async () => {
      // The first command also migrates the fresh database.
      const a = expectSuccess(await cli("tenant:create", "--name", "Acme Fleet", "--entitlements", "residual_factors,residual_factors", "--rate-limit", "120"));
      expect(Object.keys(a).sort()).toEqual(["ingest_secret", "tenant_id"]);
      expect(a.tenant_id).toMatch(/^tn_[0-9A-Za-z]{20}$/);
      expect(a.ingest_secret).toMatch(/^whsec_[0-9A-Za-z]{40}$/);
      state.tenantA = a.tenant_id as string;
      state.ingestSecret = a.ingest_secret as string;

      const b = expectSuccess(await cli("tenant:create", "--name", "Beta"));
      state.tenantB = b.tenant_id as string;
      expect(state.tenantB).not.toBe(state.tenantA);

      const updated = expectSuccess(
        await cli("tenant:update", "--tenant", state.tenantB, "--entitlements", "residual_factors", "--rate-limit", "300", "--require-signed-ingest", "true"),
      );
      expect(updated).toEqual({ tenant_id: state.tenantB, updated: true });

      const missing = await cli("tenant:update", "--tenant", "tn_doesnotexist0000000", "--rate-limit", "5");
      expectFailure(missing, "not_found");

      // The CSRD reporting role: operator by default, set to lessor and back, read from the database.
      const role = async (tenant: string) => {
        const reader = await backend.openReader();
        try {
          return (await reader.query("select reporting_role from tenants where id = $1", [tenant]))[0]?.reporting_role;
        } finally {
          await reader.close();
        }
      };
      expect(await role(state.tenantB)).toBe("operator");
      expect(expectSuccess(await cli("tenant:update", "--tenant", state.tenantB, "--reporting-role", "lessor"))).toEqual({ tenant_id: state.tenantB, updated: true });
      expect(await role(state.tenantB)).toBe("lessor");
      expectFailure(await cli("tenant:update", "--tenant", state.tenantB, "--reporting-role", "both"), "invalid_request");
      expect(await role(state.tenantB)).toBe("lessor");
      expectSuccess(await cli("tenant:update", "--tenant", state.tenantB, "--reporting-role", "operator"));
      expect(await role(state.tenantB)).toBe("operator");
      const lessor = expectSuccess(await cli("tenant:create", "--name", "Lessor Oy", "--reporting-role", "lessor"));
      state.tenantLessor = lessor.tenant_id as string;
      expect(await role(state.tenantLessor)).toBe("lessor");

      // The first command migrated as the app does, partitions included: last month's, which the
      // migrations alone never make (lib/db/telemetry-partitions.ts migrateWithPartitions).
      const reader = await backend.openReader();
      try {
        const partitions = await reader.query(
          "select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent where p.relname = 'telemetry'",
        );
        const names = partitions.map((r) => r.name);
        for (const offset of [-1, 0, 1]) expect(names).toContain(`telemetry_${monthStart(new Date(), offset).slice(0, 7).replace("-", "_")}`);
      } finally {
        await reader.close();
      }
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "key:create and key:revoke",
    async () => {
      const all = expectSuccess(await cli("key:create", "--tenant", state.tenantA, "--name", "ci"));
      expect(Object.keys(all).sort()).toEqual(["key", "key_id", "tenant_id"]);
      expect(all.key).toMatch(/^fdp_live_[0-9A-Za-z]{32,}$/);
      expect(all.key_id).toMatch(/^key_[0-9A-Za-z]{20}$/);
      expect(all.tenant_id).toBe(state.tenantA);
      state.keyAll = all.key as string;
      state.keyAllId = all.key_id as string;

      const fleet = expectSuccess(await cli("key:create", "--tenant", state.tenantA, "--scopes", "fleet:read"));
      state.keyFleet = fleet.key as string;
      state.keyFleetId = fleet.key_id as string;
      expect(state.keyFleet).not.toBe(state.keyAll);

      expectFailure(await cli("key:create", "--tenant", "tn_doesnotexist0000000"), "not_found");

      expect(expectSuccess(await cli("key:revoke", "--key-id", state.keyFleetId))).toEqual({ revoked: true });
      state.firstRevokeDone = Date.now();
      expect(expectSuccess(await cli("key:revoke", "--key-id", state.keyFleetId))).toEqual({ revoked: true });
      expectFailure(await cli("key:revoke", "--key-id", "key_doesnotexist000000"), "not_found");
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "user:create",
    async () => {
      const user = expectSuccess(await cli("user:create", "--tenant", state.tenantA, "--email", "Ops@Example.COM", "--password", "correct horse battery"));
      expect(Object.keys(user)).toEqual(["user_id"]);
      expect(user.user_id).toMatch(/^usr_[0-9A-Za-z]{20}$/);
      state.userId = user.user_id as string;

      // E-mails are unique across tenants, whatever their case.
      const dup = await cli("user:create", "--tenant", state.tenantB, "--email", "ops@example.com", "--password", "another password");
      expectFailure(dup, "invalid_request");
      expect(dup.json.message).toMatch(/already exists/);

      expectFailure(await cli("user:create", "--tenant", "tn_doesnotexist0000000", "--email", "x@example.com", "--password", "long enough pw"), "not_found");
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "signing-key:rotate and signing-key:revoke (CONTRACT Evidence and trust)",
    async () => {
      // No key yet: the rotation makes the first one active.
      const first = expectSuccess(await cli("signing-key:rotate"));
      expect(first).toMatchObject({ rotated: true, retired_kid: null });
      expect(first.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // Neither FDP_CERT_KEY_SECRET nor AUTH_SECRET is set: the stored key is encrypted under the session secret
      // generated beside the embedded database (lib/dashboard/auth-secret.ts), as on a user's machine.
      if (backend.besideData) expect(readFileSync(path.join(backend.besideData, "auth-secret"), "utf8")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const second = expectSuccess(await cli("signing-key:rotate"));
      expect(second).toMatchObject({ rotated: true, retired_kid: first.kid });
      expect(second.kid).not.toBe(first.kid);

      const revokedRetired = expectSuccess(await cli("signing-key:revoke", `--kid=${first.kid as string}`, "--reason", "distrusted after an audit"));
      expect(revokedRetired).toEqual({ revoked: true, kid: first.kid, new_active_kid: null });
      const revokedActive = expectSuccess(await cli("signing-key:revoke", `--kid=${second.kid as string}`, "--reason", "exposed in a backup"));
      expect(revokedActive).toMatchObject({ revoked: true, kid: second.kid });
      expect(revokedActive.new_active_kid).toMatch(/^[A-Za-z0-9_-]{43}$/);

      expectFailure(await cli("signing-key:revoke", "--kid", "no-such-key", "--reason", "whatever"), "not_found");
      // One key id in 64 begins with "-" (base64url): after a space the parser takes it for an option and
      // says to write `--kid=…`, the form the usage shows; that form reaches the lookup.
      const dashAfterSpace = await cli("signing-key:revoke", "--kid", "-no-such-key", "--reason", "whatever");
      expectFailure(dashAfterSpace, "invalid_request");
      expect(dashAfterSpace.json.message).toContain("--kid=");
      expectFailure(await cli("signing-key:revoke", "--kid=-no-such-key", "--reason", "whatever"), "not_found");
      const noReason = await cli("signing-key:revoke", `--kid=${first.kid as string}`);
      expectFailure(noReason, "invalid_request");
      expect(noReason.json.message).toContain("--reason");
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "rollups:refresh",
    async () => {
      // No telemetry on this database: nothing stale (tests/db/refresh-stale-rollups.test.ts rebuilds real rollups).
      expect(expectSuccess(await cli("rollups:refresh"))).toEqual({ tenants: 0, devices: 0, days: 0 });
      expect(expectSuccess(await cli("rollups:refresh", "--tenant", state.tenantA))).toEqual({ tenants: 0, devices: 0, days: 0 });
      expectFailure(await cli("rollups:refresh", "--tenant", "tn_doesnotexist0000000"), "not_found");
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "stored exactly what it said, and nothing secret in clear",
    async () => {
      const reader = await backend.openReader();
      try {
        const tenants = await reader.query("select id, name, entitlements, rate_limit_per_min, ingest_secret, require_signed_ingest, reporting_role from tenants order by name");
        expect(tenants).toEqual([
          {
            id: state.tenantA,
            name: "Acme Fleet",
            entitlements: ["residual_factors"],
            rate_limit_per_min: 120,
            ingest_secret: state.ingestSecret,
            require_signed_ingest: false,
            reporting_role: "operator",
          },
          {
            id: state.tenantB,
            name: "Beta",
            entitlements: ["residual_factors"],
            rate_limit_per_min: 300,
            ingest_secret: expect.stringMatching(/^whsec_/),
            require_signed_ingest: true,
            // Set to lessor and back to operator by tenant:update --reporting-role.
            reporting_role: "operator",
          },
          {
            id: state.tenantLessor,
            name: "Lessor Oy",
            entitlements: [],
            rate_limit_per_min: null,
            ingest_secret: expect.stringMatching(/^whsec_/),
            require_signed_ingest: false,
            reporting_role: "lessor",
          },
        ]);

        const keys = await reader.query("select * from api_keys order by created_at");
        expect(keys).toHaveLength(2);
        const [all, fleet] = keys as [Row, Row];
        expect(all).toMatchObject({
          id: state.keyAllId,
          tenant_id: state.tenantA,
          name: "ci",
          key_hash: sha256(state.keyAll),
          display_prefix: state.keyAll.slice(0, 13),
          revoked_at: null,
        });
        expect([...(all.scopes as string[])].sort()).toEqual([...SCOPES].sort());
        expect(all.scopes).toHaveLength(9);
        expect(fleet).toMatchObject({ id: state.keyFleetId, key_hash: sha256(state.keyFleet), scopes: ["fleet:read"], name: null });
        // Revoked once; the second revocation kept the first time.
        expect(fleet.revoked_at).not.toBeNull();
        expect(toDate(fleet.revoked_at).getTime()).toBeLessThanOrEqual(state.firstRevokeDone);
        for (const [row, key] of [
          [all, state.keyAll],
          [fleet, state.keyFleet],
        ] as const) {
          const secretPart = key.slice("fdp_live_".length);
          for (const value of Object.values(row)) expect(JSON.stringify(value) ?? "").not.toContain(secretPart);
        }

        const users = await reader.query("select id, tenant_id, email, password_hash from users");
        expect(users).toHaveLength(1);
        const [user] = users as [Row];
        expect(user).toMatchObject({ id: state.userId, tenant_id: state.tenantA, email: "ops@example.com" });
        expect(user.password_hash).toMatch(/^\$2[aby]\$12\$[./0-9A-Za-z]{53}$/);
        expect(user.password_hash).not.toContain("correct horse");
      } finally {
        await reader.close();
      }
    },
    CASE_TIMEOUT_MS,
  );
  it(
    "mqtt:add, mqtt:list and mqtt:remove: the broker password named, never taken or stored",
    async () => {
      const tenant = expectSuccess(await cli("tenant:create", "--name", "Bridged Fleet")).tenant_id as string;
      const flags = ["--tenant", tenant, "--broker", "mqtts://broker.example.com:8883", "--topic", "traccar/+/positions", "--format", "traccar"];
      const added = expectSuccess(await cli("mqtt:add", ...flags, "--username", "fdp", "--password-env", "FDP_MQTT_PASSWORD_ACME", "--connections", "2"));
      expect(added.bridge_id).toMatch(/^mqb_[0-9A-Za-z]{20}$/);
      expect(added.client_id).toBe(`fdp-${added.bridge_id as string}`);
      // Credentials in the URL and bad flags are refused naming the flag, before anything is stored.
      const inUrl = await cli("mqtt:add", ...flags.slice(0, 2), "--broker", "mqtt://fdp:s3cret@broker.example.com", ...flags.slice(4));
      expectFailure(inUrl, "invalid_request");
      expect(JSON.stringify(inUrl.json)).toContain("--broker");
      expect(JSON.stringify(inUrl.json)).not.toContain("s3cret");
      expectFailure(await cli("mqtt:add", ...flags, "--connections", "many"), "invalid_request");
      expectFailure(await cli("mqtt:add", ...flags.slice(0, 6), "--format", "teltonika"), "invalid_request");

      const listed = expectSuccess(await cli("mqtt:list", "--tenant", tenant));
      expect(listed.bridges).toEqual([
        {
          bridge_id: added.bridge_id,
          tenant_id: tenant,
          broker: "mqtts://broker.example.com:8883",
          topic: "traccar/+/positions",
          format: "traccar",
          username: "fdp",
          password_env: "FDP_MQTT_PASSWORD_ACME",
          client_id: added.client_id,
          connections: 2,
          state: "waiting",
          state_since: expect.any(String),
          last_error: null,
          messages_ingested: 0,
          messages_refused: 0,
          last_message_at: null,
          last_refusal: null,
        },
      ]);
      expect(expectSuccess(await cli("mqtt:remove", "--bridge", added.bridge_id as string))).toEqual({ bridge_id: added.bridge_id, removed: true });
      expectFailure(await cli("mqtt:remove", "--bridge", added.bridge_id as string), "not_found");
      expect(expectSuccess(await cli("mqtt:list", "--tenant", tenant)).bridges).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );
});
