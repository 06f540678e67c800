import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { mqttBridges } from "@/lib/db/schema";
import { NotFoundError } from "@/lib/errors";
import { parseInput } from "@/lib/validation";

export const removeMqttBridgeInput = z.object({
  bridgeId: z.string({ message: "The bridge id is required." }).trim().min(1, { message: "The bridge id is required." }),
});

/**
 * Removes an MQTT bridge (`npm run admin -- mqtt:remove`). The instance running it notices at its next
 * lease renewal (within a third of MQTT_BRIDGE_LEASE_MS), finishes the message in hand and disconnects.
 * The broker keeps the session (and queues for it) until its expiry; what was ingested stays.
 */
export async function removeMqttBridge({ ctx, input }: { ctx: { db: Db }; input: z.input<typeof removeMqttBridgeInput> }): Promise<{ bridgeId: string; removed: true }> {
  const data = parseInput(removeMqttBridgeInput, input);
  const removed = await ctx.db.delete(mqttBridges).where(eq(mqttBridges.id, data.bridgeId)).returning({ id: mqttBridges.id });
  if (removed.length === 0) throw new NotFoundError(`No MQTT bridge with id ${data.bridgeId}.`);
  return { bridgeId: data.bridgeId, removed: true };
}
