import type { PublicCtx, TenantCtx } from "@/lib/context";
import { operationPoolDb } from "@/lib/db/operation-pools";
import { runRouted } from "@/lib/db/replica";
import { databaseFailureKind } from "@/lib/db/sql-values";
import { env } from "@/lib/env";
import { RateLimitedError, ServiceUnavailableError } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-ip";
import type { Logger } from "@/lib/log/logger";
import { admitHeavy } from "@/lib/rate-limit/heavy-concurrency";
import type { Operation } from "./define-operation";

/**
 * Budgets, so that no tenant stalls another (docs/scaling.md "Budgets: heavy and interactive
 * operations"). Every operation's verb runs through `runBudgeted`, in invokeOperation
 * (lib/operations/invoke-operation.ts), so REST and MCP obey the same budgets:
 *
 * 1. a heavy operation (`cost: "heavy"`) of a tenant that already has HEAVY_CONCURRENCY_PER_TENANT in
 *    flight is refused at once: 429 `rate_limited` with Retry-After (lib/rate-limit/heavy-concurrency.ts);
 * 2. an admitted heavy operation waits for one of this instance's heavy slots
 *    (HEAVY_POOL_MAX / FDP_QUERY_PARALLELISM: a heavy verb may send that many statements at once), at
 *    most HEAVY_QUEUE_TIMEOUT_MS, then answers 503 `service_unavailable` with Retry-After: a bounded
 *    queue instead of a pile of requests behind a saturated pool. Since one tenant holds at most its cap
 *    of the slots, the others always find one free or soon free (with the defaults 2 of 3);
 * 3. the verb runs on its pool (lib/db/operation-pools.ts): heavy operations on the heavy pool
 *    (STATEMENT_TIMEOUT_MS), interactive reads on the interactive pool (INTERACTIVE_STATEMENT_TIMEOUT_MS),
 *    everything else on the process-wide pool; with a read replica, `reads: "replica"` verbs go there as
 *    before (lib/db/replica.ts), the slots above bounding what heavy reads take of its pool as well.
 */

/** Seconds a client is told to wait after a full queue: about the time one heavy operation takes to make room. */
const QUEUE_FULL_RETRY_SECONDS = 5;

/** A counting semaphore whose waiters give up after a timeout (the queue of the instance's heavy slots). */
export class SlotQueue {
  private active = 0;
  private readonly waiting: { grant: () => void }[] = [];

  constructor(readonly slots: number) {}

  /** Resolves true with a slot taken (call `release` once done), or false after `timeoutMs` without one. */
  acquire(timeoutMs: number): Promise<boolean> {
    if (this.active < this.slots) {
      this.active++;
      return Promise.resolve(true);
    }
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      }, timeoutMs);
      this.waiting.push(waiter);
    });
  }

  /** Hands the slot to the longest waiter, or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next.grant();
    else this.active = Math.max(0, this.active - 1);
  }

  /** Slots taken and requests waiting (tests, diagnostics). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}

/** The heavy slots of this instance (on globalThis: shared with any module copy Next.js's bundle loads). */
const g = globalThis as typeof globalThis & { __fdpHeavySlots?: SlotQueue };

function heavySlots(): SlotQueue {
  const { HEAVY_POOL_MAX, FDP_QUERY_PARALLELISM } = env();
  const slots = Math.max(1, Math.floor(HEAVY_POOL_MAX / FDP_QUERY_PARALLELISM));
  // A changed setting (tests change the env between files) starts a new queue; the old one drains by itself.
  if (g.__fdpHeavySlots?.slots !== slots) g.__fdpHeavySlots = new SlotQueue(slots);
  return g.__fdpHeavySlots;
}

type AnyCtx = TenantCtx | PublicCtx;

/**
 * Whose heavy cap a request counts against: its tenant's, except for the public sandbox key, which
 * everyone shares: there each client IP has its own cap (as it has its own rate limit), so that one
 * visitor cannot take the sandbox's heavy slots from every other.
 */
export function heavyCapKey(ctx: AnyCtx, req: Request): string | undefined {
  if (!("tenantId" in ctx)) return undefined;
  return ctx.isSandbox ? `${ctx.tenantId}:${clientIp(req)}` : ctx.tenantId;
}

