import type { AlertLevel, FleetStatus } from "@/lib/fleet/derive-fleet-state";

/**
 * Status and alert level as words in a coloured pill: the colour helps, the word carries the meaning
 * (never colour alone). Text colours are the 800 shades on 100 backgrounds (contrast above 4.5:1).
 */
const STATUS_STYLE: Record<FleetStatus, string> = {
  driving: "bg-emerald-100 text-emerald-800",
  idle: "bg-amber-100 text-amber-800",
  parked: "bg-slate-100 text-slate-800",
  charging: "bg-sky-100 text-sky-800",
  offline: "bg-zinc-200 text-zinc-800",
};

const ALERT_STYLE: Record<AlertLevel, string> = {
  none: "bg-slate-100 text-slate-700",
  info: "bg-sky-100 text-sky-800",
  warning: "bg-amber-100 text-amber-900",
  critical: "bg-red-100 text-red-800",
};

const pill = "inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold first-letter:uppercase";

export function StatusBadge({ status }: { status: FleetStatus }) {
  return <span className={`${pill} ${STATUS_STYLE[status]}`}>{status}</span>;
}

export function AlertLevelBadge({ level }: { level: AlertLevel }) {
  return <span className={`${pill} ${ALERT_STYLE[level]}`}>{level === "none" ? "no alerts" : level}</span>;
}
