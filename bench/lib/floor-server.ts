/**
 * The floor of a read endpoint: a bare `node:http` server that runs the same SQL as FDP with the same
 * driver (postgres.js, the same pool size) and writes its rows as JSON, with nothing else: no routing
 * framework, no key lookup, no rate limit, no validation, no scoring, no output check; it compresses as
 * the app does for a client that asks for gzip. What FDP adds on
 * top of this is what the read benchmark measures. Started as its own process by
 * bench/benchmarks/read-floor.ts (so it competes for the CPU as the app does), configured by the
 * FLOOR_CONFIG env variable: `{ databaseUrl, port, pool, routes: { "<path>": { sql, params, shape } } }`.
 */
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { acceptsGzip } from "../../lib/http/accept-encoding";
import postgres from "postgres";

interface Route {
  sql: string;
  params: unknown[];
  /** `fleet`: FDP's fleet record fields and list envelope; `rows`: the rows as they come. */
  shape: "fleet" | "rows";
  /** `generic`: on connections that force generic plans, as the app runs this statement (lib/db/prepared.ts). */
  plan?: "generic";
}
interface FloorConfig {
  databaseUrl: string;
  port: number;
  pool: number;
  tenantId: string;
  routes: Record<string, Route>;
}

const config = JSON.parse(process.env.FLOOR_CONFIG ?? "{}") as FloorConfig;
// The app's connection settings (lib/db/client.ts): JIT off.
const sql = postgres(config.databaseUrl, { max: config.pool, onnotice: () => {}, connection: { jit: "off" } });
// The app's generic-plan pool (lib/db/client.ts): half the connections, generic plans forced.
const genericSql = postgres(config.databaseUrl, {
  max: Math.max(2, Math.ceil(config.pool / 2)),
  onnotice: () => {},
  connection: { jit: "off", plan_cache_mode: "force_generic_plan" },
});
// The driver exactly as drizzle-orm/postgres-js configures it for the app: date/time types and JSON
// pass through as text (the app's statements send JSON parameters as text for a `::jsonb` cast).
const passThrough = (v: unknown) => v;
for (const client of [sql, genericSql]) {
  const options = client.options as unknown as { parsers: Record<string, unknown>; serializers: Record<string, unknown> };
  for (const type of ["1184", "1082", "1083", "1114", "1182", "1185", "1115", "1231"]) {
    options.parsers[type] = passThrough;
    options.serializers[type] = passThrough;
  }
  options.serializers["114"] = passThrough;
  options.serializers["3802"] = passThrough;
}

const ALERT_LEVELS = ["none", "info", "warning", "critical"];
/** The fleet record as FDP writes it (lib/fleet/list-fleet.ts), from the same columns: a fair JSON size. */
function fleetBody(rows: Record<string, unknown>[]): string {
  const data = rows.map((r) => ({
    device_id: r.device_id,
    device_name: r.name,
    vehicle_speed: r.speed_kmh,
    battery_voltage: r.battery_voltage,
    lat: r.lat,
    lon: r.lon,
    status: Date.now() - Number(r.ts_ms) > 86_400_000 ? "offline" : r.speed_kmh && Number(r.speed_kmh) > 0 ? "driving" : "parked",
    alert_level: ALERT_LEVELS[Number(r.rank ?? 0)] ?? "none",
    weather_temp: r.weather_temp,
    ignition: r.ignition === 1 ? 1 : 0,
    updated_at: r.updated_at,
  }));
  return JSON.stringify({ data, count: data.length, tenant_id: config.tenantId });
}

const server = createServer((req, res) => {
  const route = config.routes[(req.url ?? "").split("?")[0] ?? ""];
  if (!route) {
    res.statusCode = 404;
    res.end();
    return;
  }
  (route.plan === "generic" ? genericSql : sql)
    .unsafe(route.sql, route.params as never[], { prepare: true })
    .then((rows) => {
      const text = route.shape === "fleet" ? fleetBody(rows) : JSON.stringify(rows);
      // Compressed as the app compresses a JSON answer for a client that asks (lib/http/write-answer.ts:
      // gzip level 1 from 1 KB on), so both sides do the same work for the same client.
      const bytes = Buffer.from(text);
      if (bytes.length >= 1024 && acceptsGzip(req.headers["accept-encoding"])) {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip", vary: "Accept-Encoding" });
        res.end(gzipSync(bytes, { level: 1 }));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(bytes);
      }
    })
    .catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
});
server.listen(config.port, "127.0.0.1", () => process.stdout.write("floor ready\n"));
process.on("SIGTERM", () => {
  server.close();
  void Promise.all([sql.end({ timeout: 2 }), genericSql.end({ timeout: 2 })]).finally(() => process.exit(0));
});
