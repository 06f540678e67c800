import type { TenantCtx } from "@/lib/context";
import { tasScoreSchema, type TasBatchRequest, type TasBatchResponse } from "@/lib/schemas/scores-device";
import { checkedOutput } from "@/lib/validation";
import { loadTasInputs } from "./queries/load-tas-inputs";
import { computeTas, TAS_SCORE_VERSION } from "./tas";

type Item = TasBatchResponse["results"][number];

/**
 * Endpoint 18: TAS for up to TAS_BATCH_MAX devices (the request schema's bound), loaded in one round
 * trip. One result per requested id, in request order (duplicates are answered again, from the same
 * load). A device the tenant does not hold, or one whose score fails (or breaks the score's schema), is
 * an item with null score fields and `error`; a failure is logged with the request id and the device id.
 */
export async function tasBatch({ ctx, input, now = new Date() }: { ctx: TenantCtx; input: TasBatchRequest; now?: Date }): Promise<TasBatchResponse> {
  const loaded = await loadTasInputs({ ctx, deviceIds: input.device_ids, now });
  const results: Item[] = input.device_ids.map((id) => {
    const d = loaded.get(id);
    if (!d) return { device_id: id, tas_grade: null, tas_score: null, confidence: null, error: `No device ${id}.` };
    try {
      const r = checkedOutput(tasScoreSchema, computeTas(d, { now }), `TAS of ${id}`);
      return { device_id: id, tas_grade: r.tas_grade, tas_score: r.tas_score, confidence: r.confidence, error: null };
    } catch (err) {
      ctx.log.error({ err, device_id: id }, "TAS batch: device failed");
      return { device_id: id, tas_grade: null, tas_score: null, confidence: null, error: `The score of device ${id} could not be computed.` };
    }
  });
  const errors = results.filter((r) => r.error !== null).length;
  return {
    results,
    meta: { total: results.length, scored: results.length - errors, errors, score_version: TAS_SCORE_VERSION },
    generated_at: now.toISOString(),
  };
}
