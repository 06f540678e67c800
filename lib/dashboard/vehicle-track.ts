import { sql } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows, sqlDate, sqlNumber } from "@/lib/db/sql-values";

/** How far back the vehicle page's track reaches: the last days a fleet manager asks about ("where was it this week-end?"). */
export const TRACK_DAYS = 3;
/**
 * At most this many points per track: at the sandbox's 5-minute cadence three days of driving are a few
 * hundred points; a unit reporting every few seconds would send tens of thousands, more than a polyline
 * needs on a 360 px map and more than a page should carry.
 */
const TRACK_MAX_POINTS = 2000;

interface VehicleTrack {
  device_id: string;
  /** [lat, lon, ISO time] in time order, at most TRACK_MAX_POINTS. */
  points: [number, number, string][];
  /** Positions in the window before thinning (points.length when none were dropped). */
  total_points: number;
  /** The window: TRACK_DAYS before the latest position, to that position; null without any position. */
  from: string | null;
  to: string | null;
}

/**
 * The positions of one vehicle of the tenant over the TRACK_DAYS before its latest position (so a
 * vehicle offline since the week-end still shows where it went), thinned evenly to at most `maxPoints`
 * (the first and the latest position always kept). One round trip; the telemetry primary key
 * (tenant, device, ts) serves both the latest position and the range. A device of another tenant has
 * no positions here (the page answers 404 before asking).
 */
export async function getVehicleTrack({
  ctx,
  input,
  maxPoints = TRACK_MAX_POINTS,
  days = TRACK_DAYS,
}: {
  ctx: TenantCtx;
  input: { device_id: string };
  maxPoints?: number;
  days?: number;
}): Promise<VehicleTrack> {
  const keep = Math.max(2, Math.floor(maxPoints));
  const onDevice = sql`t.tenant_id = ${ctx.tenantId} and t.device_id = ${input.device_id}
    and t.lat between -90 and 90 and t.lon between -180 and 180`;
  // Even thinning: with n positions and k = keep − 1, position i (0-based) falls in bucket ⌊i·k/(n−1)⌋;
  // the first position of each of the k + 1 buckets is kept, which keeps exactly `keep` positions
  // including the first (bucket 0) and the last (the only one in bucket k).
  const found = await rows<Record<string, unknown>>(
    ctx.db,
    sql`with latest as (
          select max(t.ts) as at from telemetry t where ${onDevice}
        ),
        pts as (
          select t.lat, t.lon, t.ts,
                 row_number() over (order by t.ts) - 1 as i,
                 count(*) over () as n
          from telemetry t, latest
          where ${onDevice} and t.ts >= latest.at - make_interval(days => ${days}::int)
        )
        select lat, lon, ts, n, (select at from latest) as latest_at from pts
        where n <= ${keep}::bigint
           or i = 0
           or (i * ${keep - 1}::bigint) / (n - 1) <> ((i - 1) * ${keep - 1}::bigint) / (n - 1)
        order by ts`,
  );
  const points: [number, number, string][] = [];
  for (const r of found) {
    const lat = sqlNumber(r.lat);
    const lon = sqlNumber(r.lon);
    const ts = sqlDate(r.ts);
    if (lat !== null && lon !== null && ts !== null) points.push([lat, lon, ts.toISOString()]);
  }
  const latest = found.length > 0 ? sqlDate(found[0]!.latest_at) : null;
  return {
    device_id: input.device_id,
    points,
    total_points: found.length > 0 ? (sqlNumber(found[0]!.n) ?? points.length) : 0,
    from: latest ? new Date(latest.getTime() - days * 86_400_000).toISOString() : null,
    to: latest?.toISOString() ?? null,
  };
}
