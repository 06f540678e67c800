import { z } from "zod";
import { createApiKey, createApiKeyInput } from "@/lib/api-keys/create-api-key";
import { revokeApiKey, revokeApiKeyInput } from "@/lib/api-keys/revoke-api-key";
import { revokeCertificate, revokeCertificateInput } from "@/lib/certificates/revoke-certificate";
import { revokeSigningKey, revokeSigningKeyInput } from "@/lib/certificates/revoke-signing-key";
import { rotateSigningKey, rotateSigningKeyInput } from "@/lib/certificates/rotate-signing-key";
import { refreshStaleRollups, refreshStaleRollupsInput } from "@/lib/telemetry/rollups/refresh-stale-rollups";
import type { Db } from "@/lib/db/client";
import { ValidationError } from "@/lib/errors";
import { createTenant, createTenantInput } from "@/lib/tenants/create-tenant";
import { updateTenant, updateTenantInput } from "@/lib/tenants/update-tenant";
import { createUser, createUserInput } from "@/lib/users/create-user";
import { createMqttBridge, createMqttBridgeInput } from "@/lib/ingest/mqtt/create-mqtt-bridge";
import { listMqttBridges } from "@/lib/ingest/mqtt/list-mqtt-bridges";
import { removeMqttBridge, removeMqttBridgeInput } from "@/lib/ingest/mqtt/remove-mqtt-bridge";

export type FlagValues = Record<string, string | undefined>;

/** One CLI command: its flags, how they become the verb's input, and how the answer is printed. */
export interface AdminCommand {
  name: string;
  summary: string;
  /** Flag synopsis for the usage text, e.g. `--name <name> [--rate-limit <n>]`. */
  synopsis: string;
  /** Every flag the command accepts (all take a value). */
  flags: readonly string[];
  required: readonly string[];
  /** Verb input field → flag, to report validation errors in the operator's words. */
  flagOfField: Record<string, string>;
  /** The verb's schema: checked before the database is opened, so bad flags fail fast. */
  schema: z.ZodType;
  buildInput(values: FlagValues): unknown;
  run(db: Db, input: unknown): Promise<Record<string, unknown>>;
}

function invalidFlag(flag: string, message: string): ValidationError {
  return new ValidationError(`--${flag}: ${message}`, [{ field: `--${flag}`, message }]);
}

/** `a,b , c` → ["a","b","c"]; an empty value gives an empty list (e.g. to clear entitlements). */
export function listFlag(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function integerFlag(flag: string, value: string): number {
  if (!/^[+-]?\d{1,15}$/.test(value.trim())) throw invalidFlag(flag, `Expected a whole number, got "${value}".`);
  return Number(value.trim());
}

export function booleanFlag(flag: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === "true") return true;
  if (v === "false") return false;
  throw invalidFlag(flag, `Expected true or false, got "${value}".`);
}

/** `--require-signed-ingest true|false|timestamped` (timestamped: only `X-FDP-Signature: t=…,sha256=…`). */
export function signedIngestFlag(value: string): boolean | "timestamped" {
  if (value.trim().toLowerCase() === "timestamped") return "timestamped";
  try {
    return booleanFlag("require-signed-ingest", value);
  } catch {
    throw invalidFlag("require-signed-ingest", `Expected true, false or timestamped, got "${value}".`);
  }
}

/** `--rate-limit default` (or `none`) on update restores the service default. */
function rateLimitFlag(value: string, allowDefault: boolean): number | null {
  const v = value.trim().toLowerCase();
  if (allowDefault && (v === "default" || v === "none")) return null;
  return integerFlag("rate-limit", value);
}

/** `--electricity-contract-factor none` removes the contract factor; else g CO2e/kWh (the schema checks the range). */
function contractFactorFlag(value: string): number | null {
  const v = value.trim().toLowerCase();
  if (v === "none" || v === "default") return null;
  if (!/^[+-]?(\d{1,6}(\.\d{1,6})?|\.\d{1,6})$/.test(v)) throw invalidFlag("electricity-contract-factor", `Expected g CO2e/kWh (a number) or none, got "${value}".`);
  return Number(v);
}

