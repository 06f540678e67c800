import { describe, expect, it } from "vitest";
import { ALERT_STYLES } from "@/components/fleet-map/alert-style";
import { clusterHtml, escapeHtml, type FleetMapVehicle, hasKnownPosition, markerHtml, popupHtml, vehicleHref } from "@/components/fleet-map/markers";

const vehicle = (over: Partial<FleetMapVehicle> = {}): FleetMapVehicle => ({
  device_id: "dev-1",
  name: "Van 1",
  lat: 60.17,
  lon: 24.94,
  alert_level: "none",
  status: "parked",
  ...over,
});

/** The data-device-id values in a string of HTML. */
const deviceIds = (html: string) => [...html.matchAll(/data-device-id="([^"]*)"/g)].map((m) => m[1]);

describe("markers", () => {
  it("a single marker carries its device id and is coloured by its alert level", () => {
    const html = markerHtml(vehicle({ device_id: "abc", alert_level: "warning" }));
    expect(deviceIds(html)).toEqual(["abc"]);
    expect(html).toContain(`background:${ALERT_STYLES.warning.fill}`);
    expect(html).toContain(ALERT_STYLES.warning.glyph);
  });

  it("a cluster carries one data-device-id per member and the worst member's colour", () => {
    const members = [vehicle({ device_id: "a", alert_level: "none" }), vehicle({ device_id: "b", alert_level: "critical" }), vehicle({ device_id: "c", alert_level: "info" })];
    const html = clusterHtml(members);
    expect(deviceIds(html)).toEqual(["a", "b", "c"]);
    expect(html).toContain(`data-alert-level="critical" style="background:${ALERT_STYLES.critical.fill}"`);
    expect(html).toContain(">3<");
    expect(html).toContain("worst alert: critical");
  });

  it("escapes names and ids (no markup injection through a device name)", () => {
    const evil = vehicle({ device_id: 'x"><img src=x onerror=alert(1)>', name: "<script>alert(1)</script>" });
    for (const html of [markerHtml(evil), clusterHtml([evil]), popupHtml(evil)]) {
      expect(html).not.toContain("<script>");
      expect(html).not.toContain("<img");
    }
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("the popup shows name, status, alert level, SOC and links to the vehicle page", () => {
    const html = popupHtml(vehicle({ device_id: "dev 7/x", name: "Truck 7", status: "charging", alert_level: "info", soc_pct: 63.6, powertrain: "bev" }));
    expect(html).toContain("Truck 7");
    expect(html).toContain("charging");
    expect(html).toContain("Info");
    expect(html).toContain("64 %");
    expect(html).toContain("bev");
    expect(html).toContain(`href="/dashboard/vehicles/dev%207%2Fx"`);
    expect(popupHtml(vehicle({ soc_pct: null }))).toContain("<dd>—</dd>");
  });

  it("builds the vehicle page address of CONTRACT 'Dashboard'", () => {
    expect(vehicleHref("sbx-veh-001")).toBe("/dashboard/vehicles/sbx-veh-001");
  });

  it("places only vehicles with a known position on the map", () => {
    expect(hasKnownPosition({ lat: 60, lon: 25 })).toBe(true);
    expect(hasKnownPosition({ lat: 0, lon: 0 })).toBe(true);
    expect(hasKnownPosition({ lat: null, lon: 25 })).toBe(false);
    expect(hasKnownPosition({ lat: 60, lon: null })).toBe(false);
    expect(hasKnownPosition({ lat: Number.NaN, lon: 25 })).toBe(false);
    expect(hasKnownPosition({ lat: 91, lon: 25 })).toBe(false);
    expect(hasKnownPosition({ lat: 60, lon: 181 })).toBe(false);
  });
});
