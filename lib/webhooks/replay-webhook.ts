import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { TenantCtx } from "@/lib/context";
import { rows, sqlCount } from "@/lib/db/sql-values";
import { NotFoundError } from "@/lib/errors";
import type { replayAnswerSchema } from "@/lib/schemas/webhooks";

/** Events one replay queues at most (oldest first); a longer backlog takes several replays, or the feed. */
const MAX_REPLAY_EVENTS = 10_000;

/**
 * `POST /webhooks/{webhook_id}/replay` (202): queues again every event the endpoint subscribes to that
 * was committed at or after `since`, in commit order, as new deliveries of the same events (so the same
 * `webhook-id`s: a receiver that dedupes on it ignores what it already has). An event already waiting
 * for this endpoint is not queued twice; at most MAX_REPLAY_EVENTS per call. One statement.
 */
export async function replayWebhook({ ctx, input }: { ctx: TenantCtx; input: { webhook_id: string; since: string } }): Promise<z.input<typeof replayAnswerSchema>> {
  const [result] = await rows(
    ctx.db,
    sql`with w as (
          select id, events from webhook_endpoints where tenant_id = ${ctx.tenantId} and id = ${input.webhook_id} for key share
        ), queued as (
          insert into webhook_deliveries (tenant_id, endpoint_id, event_seq)
          select ${ctx.tenantId}, w.id, e.seq
            from w join events e on e.tenant_id = ${ctx.tenantId} and e.created_at >= ${input.since}::timestamptz and e.type = any(w.events)
           where not exists (select 1 from webhook_deliveries p where p.endpoint_id = w.id and p.event_seq = e.seq and p.status = 'pending')
           order by e.seq
           limit ${MAX_REPLAY_EVENTS}
          returning 1
        )
        select (select count(*) from w) as found, (select count(*) from queued) as queued`,
  );
  if (sqlCount(result?.found) === 0) throw new NotFoundError(`No webhook ${input.webhook_id}.`);
  const queued = sqlCount(result?.queued);
  ctx.log.info({ webhook_id: input.webhook_id, since: input.since, events: queued }, "webhook replay queued");
  return { webhook_id: input.webhook_id, since: new Date(input.since).toISOString(), events: queued };
}
