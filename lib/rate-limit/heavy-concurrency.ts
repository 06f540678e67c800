/**
 * The per-tenant cap on heavy operations in flight (HEAVY_CONCURRENCY_PER_TENANT, default 2; docs/scaling.md
 * "Budgets: heavy and interactive operations"). A rate limit counts requests per minute; this counts
 * requests *running*: 60 fleet scores a minute are harmless when each takes 50 ms and stall everyone
 * when each takes 5 s, and only a cap on what runs at once bounds the second case.
 *
 * Counted in this process, per tenant (not per key: a tenant's keys share its data and its cost; the
 * shared sandbox key per client IP, lib/operations/budget.ts heavyCapKey). Per
 * instance on purpose: the cap protects the connections and cores of the pool the work runs on, and
 * each instance has its own heavy pool, so an instance that admits at most `cap` of a tenant's heavy
 * operations bounds exactly what that tenant can take from it. Across k instances behind a balancer a
 * tenant may run up to k × cap at once, and each of those instances still keeps slots for the others
 * (lib/operations/budget.ts). A shared count (Redis) would add a round trip and a lease to expire after a
 * crash to every heavy request for no better protection of any one pool.
 *
 * On globalThis: the operations served straight by server.ts and the MCP endpoint that Next.js serves are
 * different module instances in one process, and must share one count.
 */

/** What the caller is told: run (and release when done), or not now and when to retry. */
type HeavyAdmission = { admitted: true; release: () => void } | { admitted: false; limit: number; retryAfterSeconds: number };

interface State {
  /** Start times (ms) of each tenant's heavy operations in flight in this process. */
  running: Map<string, Set<{ started: number }>>;
  /** Exponentially weighted mean duration of the heavy operations finished here, ms (null: none yet). */
  meanMs: number | null;
}

const g = globalThis as typeof globalThis & { __fdpHeavyConcurrency?: State };
const state: State = (g.__fdpHeavyConcurrency ??= { running: new Map(), meanMs: null });

/** Weight of the newest duration in the mean: about the last ten operations count. */
const MEAN_WEIGHT = 0.2;
/** Retry-After before any heavy operation has finished here. */
const DEFAULT_RETRY_SECONDS = 1;

/**
 * Admits one heavy operation of `tenantId` (the cap's key) when fewer than `limit` are running, else refuses it with
 * the seconds after which one of them is expected to have finished: the mean duration of recent heavy
 * operations minus the time the oldest of this tenant's has already run (at least 1 s).
 */
export function admitHeavy(tenantId: string, limit: number, now = Date.now()): HeavyAdmission {
  let running = state.running.get(tenantId);
  if (running && running.size >= limit) {
    const oldest = Math.min(...[...running].map((r) => r.started));
    const expectedMs = (state.meanMs ?? DEFAULT_RETRY_SECONDS * 1000) - (now - oldest);
    return { admitted: false, limit, retryAfterSeconds: Math.max(1, Math.ceil(expectedMs / 1000)) };
  }
  if (!running) {
    running = new Set();
    state.running.set(tenantId, running);
  }
  const entry = { started: now };
  running.add(entry);
  let released = false;
  return {
    admitted: true,
    release: () => {
      if (released) return;
      released = true;
      const ms = Date.now() - entry.started;
      state.meanMs = state.meanMs === null ? ms : state.meanMs + MEAN_WEIGHT * (ms - state.meanMs);
      const set = state.running.get(tenantId);
      set?.delete(entry);
      if (set?.size === 0) state.running.delete(tenantId);
    },
  };
}

/** Heavy operations of `tenantId` running in this process now (tests, diagnostics). */
export function heavyInFlight(tenantId: string): number {
  return state.running.get(tenantId)?.size ?? 0;
}

/** Forgets the counts and the mean duration (tests). */
export function resetHeavyConcurrency(): void {
  state.running.clear();
  state.meanMs = null;
}