/** `--reporting-role Lessor` → "lessor": trimmed and lower-cased; the schema refuses anything but the vocabulary's roles. */
function reportingRoleFlag(value: string): string {
  return value.trim().toLowerCase();
}

export const COMMANDS: readonly AdminCommand[] = [
  {
    name: "tenant:create",
    summary: "Create a tenant; prints its id and ingest secret.",
    synopsis: "--name <name> [--entitlements a,b] [--rate-limit <per_minute>] [--reporting-role operator|lessor]",
    flags: ["name", "entitlements", "rate-limit", "reporting-role"],
    required: ["name"],
    flagOfField: { name: "--name", entitlements: "--entitlements", rateLimitPerMin: "--rate-limit", reportingRole: "--reporting-role" },
    schema: createTenantInput,
    buildInput: (v) => ({
      name: v.name,
      entitlements: v.entitlements === undefined ? undefined : listFlag(v.entitlements),
      rateLimitPerMin: v["rate-limit"] === undefined ? undefined : rateLimitFlag(v["rate-limit"], false),
      reportingRole: v["reporting-role"] === undefined ? undefined : reportingRoleFlag(v["reporting-role"]),
    }),
    run: async (db, input) => {
      const r = await createTenant({ ctx: { db }, input: input as Parameters<typeof createTenant>[0]["input"] });
      return { tenant_id: r.tenantId, ingest_secret: r.ingestSecret };
    },
  },
  {
    name: "tenant:update",
    summary: "Change a tenant's entitlements, rate limit, signed-ingest rule, electricity contract factor or CSRD reporting role (in effect within 5 s).",
    synopsis:
      "--tenant <tenant_id> [--entitlements a,b] [--rate-limit <per_minute>|default] [--require-signed-ingest true|false|timestamped] [--electricity-contract-factor <g_co2e_per_kwh>|none] [--reporting-role operator|lessor]",
    flags: ["tenant", "entitlements", "rate-limit", "require-signed-ingest", "electricity-contract-factor", "reporting-role"],
    required: ["tenant"],
    flagOfField: {
      tenantId: "--tenant",
      entitlements: "--entitlements",
      rateLimitPerMin: "--rate-limit",
      requireSignedIngest: "--require-signed-ingest",
      electricityContractGPerKwh: "--electricity-contract-factor",
      reportingRole: "--reporting-role",
    },
    schema: updateTenantInput,
    buildInput: (v) => {
      if (
        v.entitlements === undefined &&
        v["rate-limit"] === undefined &&
        v["require-signed-ingest"] === undefined &&
        v["electricity-contract-factor"] === undefined &&
        v["reporting-role"] === undefined
      ) {
        throw new ValidationError(
          "Nothing to update: give at least one of --entitlements, --rate-limit, --require-signed-ingest, --electricity-contract-factor or --reporting-role.",
          [{ field: "(flags)", message: "Give at least one of --entitlements, --rate-limit, --require-signed-ingest, --electricity-contract-factor or --reporting-role." }],
        );
      }
      return {
        tenantId: v.tenant,
        entitlements: v.entitlements === undefined ? undefined : listFlag(v.entitlements),
        rateLimitPerMin: v["rate-limit"] === undefined ? undefined : rateLimitFlag(v["rate-limit"], true),
        requireSignedIngest: v["require-signed-ingest"] === undefined ? undefined : signedIngestFlag(v["require-signed-ingest"]),
        electricityContractGPerKwh: v["electricity-contract-factor"] === undefined ? undefined : contractFactorFlag(v["electricity-contract-factor"]),
        reportingRole: v["reporting-role"] === undefined ? undefined : reportingRoleFlag(v["reporting-role"]),
      };
    },
    run: async (db, input) => {
      const r = await updateTenant({ ctx: { db }, input: input as Parameters<typeof updateTenant>[0]["input"] });
      return { tenant_id: r.tenantId, updated: r.updated };
    },
  },
  {
    name: "key:create",
    summary: "Issue a live API key for a tenant (all scopes unless --scopes); the key is shown only here.",
    synopsis: "--tenant <tenant_id> [--name <label>] [--scopes s1,s2]",
    flags: ["tenant", "name", "scopes"],
    required: ["tenant"],
    flagOfField: { tenantId: "--tenant", name: "--name", scopes: "--scopes" },
    schema: createApiKeyInput,
    buildInput: (v) => ({
      tenantId: v.tenant,
      name: v.name,
      scopes: v.scopes === undefined ? undefined : listFlag(v.scopes),
    }),
    run: async (db, input) => {
      const r = await createApiKey({ ctx: { db }, input: input as Parameters<typeof createApiKey>[0]["input"] });
      return { key: r.key, key_id: r.keyId, tenant_id: r.tenantId };
    },
  },
  {
    name: "key:revoke",
    summary: "Revoke an API key (refused by the API within 5 s); revoking twice is fine.",
    synopsis: "--key-id <key_id>",
    flags: ["key-id"],
    required: ["key-id"],
    flagOfField: { keyId: "--key-id" },
    schema: revokeApiKeyInput,
    buildInput: (v) => ({ keyId: v["key-id"] }),
    run: async (db, input) => revokeApiKey({ ctx: { db }, input: input as Parameters<typeof revokeApiKey>[0]["input"] }),
  },
  {
    name: "certificate:revoke",
    summary: "Revoke a certificate; the verify page and its JSON say revoked (with date and reason) at once.",
    synopsis: "--number <certificate_number> --reason <text>",
    flags: ["number", "reason"],
    required: ["number", "reason"],
    flagOfField: { number: "--number", reason: "--reason" },
    schema: revokeCertificateInput,
    buildInput: (v) => ({ number: v.number, reason: v.reason }),
    run: async (db, input) => revokeCertificate({ ctx: { db }, input: input as Parameters<typeof revokeCertificate>[0]["input"] }),
  },
  {
    name: "signing-key:rotate",
    summary: "Retire the active certificate signing key and sign with a new one from now on (every instance within 5 seconds).",
    synopsis: "",
    flags: [],
    required: [],
    flagOfField: {},
    schema: rotateSigningKeyInput,
    buildInput: () => ({}),
    run: async (db, input) => ({ ...(await rotateSigningKey({ ctx: { db }, input: input as Record<string, never> })) }),
  },
  {
    name: "signing-key:revoke",
    summary: "Revoke a certificate signing key: everything it signed verifies as revoked; the active key is replaced at once.",
    // `--kid=`: a key id is a base64url thumbprint, and one in 64 begins with "-", which the argument parser
    // would take for an option after a space.
    synopsis: "--kid=<key_id> --reason <text>",
    flags: ["kid", "reason"],
    required: ["kid", "reason"],
    flagOfField: { kid: "--kid", reason: "--reason" },
    schema: revokeSigningKeyInput,
    buildInput: (v) => ({ kid: v.kid, reason: v.reason }),
    run: async (db, input) => ({ ...(await revokeSigningKey({ ctx: { db }, input: input as Parameters<typeof revokeSigningKey>[0]["input"] })) }),
  },
  {
    name: "user:create",
    summary: "Create a dashboard user of a tenant (password: at least 10 characters).",
    synopsis: "--tenant <tenant_id> --email <email> --password <password>",
    flags: ["tenant", "email", "password"],
    required: ["tenant", "email", "password"],
    flagOfField: { tenantId: "--tenant", email: "--email", password: "--password" },
    schema: createUserInput,
    buildInput: (v) => ({ tenantId: v.tenant, email: v.email, password: v.password }),
    run: async (db, input) => {
      const r = await createUser({ ctx: { db }, input: input as Parameters<typeof createUser>[0]["input"] });
      return { user_id: r.userId };
    },
  },
  {
    name: "rollups:refresh",
    summary: "Rebuild the stale daily rollups of every tenant (or of one): the step after a migration that empties them.",
    synopsis: "[--tenant <tenant_id>]",
    flags: ["tenant"],
    required: [],
    flagOfField: { tenantId: "--tenant" },
    schema: refreshStaleRollupsInput,
    buildInput: (v) => ({ tenantId: v.tenant }),
    run: async (db, input) => {
      const r = await refreshStaleRollups({ ctx: { db }, input: input as Parameters<typeof refreshStaleRollups>[0]["input"] });
      return { tenants: r.tenants, devices: r.devices, days: r.days };
    },
  },
  {
    name: "mqtt:add",
    summary:
      "Add an MQTT bridge: the service subscribes (QoS 1) to the topic filter on the broker and ingests each message, in the feed format, for the tenant (running within seconds; docs/feeds.md).",
    synopsis:
      "--tenant <tenant_id> --broker <mqtt://host:port> --topic <filter> --format traccar|tesla [--username <user> --password-env <VARIABLE>] [--connections <1-32>] [--client-id <id>]",
    flags: ["tenant", "broker", "topic", "format", "username", "password-env", "connections", "client-id"],
    required: ["tenant", "broker", "topic", "format"],
    flagOfField: {
      tenantId: "--tenant",
      brokerUrl: "--broker",
      topicFilter: "--topic",
      format: "--format",
      username: "--username",
      passwordEnv: "--password-env",
      connections: "--connections",
      clientId: "--client-id",
    },
    schema: createMqttBridgeInput,
    buildInput: (v) => ({
      tenantId: v.tenant,
      brokerUrl: v.broker,
      topicFilter: v.topic,
      format: v.format,
      username: v.username,
      passwordEnv: v["password-env"],
      connections: v.connections === undefined ? undefined : integerFlag("connections", v.connections),
      clientId: v["client-id"],
    }),
    run: async (db, input) => {
      const r = await createMqttBridge({ ctx: { db }, input: input as Parameters<typeof createMqttBridge>[0]["input"] });
      return { bridge_id: r.bridgeId, client_id: r.clientId };
    },
  },
  {
    name: "mqtt:list",
    summary: "List the MQTT bridges (of one tenant, or all): where each subscribes, its state and its message counts.",
    synopsis: "[--tenant <tenant_id>]",
    flags: ["tenant"],
    required: [],
    flagOfField: { tenantId: "--tenant" },
    schema: z.object({ tenantId: z.string().trim().min(1, { message: "The tenant id is required." }).optional() }),
    buildInput: (v) => ({ tenantId: v.tenant }),
    run: async (db, input) => {
      const bridges = await listMqttBridges({ ctx: { db }, input: input as { tenantId?: string } });
      return {
        bridges: bridges.map((b) => ({
          bridge_id: b.id,
          tenant_id: b.tenantId,
          broker: b.brokerUrl,
          topic: b.topicFilter,
          format: b.format,
          username: b.username,
          password_env: b.passwordEnv,
          client_id: b.clientId,
          connections: b.connections,
          state: b.state,
          state_since: b.stateSince.toISOString(),
          last_error: b.lastError,
          messages_ingested: b.messagesIngested,
          messages_refused: b.messagesRefused,
          last_message_at: b.lastMessageAt?.toISOString() ?? null,
          last_refusal: b.lastRefusal,
        })),
      };
    },
  },
  {
    name: "mqtt:remove",
    summary: "Remove an MQTT bridge: the instance running it finishes the message in hand and disconnects (what was ingested stays).",
    synopsis: "--bridge <bridge_id>",
    flags: ["bridge"],
    required: ["bridge"],
    flagOfField: { bridgeId: "--bridge" },
    schema: removeMqttBridgeInput,
    buildInput: (v) => ({ bridgeId: v.bridge }),
    run: async (db, input) => {
      const r = await removeMqttBridge({ ctx: { db }, input: input as Parameters<typeof removeMqttBridge>[0]["input"] });
      return { bridge_id: r.bridgeId, removed: r.removed };
    },
  },
];

export function findCommand(name: string): AdminCommand | undefined {
  return COMMANDS.find((c) => c.name === name);
}

export function usageText(command?: AdminCommand): string {
  const lines = ["Usage: npm run --silent admin -- <command> [flags]", "       node admin.mjs <command> [flags]   (in the self-host build: docs/self-hosting.md)", ""];
  const list = command ? [command] : COMMANDS;
  if (!command) lines.push("Commands:");
  for (const c of list) lines.push(`  ${c.name} ${c.synopsis}`, `      ${c.summary}`);
  lines.push(
    "",
    'Prints exactly one JSON object on stdout; exits 1 with {"error","message"} on failure.',
    "Database: DATABASE_URL (PostgreSQL), else the embedded database under FDP_DATA_DIR (default .data/pglite),",
    "reached through the running FDP server's socket when the server holds it.",
  );
  return lines.join("\n");
}
