import { sql } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { rows, sqlDate, sqlNumber, sqlText, sqlTextArray } from "@/lib/db/sql-values";
import type { webhookSchema } from "@/lib/schemas/webhooks";
import type { DeliveryStatus, EventType } from "@/lib/vocabulary/events";

type Webhook = z.input<typeof webhookSchema>;

const iso = (v: unknown) => sqlDate(v)?.toISOString() ?? null;

/**
 * The tenant's webhook endpoints (or the one `id`) as the API answers them, each with its newest
 * event's delivery: one statement (a lateral probe of the deliveries' (endpoint, event) index).
 */
export async function readWebhooks(db: Db, tenantId: string, id?: string): Promise<Webhook[]> {
  const found = await rows(
    db,
    sql`select w.id, w.url, w.events, w.description, w.created_at,
               d.event_id as d_event_id, d.status as d_status, d.attempts as d_attempts, d.last_attempt_at as d_last_attempt_at,
               d.last_status_code as d_last_status_code, d.last_error as d_last_error
          from webhook_endpoints w
          left join lateral (
            select e.id as event_id, x.status, x.attempts, x.last_attempt_at, x.last_status_code, x.last_error
              from webhook_deliveries x join events e on e.seq = x.event_seq
             where x.endpoint_id = w.id
             order by x.event_seq desc, x.id desc
             limit 1
          ) d on true
         where w.tenant_id = ${tenantId} ${id === undefined ? sql`` : sql`and w.id = ${id}`}
         order by w.created_at, w.id`,
  );
  return found.map((w) => ({
    id: String(w.id),
    url: String(w.url),
    events: (sqlTextArray(w.events) ?? []) as EventType[],
    description: sqlText(w.description),
    created_at: iso(w.created_at)!,
    last_delivery:
      sqlText(w.d_event_id) === null
        ? null
        : {
            event_id: sqlText(w.d_event_id)!,
            status: sqlText(w.d_status) as DeliveryStatus,
            attempts: sqlNumber(w.d_attempts) ?? 0,
            last_attempt_at: iso(w.d_last_attempt_at),
            last_status_code: sqlNumber(w.d_last_status_code),
            last_error: sqlText(w.d_last_error),
          },
  }));
}
