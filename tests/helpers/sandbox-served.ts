import { SANDBOX_KEY } from "@/lib/auth/key-format";

/** Finland's bounding box: the sandbox drives there. */
const inFinland = (d: { lat: number; lon: number }) => d.lat > 59.5 && d.lat < 70.2 && d.lon > 19 && d.lon < 31.6;

/**
 * What a freshly started app on the embedded database serves a new user, reduced to facts that
 * SANDBOX_SERVED fixes: health, the sandbox fleet (at least 40 vehicles in at least 3 states, all in
 * Finland), alerts of every severity, the OpenAPI document and the home page's links. Shared by the
 * `npm run dev` test (tests/integration/embedded-app.test.ts) and the `npm start` one (e2e/embedded-start.spec.ts).
 */
export async function sandboxServedFacts(baseUrl: string) {
  const get = (pathAndQuery: string, key?: string) => fetch(`${baseUrl}${pathAndQuery}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  const healthBody = (await (await get("/api/health")).json()) as { status?: unknown; details?: { mqtt_bridges?: unknown } };
  // The bridges listed depend on what else the run added (e2e/mqtt-feed.spec.ts); that they are listed does not.
  const health = { status: healthBody.status, mqtt_bridges_listed: Array.isArray(healthBody.details?.mqtt_bridges) };
  const fleetResponse = await get("/api/v1/fleet?limit=500", SANDBOX_KEY);
  const fleet = (await fleetResponse.json()) as { _sandbox: boolean; count: number; tenant_id: string; data: { status: string; lat: number; lon: number }[] };
  const alerts = (await (await get("/api/v1/alerts?limit=200", SANDBOX_KEY)).json()) as { data: { severity: string }[] };
  const spec = (await (await get("/api/v1/openapi.json")).json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
  const home = await get("/");
  const html = await home.text();
  return {
    health,
    fleet: {
      status: fleetResponse.status,
      sandbox: fleet._sandbox,
      tenant_id: fleet.tenant_id,
      at_least_40: fleet.count >= 40,
      at_least_3_states: new Set(fleet.data.map((d) => d.status)).size >= 3,
      outside_finland: fleet.data.filter((d) => !inFinland(d)),
    },
    alert_severities: [...new Set(alerts.data.map((a) => a.severity))].sort(),
    openapi: { openapi: spec.openapi, version: spec.info.version, has_fleet_and_alerts: "/fleet" in spec.paths && "/alerts" in spec.paths },
    home: { status: home.status, links_docs: html.includes('href="/docs"'), links_dashboard: html.includes('href="/dashboard"') },
  };
}

export const SANDBOX_SERVED: Awaited<ReturnType<typeof sandboxServedFacts>> = {
  health: { status: "ok", mqtt_bridges_listed: true },
  fleet: { status: 200, sandbox: true, tenant_id: "sandbox", at_least_40: true, at_least_3_states: true, outside_finland: [] },
  alert_severities: ["CRITICAL", "INFO", "WARNING"],
  openapi: { openapi: "3.1.0", version: "1.2.0", has_fleet_and_alerts: true },
  home: { status: 200, links_docs: true, links_dashboard: true },
};
