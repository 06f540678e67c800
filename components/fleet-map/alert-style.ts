/**
 * How the fleet map shows an `alert_level` (CONTRACT: "none" | "info" | "warning" | "critical",
 * the vocabulary of lib/vocabulary/alerts.ts): a colour, a glyph and words. Pure, so the legend,
 * the markers, the cluster icons and the tests all read the same table.
 *
 * Colour is never the only signal (WCAG 2.2 SC 1.4.1 "Use of Color"): each level also has a glyph
 * inside the marker and words in the legend, the popup and the vehicle list. Every fill carries
 * white text at a contrast ratio of at least 4.5:1 (SC 1.4.3; the ratios are computed by
 * `contrastRatio` below and asserted in tests/unit/fleet-map/alert-style.test.ts), which also
 * exceeds the 3:1 asked of graphical objects (SC 1.4.11). Fills are Tailwind's 700 shades.
 */
import { ALERT_LEVELS, type AlertLevel } from "@/lib/vocabulary/alerts";

interface AlertStyle {
  /** Marker fill; white glyph on top. */
  fill: string;
  /** Short mark inside the marker, so the level reads without colour. */
  glyph: string;
  /** Words for the legend, the popup and the list. */
  label: string;
}

export const ALERT_STYLES: Readonly<Record<AlertLevel, AlertStyle>> = {
  none: { fill: "#15803d", glyph: "✓", label: "No open alert" }, // green-700
  info: { fill: "#1d4ed8", glyph: "i", label: "Info" }, // blue-700
  warning: { fill: "#b45309", glyph: "!", label: "Warning" }, // amber-700
  critical: { fill: "#b91c1c", glyph: "‼", label: "Critical" }, // red-700
};

/** Rank of a level, higher is worse ("none" is 0). */
export function alertLevelRank(level: AlertLevel): number {
  return ALERT_LEVELS.indexOf(level);
}

/**
 * The worst level among some vehicles (a cluster shows the worst alert inside it, so a critical
 * vehicle is never hidden behind a green cluster). An empty set is "none".
 */
export function worstAlertLevel(levels: Iterable<AlertLevel>): AlertLevel {
  let worst: AlertLevel = "none";
  for (const level of levels) if (alertLevelRank(level) > alertLevelRank(worst)) worst = level;
  return worst;
}

/** Legend rows, worst first (the order a fleet manager scans for). */
export function legendEntries(): { level: AlertLevel; style: AlertStyle }[] {
  return [...ALERT_LEVELS].reverse().map((level) => ({ level, style: ALERT_STYLES[level] }));
}

/** WCAG 2.x relative luminance of a `#rrggbb` colour. */
function relativeLuminance(hex: string): number {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => {
    const c = parseInt(h!, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.x contrast ratio between two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
