"use client";
/**
 * The fleet map: the vehicles' latest positions coloured by alert level, clustered, with a popup per
 * vehicle, on an offline basemap (./basemap.ts) or, when a tile URL is configured for production,
 * on tiles. Optional tracks draw a polyline per vehicle (the vehicle page's "track of the last days").
 *
 * Leaflet touches `window` on import, so it is imported inside an effect: the server renders the
 * frame, the legend and the vehicle list (the text alternative), the browser adds the map.
 * Global CSS may be imported from any component in the App Router, including from node_modules.
 *
 * DOM contract for tests (CONTRACT "Dashboard"): exactly one `[data-device-id]` element per vehicle
 * with a known position inside `[data-fleet-map]`, clustered or not; see ./markers.ts for how.
 * The map's root also carries `data-map-ready="true"` once markers are drawn and
 * `data-vehicle-count="<n>"` (vehicles with a known position), so a test can wait for the map and
 * then count: `await expect(page.locator('[data-fleet-map] [data-device-id]')).toHaveCount(n)`.
 */
import "leaflet/dist/leaflet.css";
import "leaflet.markercluster/dist/MarkerCluster.css";
import "./fleet-map.css";

import type * as Leaflet from "leaflet";
import type {} from "leaflet.markercluster"; // types only: L.markerClusterGroup
import Link from "next/link";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { ALERT_STYLES, legendEntries } from "./alert-style";
import { loadBasemap, loadPlaces, MAJOR_PLACE_POPULATION, PLACE_DETAIL_ZOOM } from "./basemap";
import {
  clusterHtml,
  clusterSize,
  escapeHtml,
  type FleetMapTrack,
  type FleetMapVehicle,
  hasKnownPosition,
  MARKER_SIZE,
  markerHtml,
  markerTitle,
  popupHtml,
  vehicleHref,
} from "./markers";

interface FleetMapProps {
  vehicles: readonly FleetMapVehicle[];
  /** One polyline per vehicle (e.g. the last days on the vehicle page). */
  tracks?: readonly FleetMapTrack[];
  /** CSS height of the map; 480 px by default. A fixed height keeps the layout from shifting. */
  height?: number | string;
  /** Fit the view to the vehicles and tracks (default true); otherwise a world view. */
  fitToVehicles?: boolean;
  /** Tile URL template for production (e.g. `https://tiles.example/{z}/{x}/{y}.png`); defaults to
   * NEXT_PUBLIC_MAP_TILE_URL. Unset: the offline Natural Earth basemap, no tile request. */
  tileUrl?: string;
  /** Attribution for the tiles (required by most tile providers); defaults to NEXT_PUBLIC_MAP_TILE_ATTRIBUTION. */
  tileAttribution?: string;
  /** Accessible name of the map region. */
  ariaLabel?: string;
  className?: string;
}

type LeafletModule = typeof Leaflet;

/** A world view when there is nothing to fit to. */
const WORLD_VIEW: { center: [number, number]; zoom: number } = { center: [30, 10], zoom: 2 };
/** Do not zoom closer than a town when fitting (one vehicle would otherwise fill the map at zoom 18). */
const FIT_MAX_ZOOM = 12;
/** Pixels within which markers join a cluster (markercluster's default is 80; 50 keeps towns apart). */
const CLUSTER_RADIUS_PX = 50;
const TRACK_COLOUR = "#1e3a8a"; // blue-900: 10:1 against the basemap's land fill

