import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { rows, sqlDate, sqlJson, sqlNumber } from "@/lib/db/sql-values";
import { env } from "@/lib/env";
import type { Logger } from "@/lib/log/logger";
import { sendWebhook, type SendResult } from "./send-webhook";
import { webhookHeaders } from "./webhook-signature";
import { recordWebhookAttempt } from "@/lib/metrics/metrics";

/**
 * The delivery worker (CONTRACT "Webhooks and the changes feed", docs/webhooks.md "Delivery"): takes due
 * deliveries from `webhook_deliveries`, POSTs each with its Standard Webhooks signature, and records the
 * result. At least once: a delivery is claimed (a lease, `locked_until`) before it is sent and settled
 * after; a worker that dies mid-send leaves a lease that expires, and the delivery is taken again (the
 * receiver dedupes on `webhook-id`). Several instances share the work: the claim is one UPDATE over rows
 * picked with `FOR UPDATE SKIP LOCKED`, re-checked under the row lock, so two never claim the same row.
 * The embedded database runs the same statements.
 *
 * Fairness: the tenants are taken in turn, and one tenant has at most WEBHOOK_CONCURRENCY_PER_TENANT
 * deliveries in flight, so endpoints that hang hold that many slots at most.
 *
 * Order: at most one delivery per endpoint is in flight, and each endpoint's oldest due delivery goes
 * first, so a healthy receiver gets its events in commit order. A delivery waiting for its retry does
 * not hold up the endpoint's later events (a receiver that was down gets them in order, the retried one
 * when its time comes): dedupe and order by the event's `timestamp` if that matters.
 */

export interface WebhookWorkerSettings {
  /** Waits after a failed attempt, in order (CONTRACT: about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); then `failed`. */
  retryScheduleMs: readonly number[];
  /** One attempt's bound, connection to status line (CONTRACT: a 2xx within 15 s). */
  timeoutMs: number;
  /** Deliveries in flight at once, per instance. */
  concurrency: number;
  /**
   * Deliveries of one tenant in flight at once, across every instance: a tenant whose endpoints are slow
   * or time out cannot take every slot and hold back the other tenants' deliveries.
   */
  perTenant: number;
  /** How often an idle worker looks for due deliveries. */
  pollIntervalMs: number;
}

/** The waits between attempts, from the environment (the CONTRACT's schedule unless tests shorten it). */
export function webhookWorkerSettings(): WebhookWorkerSettings {
  const e = env();
  return {
    retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
    timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    concurrency: e.WEBHOOK_CONCURRENCY,
    perTenant: e.WEBHOOK_CONCURRENCY_PER_TENANT,
    pollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS,
  };
}

interface Claimed {
  id: number;
  attempts: number;
  url: string;
  secret: string;
  eventId: string;
  body: string;
}

/**
 * Claims up to `limit` due deliveries, the oldest of each endpoint that has none in flight, taking the
 * tenants in turn and none past `perTenant` deliveries in flight (across every instance), and returns what
 * sending them needs. One statement.
 */
async function claimDeliveries(db: Db, limit: number, perTenant: number, leaseMs: number): Promise<Claimed[]> {
  const claimed = await rows(
    db,
    sql`with heads as (
          -- Each endpoint's oldest due delivery, for endpoints with none in flight.
          select id, tenant_id, event_seq from (
            select p.id, p.tenant_id, p.event_seq, row_number() over (partition by p.endpoint_id order by p.event_seq, p.id) as rank
              from webhook_deliveries p
             where p.status = 'pending' and p.next_attempt_at <= now() and (p.locked_until is null or p.locked_until <= now())
               and not exists (select 1 from webhook_deliveries q
                                where q.endpoint_id = p.endpoint_id and q.status = 'pending' and q.locked_until > now())
          ) ranked
           where rank = 1
        ), busy as (
          select tenant_id, count(*) as n from webhook_deliveries where status = 'pending' and locked_until > now() group by tenant_id
        ), due as (
          -- Round robin across tenants (each tenant's oldest first), and no tenant past its share in flight.
          select id from (
            select h.id, h.event_seq, row_number() over (partition by h.tenant_id order by h.event_seq) as turn, coalesce(b.n, 0) as in_flight
              from heads h left join busy b on b.tenant_id = h.tenant_id
          ) t
           where t.in_flight + t.turn <= ${perTenant}
           order by t.turn, t.event_seq
           limit ${limit}
        ), locked as (
          select d.id from webhook_deliveries d where d.id in (select id from due) for update skip locked
        ), claimed as (
          update webhook_deliveries d
             set locked_until = now() + ${leaseMs} * interval '1 millisecond', attempts = d.attempts + 1, last_attempt_at = now()
            from locked
           where d.id = locked.id and d.status = 'pending' and (d.locked_until is null or d.locked_until <= now())
          returning d.id, d.endpoint_id, d.event_seq, d.attempts
        )
        select c.id, c.attempts, w.url, w.secret, e.id as event_id, e.type, e.data, e.created_at
          from claimed c
          join webhook_endpoints w on w.id = c.endpoint_id
          join events e on e.seq = c.event_seq
         order by c.event_seq`,
  );
  return claimed.map((r) => ({
    id: sqlNumber(r.id)!,
    attempts: sqlNumber(r.attempts)!,
    url: String(r.url),
    secret: String(r.secret),
    eventId: String(r.event_id),
    // CONTRACT body: {type, timestamp, data}; the tenant never.
    body: JSON.stringify({ type: String(r.type), timestamp: sqlDate(r.created_at)!.toISOString(), data: sqlJson<Record<string, unknown>>(r.data) }),
  }));
}

