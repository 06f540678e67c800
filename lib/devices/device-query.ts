/**
 * Reading devices in batches: the tenant's devices among a list of ids, with the columns of the SQL
 * parts the caller picks (device-parts.ts, and the telemetry aggregates of lib/telemetry/queries/), as
 * ONE query for any number of devices. Every score loader, the charging recommendation, certificates,
 * the period distance and the leasing loaders read devices through it. Every part correlates on the
 * device row `d` of the tenant (`d.tenant_id`, `d.device_id`), so the tenant always comes from the
 * caller's context.
 */
import { sql, type SQL } from "drizzle-orm";
import type { TenantCtx } from "@/lib/context";
import { rows } from "@/lib/db/sql-values";
import { buildQuery, genericPlanRows, isPostgresPool, runBuiltQuery, type BuiltQuery } from "@/lib/db/prepared";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";

/** Columns a part adds to the select list, and the join that provides them. */
export interface DevicePart {
  columns: SQL;
  join?: SQL;
}

export interface DeviceQueryArgs {
  ctx: Pick<TenantCtx, "db" | "tenantId">;
  deviceIds: readonly string[];
  /** Called once per SQL round trip (tests and the bench assert that it does not grow with N). */
  onQuery?: (label: string) => void;
}

/** A load is split for FDP_QUERY_PARALLELISM only from this many devices per statement on: below it, one statement is cheaper. */
export const MIN_DEVICES_PER_STATEMENT = 100;

/**
 * The tenant's devices among `deviceIds` (each once; ids it does not hold are simply absent) with the
 * columns of `withParts`, in one round trip, or, for a large list on the app's Postgres pool, in
 * FDP_QUERY_PARALLELISM statements sent at once over contiguous slices of the list: the statement is a
 * nested loop over the devices that Postgres runs on one core, so a 1,000-device TAS batch used one
 * core of the database while the other idled. The number of statements is bounded (never grows with
 * N beyond that setting) and each is the same text, so the same prepared statement. Inside a
 * transaction, and on the embedded database, it is always one statement. The id list travels as one
 * JSON parameter, so the statement has the same placeholders whatever N, on both drivers. `limit N` (the list holds exactly N distinct
 * ids, so it drops none) tells the planner how many ids there are: without it a set-returning function
 * counts as 100 rows, and a one-device statement was costed as the whole fleet, above Postgres'
 * jit_above_cost, so it paid about 60 ms of JIT compilation for a few milliseconds of execution.
 */
export async function queryDevices(
  label: string,
  { ctx, deviceIds, onQuery }: DeviceQueryArgs,
  withParts: DevicePart[] | (() => DevicePart[]),
  { genericPlan = false, template }: { genericPlan?: boolean; template?: { statement: DeviceStatementTemplate; values: Record<string, unknown> } } = {},
): Promise<Record<string, unknown>[]> {
  const unique = [...new Set(deviceIds)];
  if (unique.length === 0) return [];
  const statements = isPostgresPool(ctx.db) ? Math.max(1, Math.min(env().FDP_QUERY_PARALLELISM, Math.floor(unique.length / MIN_DEVICES_PER_STATEMENT))) : 1;
  const size = Math.ceil(unique.length / statements);
  const slices = Array.from({ length: statements }, (_, i) => unique.slice(i * size, (i + 1) * size)).filter((s) => s.length > 0);
  let built: SQL[] | undefined;
  const statementFor = (slice: readonly string[]) => {
    built ??= (() => {
      const parts = typeof withParts === "function" ? withParts() : withParts;
      return [
        selectList(parts),
        sql.join(
          parts.flatMap((p) => (p.join ? [p.join] : [])),
          sql` `,
        ),
      ];
    })();
    return devicesStatement(ctx.tenantId, JSON.stringify(slice), slice.length, built[0]!, built[1]!);
  };
  const found = await Promise.all(
    slices.map(async (slice) => {
      onQuery?.(label);
      if (template) {
        const values = { ...template.values, tenant: ctx.tenantId, ids: JSON.stringify(slice), n: slice.length };
        const answered = await runBuiltQuery<Record<string, unknown>>(ctx.db, fillTemplate(ctx.db, template.statement, values), { genericPlan });
        if (answered) return answered;
      }
      return (genericPlan ? genericPlanRows : rows)(ctx.db, statementFor(slice));
    }),
  );
  return found.length === 1 ? found[0]! : found.flat();
}

/** The parts' columns after `d.device_id` (with their leading comma). */
const selectList = (parts: DevicePart[]): SQL =>
  parts.length > 0
    ? sql`, ${sql.join(
        parts.map((p) => p.columns),
        sql`, `,
      )}`
    : sql``;

function devicesStatement(tenantId: string, idsJson: string, n: number | string, columns: SQL, joins: SQL): SQL {
  return sql`with ids as (select distinct v as device_id from jsonb_array_elements_text(${idsJson}::jsonb) as v limit ${n}::int)
        select d.device_id${columns}
        from ids join devices d on d.tenant_id = ${tenantId} and d.device_id = ids.device_id
        ${joins}`;
}

/** Marks a template value (no request value holds a NUL character: the API refuses them). */
const TEMPLATE_VALUE = "\u0000fdp-template:";

/** The placeholder of the value `name` in a statement template's parts. */
export const templateValue = (name: string): string => `${TEMPLATE_VALUE}${name}`;

/**
 * A device statement whose TEXT is built once per process and whose values are filled per call.
 * drizzle builds the TAS statement from some 3,000 SQL fragments at every call: about 0.45 ms of CPU a
 * request, the largest part of what `GET /tas/{id}` cost beyond its floor (docs/performance.md). The
 * parts are built with `templateValue(name)` where a call's values go (the values the statement derives
 * from them are passed as values too: no part computes on a placeholder), then every parameter that is
 * a placeholder is replaced by the call's value, and the tenant (`tenant`), the id list (`ids`) and its
 * length (`n`) by queryDevices. The embedded database builds the statement per call as before.
 */
export interface DeviceStatementTemplate {
  parts: () => DevicePart[];
  built?: BuiltQuery;
}

function fillTemplate(db: Db, template: DeviceStatementTemplate, values: Record<string, unknown>): BuiltQuery {
  template.built ??= (() => {
    const parts = template.parts();
    return buildQuery(
      db,
      devicesStatement(
        templateValue("tenant"),
        templateValue("ids"),
        templateValue("n"),
        selectList(parts),
        sql.join(
          parts.flatMap((p) => (p.join ? [p.join] : [])),
          sql` `,
        ),
      ),
    );
  })();
  const params = template.built.params.map((p) => {
    if (typeof p !== "string" || !p.startsWith(TEMPLATE_VALUE)) return p;
    const name = p.slice(TEMPLATE_VALUE.length);
    if (!(name in values)) throw new Error(`statement template: no value for ${name}`);
    return values[name];
  });
  return { sql: template.built.sql, params };
}
