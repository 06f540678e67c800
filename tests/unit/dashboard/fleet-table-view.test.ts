import { describe, expect, it } from "vitest";
import { fleetTableViewOf, viewFleetTable } from "@/lib/dashboard/fleet-table";

const row = (
  device_id: string,
  o: Partial<{ status: string; alert_level: string; powertrain: string | null; soc_pct: number | null; tas_grade: string | null; device_name: string }>,
) =>
  ({
    device_id,
    device_name: o.device_name ?? device_id,
    status: o.status ?? "parked",
    alert_level: o.alert_level ?? "none",
    powertrain: o.powertrain === undefined ? "BEV" : o.powertrain,
    soc_pct: o.soc_pct === undefined ? 50 : o.soc_pct,
    tas_grade: o.tas_grade === undefined ? "B" : o.tas_grade,
    vehicle_speed: 0,
    battery_voltage: 12.6,
    lat: 60,
    lon: 24,
    weather_temp: 0,
    ignition: 0,
    timestamp: "2026-11-24T00:00:00Z",
  }) as never;

const rows = [
  row("c", { alert_level: "critical", soc_pct: 20, tas_grade: "F", status: "driving" }),
  row("a", { alert_level: "none", soc_pct: null, tas_grade: null, powertrain: "ICE" }),
  row("b", { alert_level: "warning", soc_pct: 90, tas_grade: "A", powertrain: null }),
];
const ids = (r: { device_id: string }[]) => r.map((x) => x.device_id);

describe("fleet table view", () => {
  it("sorts by each key, unknown values last in both directions", () => {
    expect(ids(viewFleetTable(rows, { sort: "device", dir: "asc" }))).toEqual(["a", "b", "c"]);
    expect(ids(viewFleetTable(rows, { sort: "alert", dir: "desc" }))).toEqual(["c", "b", "a"]);
    expect(ids(viewFleetTable(rows, { sort: "soc", dir: "desc" }))).toEqual(["b", "c", "a"]);
    expect(ids(viewFleetTable(rows, { sort: "soc", dir: "asc" }))).toEqual(["c", "b", "a"]);
    expect(ids(viewFleetTable(rows, { sort: "tas", dir: "asc" }))).toEqual(["b", "c", "a"]);
    expect(ids(viewFleetTable(rows, { sort: "tas", dir: "desc" }))).toEqual(["c", "b", "a"]);
  });

  it("filters by status, alert level and powertrain (unknown = no powertrain)", () => {
    expect(ids(viewFleetTable(rows, { sort: "device", dir: "asc", alert: "critical" }))).toEqual(["c"]);
    expect(ids(viewFleetTable(rows, { sort: "device", dir: "asc", status: "parked" }))).toEqual(["a", "b"]);
    expect(ids(viewFleetTable(rows, { sort: "device", dir: "asc", powertrain: "unknown" }))).toEqual(["b"]);
    expect(ids(viewFleetTable(rows, { sort: "device", dir: "asc", powertrain: "ICE" }))).toEqual(["a"]);
  });

  it("reads the view from a query string, ignoring what it does not know", () => {
    expect(fleetTableViewOf({ sort: "soc", dir: "desc", alert: "warning" })).toEqual({ sort: "soc", dir: "desc", alert: "warning", status: undefined, powertrain: undefined });
    expect(fleetTableViewOf({ sort: "'; drop", dir: "sideways" })).toMatchObject({ sort: "device", dir: "asc" });
  });
});