export function FleetMap({
  vehicles,
  tracks,
  height = 480,
  fitToVehicles = true,
  tileUrl = process.env.NEXT_PUBLIC_MAP_TILE_URL || undefined,
  tileAttribution = process.env.NEXT_PUBLIC_MAP_TILE_ATTRIBUTION || undefined,
  ariaLabel = "Fleet map",
  className,
}: FleetMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const legendId = useId(); // unique per map: a page may hold two maps
  const [leaflet, setLeaflet] = useState<{ L: LeafletModule; map: Leaflet.Map } | null>(null);
  const [status, setStatus] = useState<"loading" | "ready" | "error">("loading");
  const placed = useMemo(() => vehicles.filter(hasKnownPosition), [vehicles]);
  const unplaced = vehicles.length - placed.length;

  // The map itself: created once per tile configuration, removed on unmount.
  useEffect(() => {
    let cancelled = false;
    let map: Leaflet.Map | null = null;
    let resize: ResizeObserver | null = null;
    (async () => {
      const mod = await import("leaflet");
      const L = (mod as { default?: LeafletModule }).default ?? mod;
      // Leaflet.markercluster is a UMD plugin that extends the global `L`.
      (window as unknown as { L: LeafletModule }).L = L;
      await import("leaflet.markercluster");
      const el = containerRef.current;
      if (cancelled || !el) return;
      // The wheel zooms only once the map has focus (click or Tab), so scrolling the page past the
      // map does not get caught by it.
      map = L.map(el, { keyboard: true, scrollWheelZoom: false, worldCopyJump: false, minZoom: 1, maxZoom: 18, zoomSnap: 0.5 });
      const m = map;
      m.on("focus", () => m.scrollWheelZoom.enable());
      m.on("blur", () => m.scrollWheelZoom.disable());
      m.setView(WORLD_VIEW.center, WORLD_VIEW.zoom);
      if (tileUrl) {
        L.tileLayer(tileUrl, { attribution: tileAttribution ?? "", maxZoom: 19 }).addTo(map);
      } else {
        // Without the basemap (a failed chunk load) the markers still go on the plain sea colour.
        const basemap = await loadBasemap().catch(() => null);
        if (cancelled) return;
        // L.GeoJSON hands its options to every polygon it creates, so path options such as the
        // renderer apply (the typings only list the GeoJSON ones): one canvas instead of ~240 SVG
        // paths, less DOM and faster panning.
        const basemapOptions: Leaflet.GeoJSONOptions & Leaflet.PathOptions = {
          interactive: false,
          renderer: L.canvas({ padding: 0.5 }),
          style: { color: "#94a3b8", weight: 0.7, fillColor: "#f8fafc", fillOpacity: 1 },
          attribution: "Natural Earth",
        };
        if (basemap) L.geoJSON(basemap, basemapOptions).addTo(map);
        // Place names, so that a cluster or a track reads against towns: the largest at every zoom, the
        // rest once zoomed in to a region. Their own pane keeps them above the land and under the vehicles.
        const places = await loadPlaces().catch(() => []);
        if (cancelled) return;
        map.createPane("fdp-places").style.zIndex = "450";
        const major = L.layerGroup();
        const minor = L.layerGroup();
        for (const p of places) {
          const label = L.marker([p.lat, p.lon], {
            pane: "fdp-places",
            interactive: false,
            keyboard: false,
            icon: L.divIcon({ className: "fdp-place", html: `<span class="fdp-place-dot"></span><span class="fdp-place-name">${escapeHtml(p.name)}</span>`, iconSize: [0, 0] }),
          });
          (p.population >= MAJOR_PLACE_POPULATION ? major : minor).addLayer(label);
        }
        major.addTo(map);
        const m2 = map;
        const showMinor = () => {
          if (m2.getZoom() >= PLACE_DETAIL_ZOOM) minor.addTo(m2);
          else minor.remove();
        };
        m2.on("zoomend", showMinor);
        showMinor();
        m2.attributionControl.addAttribution("Place names: GeoNames (CC BY 4.0)");
      }
      resize = new ResizeObserver(() => map?.invalidateSize());
      resize.observe(el);
      setLeaflet({ L, map });
    })().catch(() => {
      if (!cancelled) setStatus("error");
    });
    return () => {
      cancelled = true;
      resize?.disconnect();
      map?.remove();
      setLeaflet(null);
    };
  }, [tileUrl, tileAttribution]);

  // Markers and tracks: redrawn when the data changes.
  useEffect(() => {
    if (!leaflet) return;
    const { L, map } = leaflet;
    const vehicleOf = new WeakMap<Leaflet.Layer, FleetMapVehicle>();
    const cluster = L.markerClusterGroup({
      // Keep markers and clusters outside the view in the DOM (the DOM contract counts them all).
      removeOutsideVisibleBounds: false,
      showCoverageOnHover: false,
      maxClusterRadius: CLUSTER_RADIUS_PX,
      iconCreateFunction: (c) => {
        const members = c.getAllChildMarkers().flatMap((m) => vehicleOf.get(m) ?? []);
        const size = clusterSize(members.length);
        return L.divIcon({ html: clusterHtml(members), className: "fdp-cluster-icon", iconSize: [size, size] });
      },
    });
    for (const v of placed) {
      const marker = L.marker([v.lat, v.lon], {
        icon: L.divIcon({ html: markerHtml(v), className: "fdp-marker-icon", iconSize: [MARKER_SIZE, MARKER_SIZE] }),
        title: markerTitle(v),
        keyboard: true,
        riseOnHover: true,
      });
      marker.bindPopup(popupHtml(v));
      vehicleOf.set(marker, v);
      cluster.addLayer(marker);
    }
    const trackLayer = L.featureGroup();
    for (const t of tracks ?? []) {
      const points = t.points.filter(([lat, lon]) => hasKnownPosition({ lat, lon })).map(([lat, lon]) => L.latLng(lat, lon));
      if (points.length < 2) continue;
      const line = L.polyline(points, { color: TRACK_COLOUR, weight: 3, opacity: 0.85, interactive: false });
      line.on("add", () => line.getElement()?.setAttribute("data-track-device-id", t.device_id));
      trackLayer.addLayer(line);
    }
    trackLayer.addTo(map);
    cluster.addTo(map);

    if (fitToVehicles) {
      const bounds = L.latLngBounds(placed.map((v) => [v.lat, v.lon] as [number, number]));
      const trackBounds = trackLayer.getBounds();
      if (trackBounds.isValid()) bounds.extend(trackBounds);
      if (bounds.isValid()) map.fitBounds(bounds, { padding: [32, 32], maxZoom: FIT_MAX_ZOOM, animate: false });
      else map.setView(WORLD_VIEW.center, WORLD_VIEW.zoom, { animate: false });
    }
    // Reports that Leaflet, the external system this effect drives, has drawn: once per change of the inputs.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setStatus("ready");
    return () => {
      cluster.remove();
      trackLayer.remove();
    };
  }, [leaflet, placed, tracks, fitToVehicles]);

  return (
    <div className={className}>
      <div className="relative">
        <div
          ref={containerRef}
          data-fleet-map=""
          data-map-ready={status === "ready" ? "true" : "false"}
          data-vehicle-count={placed.length}
          role="region"
          aria-label={ariaLabel}
          aria-describedby={legendId}
          className="fdp-map z-0 w-full overflow-hidden rounded-lg border border-slate-200 bg-blue-100"
          style={{ height }}
        />
        {status !== "ready" ? (
          <div className="pointer-events-none absolute inset-0 flex items-center justify-center rounded-lg text-sm text-slate-700" aria-live="polite">
            {status === "loading" ? "Loading the map…" : "The map could not be loaded. Every vehicle is in the list below."}
          </div>
        ) : null}
      </div>

      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700">
        <span id={legendId} className="flex flex-wrap items-center gap-x-4 gap-y-1">
          <span className="font-medium">Alert level:</span>
          {legendEntries().map(({ level, style }) => (
            <span key={level} className="inline-flex items-center gap-1.5">
              <span aria-hidden="true" className="inline-flex h-5 w-5 items-center justify-center rounded-full text-xs font-bold text-white" style={{ background: style.fill }}>
                {style.glyph}
              </span>
              {style.label}
            </span>
          ))}
          <span>Numbered circles group nearby vehicles; their colour is the worst alert inside.</span>
        </span>
      </div>

      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-slate-800">
          Vehicles on the map ({placed.length}){unplaced > 0 ? `; ${unplaced} without a known position` : ""}
        </summary>
        <ul className="mt-2 divide-y divide-slate-200 rounded-md border border-slate-200 bg-white">
          {placed.map((v) => (
            <li key={v.device_id} data-vehicle-row={v.device_id} className="flex flex-wrap items-center gap-x-3 px-3 py-2">
              <Link href={vehicleHref(v.device_id)} className="font-medium text-blue-700 underline">
                {v.name}
              </Link>
              <span>{ALERT_STYLES[v.alert_level].label}</span>
              <span className="text-slate-600">{v.status}</span>
              {typeof v.soc_pct === "number" ? <span className="text-slate-600">SOC {Math.round(v.soc_pct)} %</span> : null}
              <span className="text-slate-600">
                {v.lat.toFixed(3)}, {v.lon.toFixed(3)}
              </span>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}