/** Records an attempt's result: delivered, due again after the schedule's next wait, or failed. */
async function settleDelivery(
  db: Db,
  delivery: Pick<Claimed, "id" | "attempts">,
  result: SendResult,
  retryScheduleMs: readonly number[],
): Promise<"delivered" | "retry" | "failed"> {
  const outcome = result.ok ? "delivered" : delivery.attempts > retryScheduleMs.length ? "failed" : "retry";
  const waitMs = outcome === "retry" ? retryScheduleMs[delivery.attempts - 1]! : 0;
  await db.execute(sql`
    update webhook_deliveries
       set status = ${outcome === "retry" ? "pending" : outcome},
           locked_until = null,
           last_status_code = ${result.status},
           last_error = ${result.error},
           delivered_at = ${outcome === "delivered" ? sql`now()` : sql`null`},
           next_attempt_at = case when ${outcome === "retry"} then now() + ${waitMs} * interval '1 millisecond' else next_attempt_at end
     where id = ${delivery.id}`);
  return outcome;
}

export interface WebhookWorker {
  /** Stops claiming, lets the deliveries in flight finish (each is bounded by `timeoutMs`), then resolves. */
  stop(): Promise<void>;
}

/** Runs the delivery loop until `stop()`; errors (the database away) are logged and the loop goes on. */
export function startWebhookWorker({ db, log, settings }: { db: () => Promise<Db>; log: Logger; settings: WebhookWorkerSettings }): WebhookWorker {
  const inFlight = new Set<Promise<void>>();
  let running = true;
  let wake: (() => void) | null = null;
  // A delivery that ends while the loop is claiming (not waiting) must not be lost: the loop looks again at once.
  let woken = false;
  const nudge = () => {
    woken = true;
    wake?.();
  };
  // A lease outlives the attempt (twice its bound, and a second): a claim expires only when its worker is gone.
  const leaseMs = 2 * settings.timeoutMs + 1_000;

  const deliver = async (database: Db, d: Claimed) => {
    const headers = webhookHeaders(d.secret, d.eventId, new Date(), d.body);
    const result = await sendWebhook(d.url, headers, d.body, settings.timeoutMs);
    const outcome = await settleDelivery(database, d, result, settings.retryScheduleMs);
    recordWebhookAttempt(outcome);
    if (outcome !== "delivered")
      log.warn({ delivery_id: d.id, event_id: d.eventId, attempts: d.attempts, status: result.status, error: result.error, outcome }, "webhook delivery failed");
  };

  const loop = async () => {
    while (running) {
      let claimedAny = false;
      woken = false;
      try {
        const free = settings.concurrency - inFlight.size;
        if (free > 0) {
          const database = await db();
          const claimed = await claimDeliveries(database, free, settings.perTenant, leaseMs);
          claimedAny = claimed.length > 0;
          for (const d of claimed) {
            const p: Promise<void> = deliver(database, d)
              .catch((err: unknown) => log.error({ err, delivery_id: d.id }, "webhook delivery could not be recorded"))
              .finally(() => {
                inFlight.delete(p);
                nudge();
              });
            inFlight.add(p);
          }
        }
      } catch (err) {
        log.warn({ err }, "webhook worker: claiming deliveries failed; trying again at the next poll");
      }
      if (!running) break;
      // A delivery ended meanwhile: look again now. Else, busy: as soon as one ends; idle: at the next poll.
      if (!woken && (!claimedAny || inFlight.size >= settings.concurrency)) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, settings.pollIntervalMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
  };
  const done = loop();
  return {
    async stop() {
      running = false;
      nudge();
      await done;
      await Promise.allSettled([...inFlight]);
    },
  };
}
