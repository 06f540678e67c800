import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import type { EventType } from "@/lib/vocabulary/events";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** An event to emit: its type and its payload's `data`, which names the device (CONTRACT) and never the tenant. */
export interface EventDraft {
  type: EventType;
  data: { device_id: string } & Record<string, unknown>;
}

/**
 * The advisory-lock class of the per-tenant event lock (the two-key form, apart from the one-key locks
 * of the seed and the rollups).
 */
const EVENT_LOCK_CLASS = 7_402_031;

/**
 * Writes `drafts` to the outbox (`events`), in this order, inside the caller's transaction, with one
 * pending delivery per event and subscribed webhook endpoint of the tenant: the events and their
 * deliveries commit or roll back with the change that caused them (CONTRACT "Webhooks and the changes
 * feed"). Two statements (the lock, then the rows), none when there is nothing to emit.
 *
 * Call it LAST in the transaction: it takes the tenant's event lock (held to the commit) before drawing
 * the events' `seq`, so a tenant's events become visible in `seq` order and the feed's cursor never
 * passes an event that commits later (docs/webhooks.md "Ordering"). Held only from here to the commit, it
 * serialises the tenant's event-emitting commits, not their work.
 */
export async function emitEvents(tx: Tx, tenantId: string, drafts: readonly EventDraft[]): Promise<void> {
  if (drafts.length === 0) return;
  const payload = drafts.map((d) => ({ id: newId("evt"), type: d.type, device_id: d.data.device_id, data: d.data }));
  // The lock first, in a statement of its own: the insert's snapshot is then taken after the wait, so it
  // sees every endpoint registered (and every delivery) committed before this event's turn.
  await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(EVENT_LOCK_CLASS))}, hashtext(${tenantId}))`);
  // `timestamp` is clock_timestamp() (drawn under the lock, so it follows seq), not the transaction's start.
  // The endpoints are read FOR KEY SHARE: one deleted meanwhile is skipped, never a foreign-key failure of this change.
  await tx.execute(sql`
    with e as (
      insert into events (id, tenant_id, type, device_id, data, created_at)
      select r.id, ${tenantId}, r.type, r.device_id, r.data, clock_timestamp()
        from rows from (jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) as (id text, type text, device_id text, data jsonb))
             with ordinality as r(id, type, device_id, data, n)
       order by r.n
      returning seq, type
    ), w as (
      select id, events from webhook_endpoints where tenant_id = ${tenantId} for key share
    )
    insert into webhook_deliveries (tenant_id, endpoint_id, event_seq)
    select ${tenantId}, w.id, e.seq
      from e join w on e.type = any(w.events)
     order by e.seq, w.id`);
}
