import { z } from "zod";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { Db } from "@/lib/db/client";
import { mqttBridges } from "@/lib/db/schema";
import { ValidationError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { assertTenantExists } from "@/lib/tenants/assert-tenant-exists";
import { parseInput } from "@/lib/validation";
import { FEED_FORMATS } from "@/lib/vocabulary/feeds";

const BROKER_PROTOCOLS = ["mqtt:", "mqtts:", "ws:", "wss:"];

/**
 * A broker address: `mqtt://host[:port]`, `mqtts://` (TLS, the system's CAs), `ws://` or `wss://` (with
 * a path). Credentials are refused here: a URL is printed by `mqtt:list` and may reach a log, so the user
 * name goes in `username` and the password stays in an environment variable (`passwordEnv`).
 */
const brokerUrlSchema = z
  .string({ message: "The broker URL is required." })
  .trim()
  .max(2048, { message: "The broker URL is at most 2048 characters." })
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "The broker URL is not a URL (e.g. mqtt://broker.example.com:1883)." });
      return;
    }
    if (!BROKER_PROTOCOLS.includes(url.protocol))
      ctx.addIssue({ code: "custom", message: `The broker URL's scheme must be one of ${BROKER_PROTOCOLS.join(" ")}, not ${url.protocol}` });
    else if (url.username !== "" || url.password !== "")
      ctx.addIssue({
        code: "custom",
        message: "The broker URL must not hold credentials: give the user with --username and the password in an environment variable named by --password-env.",
      });
    else if (url.hostname === "") ctx.addIssue({ code: "custom", message: "The broker URL has no host." });
    else if (url.search !== "" || url.hash !== "") ctx.addIssue({ code: "custom", message: "The broker URL takes no query or fragment." });
  });

/**
 * An MQTT topic filter (MQTT 5.0 §4.7): 1 to 65,535 bytes of UTF-8 without NUL; `+` alone in a level; `#`
 * alone in the last level. Shared subscriptions (`$share/…`) are the bridge's to choose, not the filter's.
 */
const topicFilterSchema = z
  .string({ message: "The topic filter is required." })
  .min(1, { message: "The topic filter is required." })
  .max(1024, { message: "The topic filter is at most 1024 characters." })
  .superRefine((value, ctx) => {
    // eslint-disable-next-line no-control-regex -- the NUL character is exactly what MQTT forbids here
    if (/\u0000/.test(value) || !value.isWellFormed()) ctx.addIssue({ code: "custom", message: "The topic filter must be UTF-8 text without NUL characters." });
    const levels = value.split("/");
    levels.forEach((level, i) => {
      if (level.includes("#") && (level !== "#" || i !== levels.length - 1))
        ctx.addIssue({ code: "custom", message: "`#` must be a whole level and the last one (e.g. fleet/#)." });
      if (level.includes("+") && level !== "+") ctx.addIssue({ code: "custom", message: "`+` must be a whole level (e.g. fleet/+/position)." });
    });
    if (value.startsWith("$")) ctx.addIssue({ code: "custom", message: "Topics beginning with `$` are the broker's own ($SYS, $share): subscribe to the devices' topics." });
  });

export const createMqttBridgeInput = z.object({
  tenantId: z.string({ message: "The tenant id is required." }).trim().min(1, { message: "The tenant id is required." }),
  brokerUrl: brokerUrlSchema,
  topicFilter: topicFilterSchema,
  format: z.enum(FEED_FORMATS, { message: `The format is one of ${FEED_FORMATS.join(", ")}.` }),
  username: z.string().min(1).max(256, { message: "The user name is at most 256 characters." }).optional(),
  /**
   * The name of the environment variable holding the broker password, on every instance that may run the
   * bridge. It must begin with FDP_MQTT_: the bridge sends its value to the broker, and a typo must not
   * send DATABASE_URL or AUTH_SECRET to a customer's server.
   */
  passwordEnv: z
    .string()
    .regex(/^FDP_MQTT_[A-Z0-9_]{1,100}$/, {
      message: "The password variable is an environment variable's name that begins with FDP_MQTT_ (capitals, digits, _), e.g. FDP_MQTT_PASSWORD_ACME.",
    })
    .optional(),
  /**
   * Connections sharing the subscription (1 to 32, default 1): the messages in hand on them are stored in
   * one transaction, so more connections, more throughput. 1 keeps the broker's order and needs no shared
   * subscription, which Mosquitto 2.0.11 does not keep across its restarts (docs/feeds.md "Throughput").
   */
  connections: z
    .number({ message: "The number of connections is a whole number from 1 to 32." })
    .int({ message: "The number of connections is a whole number from 1 to 32." })
    .min(1, { message: "The number of connections is a whole number from 1 to 32." })
    .max(32, { message: "The number of connections is a whole number from 1 to 32." })
    .optional(),
  /** The MQTT client id (with `-<n>` after it for each connection when there are several); the broker keeps the bridge's sessions under it. Default `fdp-<bridge id>`. */
  clientId: z
    .string()
    .regex(/^[0-9A-Za-z._-]{1,64}$/, { message: "The client id is 1 to 64 letters, digits, '.', '_' or '-'." })
    .optional(),
});
type CreateMqttBridgeInput = z.input<typeof createMqttBridgeInput>;

/**
 * Adds an MQTT bridge for a tenant (operator's CLI: `npm run admin -- mqtt:add`). The service's instances
 * take it up within a few seconds (lib/ingest/mqtt/run-mqtt-bridges.ts). Not for the sandbox tenant,
 * whose ingest stores nothing. Only the operator adds bridges: the service connects out to the address
 * given, which a tenant's key must not be able to choose.
 */
export async function createMqttBridge({ ctx, input }: { ctx: { db: Db }; input: CreateMqttBridgeInput }): Promise<{ bridgeId: string; clientId: string }> {
  const data = parseInput(createMqttBridgeInput, input);
  if (data.tenantId === SANDBOX_TENANT_ID) {
    throw new ValidationError("The sandbox stores nothing it ingests: add the bridge to a customer's tenant.", [{ field: "tenantId", message: "is the sandbox" }]);
  }
  if (data.passwordEnv !== undefined && data.username === undefined) {
    throw new ValidationError("A broker password needs a user name: give --username too.", [{ field: "username", message: "is required with passwordEnv" }]);
  }
  await assertTenantExists(ctx.db, data.tenantId);
  const id = newId("mqb");
  const clientId = data.clientId ?? `fdp-${id}`;
  const inserted = await ctx.db
    .insert(mqttBridges)
    .values({
      id,
      tenantId: data.tenantId,
      brokerUrl: data.brokerUrl,
      topicFilter: data.topicFilter,
      format: data.format,
      username: data.username ?? null,
      passwordEnv: data.passwordEnv ?? null,
      clientId,
      connections: data.connections,
    })
    .onConflictDoNothing({ target: mqttBridges.clientId })
    .returning({ id: mqttBridges.id });
  if (inserted.length === 0) {
    throw new ValidationError(`The client id ${clientId} is taken by another bridge: the broker keeps one session per client id.`, [{ field: "clientId", message: "is taken" }]);
  }
  return { bridgeId: id, clientId };
}
