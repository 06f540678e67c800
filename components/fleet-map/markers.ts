/**
 * The HTML inside the map's markers, cluster icons and popups. Pure string builders (every value
 * escaped), so the DOM contract can be unit-tested without a browser.
 *
 * DOM contract (CONTRACT "Dashboard": "one marker per vehicle with a known position, each an element
 * carrying data-device-id"): the map holds exactly one `[data-device-id]` element per vehicle with a
 * known position, whether or not it is clustered:
 * - a vehicle drawn on its own: the marker's glyph `<span class="fdp-marker" data-device-id=…>`;
 * - a vehicle inside a cluster: a `hidden` `<span data-device-id=…>` inside that cluster's icon
 *   (Leaflet.markercluster removes clustered markers from the DOM, so the cluster carries them).
 * The map is created with `removeOutsideVisibleBounds: false`, so markers and clusters outside the
 * view stay in the DOM too. The text list of vehicles under the map marks its rows with
 * `data-vehicle-row` (not `data-device-id`), so `[data-device-id]` counts map markers only.
 */
import type { AlertLevel } from "@/lib/vocabulary/alerts";
import { ALERT_STYLES, worstAlertLevel } from "./alert-style";

export interface FleetMapVehicle {
  device_id: string;
  name: string;
  lat: number | null;
  lon: number | null;
  alert_level: AlertLevel;
  status: string;
  powertrain?: string | null;
  soc_pct?: number | null;
}

export interface FleetMapTrack {
  device_id: string;
  /** [lat, lon, ts] in time order; ts is an ISO 8601 date-time. */
  points: [number, number, string][];
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** A position is known when both coordinates are finite and on the globe (the API sends null when unknown). */
export function hasKnownPosition<T extends { lat: number | null; lon: number | null }>(v: T): v is T & { lat: number; lon: number } {
  return typeof v.lat === "number" && typeof v.lon === "number" && Number.isFinite(v.lat) && Number.isFinite(v.lon) && Math.abs(v.lat) <= 90 && Math.abs(v.lon) <= 180;
}

/** The page of a vehicle (CONTRACT "Dashboard"). */
export function vehicleHref(deviceId: string): string {
  return `/dashboard/vehicles/${encodeURIComponent(deviceId)}`;
}

/** Size of a single vehicle's marker, px (24 px: WCAG 2.2 SC 2.5.8 minimum target size). */
export const MARKER_SIZE = 24;

export function markerHtml(v: FleetMapVehicle): string {
  const style = ALERT_STYLES[v.alert_level];
  return (
    `<span class="fdp-marker" data-device-id="${escapeHtml(v.device_id)}" data-alert-level="${v.alert_level}"` +
    ` style="background:${style.fill}" aria-hidden="true">${escapeHtml(style.glyph)}</span>`
  );
}

/** Accessible name of a marker (Leaflet puts it in `title`; the marker is a keyboard-focusable button). */
export function markerTitle(v: FleetMapVehicle): string {
  return `${v.name}: ${ALERT_STYLES[v.alert_level].label.toLowerCase()}, ${v.status}`;
}

/** Cluster icon size grows with the count so larger groups read as larger (px). */
export function clusterSize(count: number): number {
  return count < 10 ? 34 : count < 100 ? 40 : 48;
}

/**
 * A cluster icon: the count on the worst alert level's colour, the level in words for screen
 * readers, and one hidden `[data-device-id]` per vehicle inside (see the DOM contract above).
 */
export function clusterHtml(vehicles: readonly FleetMapVehicle[]): string {
  const worst = worstAlertLevel(vehicles.map((v) => v.alert_level));
  const style = ALERT_STYLES[worst];
  const members = vehicles.map((v) => `<span hidden data-device-id="${escapeHtml(v.device_id)}" data-alert-level="${v.alert_level}"></span>`).join("");
  return (
    `<span class="fdp-cluster" data-alert-level="${worst}" style="background:${style.fill}">` +
    `<span aria-hidden="true">${vehicles.length}</span>` +
    `<span class="fdp-sr-only">${vehicles.length} vehicles, worst alert: ${escapeHtml(style.label.toLowerCase())}. Activate to zoom in.</span>` +
    `</span>${members}`
  );
}

/** Popup: name, status, alert level, SOC, powertrain, link to the vehicle page. */
export function popupHtml(v: FleetMapVehicle): string {
  const style = ALERT_STYLES[v.alert_level];
  const rows: [string, string][] = [
    ["Status", v.status],
    ["Alert level", style.label],
    ["State of charge", typeof v.soc_pct === "number" && Number.isFinite(v.soc_pct) ? `${Math.round(v.soc_pct)} %` : "—"],
  ];
  if (v.powertrain) rows.push(["Powertrain", v.powertrain]);
  return (
    `<div class="fdp-popup" data-popup-device-id="${escapeHtml(v.device_id)}">` +
    `<p class="fdp-popup-title">${escapeHtml(v.name)}</p>` +
    `<dl>${rows.map(([k, val]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(val)}</dd>`).join("")}</dl>` +
    `<a href="${escapeHtml(vehicleHref(v.device_id))}">Open vehicle page</a>` +
    `</div>`
  );
}