interface BudgetedRun<T> {
  op: Pick<Operation, "id" | "cost" | "reads">;
  ctx: AnyCtx;
  /** What the per-tenant cap counts under (heavyCapKey); default the tenant. */
  capKey?: string;
  log: Logger;
  /** Receives the headers of a refusal (Retry-After, RateLimit-*); the REST binding puts them on the answer. */
  setHeaders?: (headers: Record<string, string>) => void;
  run: (ctx: AnyCtx) => Promise<T>;
}

/** Seconds a client is told to wait after its statement was cut: the load that slowed it may have passed. */
const STATEMENT_TIMEOUT_RETRY_SECONDS = 5;

/** Runs an operation's verb within its budget (see the module comment); refusals are thrown DomainErrors. */
export async function runBudgeted<T>(args: BudgetedRun<T>): Promise<T> {
  try {
    return await runWithinBudget(args);
  } catch (err) {
    if (databaseFailureKind(err) !== "statement_timeout") throw err;
    // A statement cut by its pool's statement_timeout (CONTRACT "Reliability and hardening": 503 with
    // Retry-After), logged with the operation so that an operator sees which one outgrew its budget.
    const interactive = args.op.cost !== "heavy" && args.op.reads === "replica";
    const limitMs = interactive ? env().INTERACTIVE_STATEMENT_TIMEOUT_MS : env().STATEMENT_TIMEOUT_MS;
    args.log.warn({ err, statement_timeout_ms: limitMs }, "statement cut by its statement_timeout: answered 503");
    const s = String(STATEMENT_TIMEOUT_RETRY_SECONDS);
    args.setHeaders?.({ "Retry-After": s });
    throw new ServiceUnavailableError(
      `The request took longer than the service allows one statement to run (${limitMs / 1000} s) and was stopped. Retry in ${s} s; if it keeps happening, ask for a shorter period or fewer vehicles.`,
      STATEMENT_TIMEOUT_RETRY_SECONDS,
    );
  }
}

async function runWithinBudget<T>({ op, ctx, capKey, log, setHeaders, run }: BudgetedRun<T>): Promise<T> {
  if (op.cost !== "heavy" || !("tenantId" in ctx)) {
    // Public operations (certificate verification) and those that write stay on the process-wide pool.
    const db = op.reads === "replica" ? await operationPoolDb("interactive") : null;
    return runRouted({ reads: op.reads, ctx: db ? { ...ctx, db } : ctx, log, run });
  }

  const cap = env().HEAVY_CONCURRENCY_PER_TENANT;
  const admission = admitHeavy(capKey ?? ctx.tenantId, cap);
  if (!admission.admitted) {
    const s = String(admission.retryAfterSeconds);
    // CONTRACT "Rate limits": where several limits apply, the headers describe the one with the least
    // remaining, and the one that refused has none left.
    setHeaders?.({ "RateLimit-Limit": String(admission.limit), "RateLimit-Remaining": "0", "RateLimit-Reset": s, "Retry-After": s });
    throw new RateLimitedError(
      `Too many heavy requests at once: this tenant may run ${admission.limit} fleet scores, batches, reports or certificate generations at a time, and ${admission.limit} are still running. Retry in ${s} s.`,
    );
  }
  try {
    const queue = heavySlots();
    if (!(await queue.acquire(env().HEAVY_QUEUE_TIMEOUT_MS))) {
      const s = String(QUEUE_FULL_RETRY_SECONDS);
      setHeaders?.({ "Retry-After": s });
      log.warn({ heavy_slots: queue.slots }, "heavy operation refused: no heavy slot came free within HEAVY_QUEUE_TIMEOUT_MS");
      throw new ServiceUnavailableError(`The service is busy with other heavy requests and could not start this one in time. Retry in ${s} s.`, QUEUE_FULL_RETRY_SECONDS);
    }
    try {
      const db = await operationPoolDb("heavy");
      return await runRouted({ reads: op.reads, ctx: db ? { ...ctx, db } : ctx, log, run });
    } finally {
      queue.release();
    }
  } finally {
    admission.release();
  }
}
