import { sql } from "drizzle-orm";
import type { DevicePart } from "@/lib/devices/device-query";
import { behaviourAggregates, harshAggregates, HARSH_MEASURES, measureColumns, SOURCE_COLUMNS, type BehaviourMeasures } from "@/lib/telemetry/queries/behaviour-sql";

/**
 * The behaviour part of a device query over `[since, until]` (ISO strings), computed from the raw
 * telemetry of the window. Columns are prefixed `bh_`. The scores use `behaviourPart`
 * (behaviour-rollup-sql.ts), which reads the daily rollups for the window's whole days and this SQL for
 * the rest, with the same figures; this one is its reference (tests/db/telemetry-rollups.test.ts), kept
 * with the tests because only they read the window wholly raw.
 */
export function behaviourPartRaw({ since, until, measures = "all" }: { since: string; until: string; measures?: BehaviourMeasures }): DevicePart {
  const from = sql`${since}::timestamptz`;
  const to = sql`${until}::timestamptz`;
  return {
    columns: sql`${measureColumns(measures, (n) => sql.raw(HARSH_MEASURES.includes(n as never) ? `bhe.bh_${n}` : `bh.bh_${n}`))}, ${SOURCE_COLUMNS}`,
    join: sql`left join lateral (${behaviourAggregates({ stream: { kind: "window", from, until: to }, measures })}) bh on true
    left join lateral (${harshAggregates(sql`de.ts >= ${from} and de.ts <= ${to}`)}) bhe on true`,
  };
}
