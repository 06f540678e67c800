import type { TenantCtx } from "@/lib/context";
import { ingestTelemetry } from "@/lib/ingest/ingest-telemetry";
import { ingestBodySchema } from "@/lib/schemas/ingest";
import { parseInput } from "@/lib/validation";
import { type ScenarioFleet, scenarioBatches } from "./scenario-fleet";

/**
 * Delivers the scenario fleet to a tenant through the real ingest verb, hour by hour as an OEM
 * platform would: each payload is validated with the request schema (as the API does) and stored by
 * `ingestTelemetry` (normalisation, driving events, master data, detectors, alerts). Nothing is
 * written around the verb, so whatever the scores see is what ingest made of the feed.
 */
export async function loadScenarioFleet({ ctx, fleet }: { ctx: TenantCtx; fleet: ScenarioFleet }): Promise<{ batches: number; records: number }> {
  let batches = 0;
  let records = 0;
  for (const batch of scenarioBatches(fleet)) {
    // A JSON round trip: exactly what would travel over the wire.
    const input = parseInput(ingestBodySchema, JSON.parse(JSON.stringify({ vehicles: batch.vehicles, source: "scenario-fleet" })));
    await ingestTelemetry({ ctx, input, now: batch.receivedAt });
    batches++;
    records += batch.vehicles.length;
  }
  return { batches, records };
}
