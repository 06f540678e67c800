import type postgres from "postgres";

/**
 * Waits until the app's own background refresh has rolled up every device of the tenant to yesterday
 * (lib/telemetry/rollups/refresh-telemetry-rollups.ts: one refresh after the first ingest, one trailing
 * refresh at most ROLLUP_REFRESH_INTERVAL_SECONDS after the last). The benchmarks measure the steady
 * state a tenant is in once its uploads have stopped, not the minute after a burst. Returns the seconds
 * waited; throws after `timeoutMs`.
 */
export async function waitForFreshRollups(raw: postgres.Sql, tenantId: string, timeoutMs = 180_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    const [r] = await raw<{ stale: number }[]>`
      select count(*)::int as stale from devices d
      left join telemetry_rollup_state rs on rs.tenant_id = d.tenant_id and rs.device_id = d.device_id
      where d.tenant_id = ${tenantId} and (rs.clean_before is null or rs.clean_before < (now() at time zone 'UTC')::date)`;
    if (r!.stale === 0) return (Date.now() - started) / 1000;
    if (Date.now() - started > timeoutMs) throw new Error(`${r!.stale} devices of ${tenantId} still have stale rollups after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
