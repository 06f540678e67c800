import { probeDatabase } from "@/lib/health/check-health";
import { DATABASE_RETRY_AFTER_SECONDS } from "@/lib/db/sql-values";
import { seconds, serverPageHtml } from "@/lib/http/server-page";

/**
 * Pages while the database is unreachable (CONTRACT "Reliability and hardening": a 503 with
 * Retry-After, never a hang). An API answer gets its 503 envelope from the error mapping; a page
 * cannot: Next.js answers a server component that throws with its own 500 page, and a page cannot
 * choose its status. So server.ts asks this gate before it hands a page that reads the database to
 * Next.js, and answers the 503 page below itself when the database does not answer.
 *
 * The gate probes with `select 1` (lib/health/check-health.ts's probe, bounded by its timeout), at most
 * once per PROBE_TTL_MS whatever the number of page requests, and all requests arriving during a probe
 * wait for that one probe. A page request therefore costs nothing extra while the database is up
 * (the cached answer), and a second at most of stale answer either way: a page requested in the
 * second the database goes down can still meet Next.js's 500 page, and the first page after it is
 * back can still see the 503 page.
 */
export const PROBE_TTL_MS = 1_000;

/** The pages that read the database: the dashboard, sign-in (it checks the password) and verification. */
export function pageNeedsDatabase(pathname: string): boolean {
  return /^\/(dashboard|login|verify)(\/|$)/.test(pathname);
}

interface DatabaseGate {
  /** Whether the database answered the latest probe (run now if the latest is older than the TTL). */
  available(): Promise<boolean>;
}

export function createDatabaseGate({
  probe = async () => (await probeDatabase()).outcome === "ok",
  ttlMs = PROBE_TTL_MS,
  now = () => performance.now(),
}: { probe?: () => Promise<boolean>; ttlMs?: number; now?: () => number } = {}): DatabaseGate {
  let last: { at: number; up: boolean } | undefined;
  let running: Promise<boolean> | undefined;
  return {
    available() {
      if (last && now() - last.at < ttlMs) return Promise.resolve(last.up);
      running ??= probe()
        .catch(() => false)
        .then((up) => {
          last = { at: now(), up };
          running = undefined;
          return up;
        });
      return running;
    },
  };
}

/** The 503 page: what happened, that nothing saved is lost, when to come back. */
export function databaseUnavailableAnswer(): { status: 503; headers: Record<string, string>; html: string } {
  const retryAfter = DATABASE_RETRY_AFTER_SECONDS;
  const html = serverPageHtml({
    title: "FDP is briefly unavailable",
    eyebrow: "FDP — Fleet Data Products",
    paragraphs: [
      "FDP cannot reach its database at the moment, so this page cannot be shown. Nothing you saved is lost, and the service recovers by itself as soon as the database answers again.",
      `Please reload this page in ${seconds(retryAfter)}.`,
    ],
  });
  return { status: 503, headers: { "Retry-After": String(retryAfter), "Cache-Control": "no-store" }, html };
}
