import { boolean, date, doublePrecision, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
// Relative imports: drizzle-kit loads this schema without the `@/` path alias.
import { tenantId, timestamptz } from "./columns";

/**
 * Daily per-device rollups of the behaviour measures (lib/telemetry/queries/behaviour-rollup-sql.ts),
 * so a 365-day score reads two rows per device instead of a year of telemetry.
 *
 * One row per device and UTC day that has telemetry or driving events. A pair of consecutive samples
 * belongs to the day of its FIRST sample (the last pair of a day reaches into the next day with
 * data). The `c_` columns are running totals from the device's first day up to and including this
 * day, so any range of whole days is one subtraction: rows(last day) − rows(day before the first).
 * The other columns describe the day alone. Which days are valid is said by `telemetry_rollup_state`.
 */
const cumulativeSums = {
  cReadings: integer("c_readings").notNull(),
  cPairs: integer("c_pairs").notNull(),
  cDays: integer("c_days").notNull(),
  cEvSamples: integer("c_ev_samples").notNull(),
  cKwCount: integer("c_kw_count").notNull(),
  cDrivingMin: doublePrecision("c_driving_min").notNull(),
  cOver130Min: doublePrecision("c_over130_min").notNull(),
  cOver160Min: doublePrecision("c_over160_min").notNull(),
  cNightMin: doublePrecision("c_night_min").notNull(),
  cTempKnownMin: doublePrecision("c_temp_known_min").notNull(),
  cNear0Min: doublePrecision("c_near0_min").notNull(),
  cColdMin: doublePrecision("c_cold_min").notNull(),
  cBelow0Min: doublePrecision("c_below0_min").notNull(),
  cVeryColdMin: doublePrecision("c_very_cold_min").notNull(),
  cMovingKm: doublePrecision("c_moving_km").notNull(),
  cOver130Km: doublePrecision("c_over130_km").notNull(),
  cOver160Km: doublePrecision("c_over160_km").notNull(),
  cDenseKm: doublePrecision("c_dense_km").notNull(),
  cDkmAll: doublePrecision("c_dkm_all").notNull(),
  cChargingMin: doublePrecision("c_charging_min").notNull(),
  cSocKnownMin: doublePrecision("c_soc_known_min").notNull(),
  cLowSocMin: doublePrecision("c_low_soc_min").notNull(),
  cChargedAcPp: doublePrecision("c_charged_ac_pp").notNull(),
  cChargedDcPp: doublePrecision("c_charged_dc_pp").notNull(),
  cChargedHpcPp: doublePrecision("c_charged_hpc_pp").notNull(),
  cConsPp: doublePrecision("c_cons_pp").notNull(),
  cConsKm: doublePrecision("c_cons_km").notNull(),
  cPtKwh: doublePrecision("c_pt_kwh").notNull(),
  cPtPp: doublePrecision("c_pt_pp").notNull(),
  cHarshOem: integer("c_harsh_oem").notNull(),
  cHarshDerived: integer("c_harsh_derived").notNull(),
  cHarshOemW: doublePrecision("c_harsh_oem_w").notNull(),
  cHarshDerivedW: doublePrecision("c_harsh_derived_w").notNull(),
  /**
   * Great-circle km of the pairs of consecutive POSITIONED readings (lib/telemetry/queries/great-circle-sql.ts):
   * a pair belongs to the day of its first position; the day's last one reaches the next position,
   * whatever day it is on. The emissions report's distance for a vehicle without odometer readings.
   */
  cGcKm: doublePrecision("c_gc_km").notNull(),
};

export const telemetryDaily = pgTable(
  "telemetry_daily",
  {
    tenantId: tenantId(),
    deviceId: text("device_id").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    ...cumulativeSums,
    /** The day's newest sample (device time); null on a day with driving events only. */
    lastTs: timestamptz("last_ts"),
    /** The day's first and last odometer readings and when. */
    odoFirst: doublePrecision("odo_first"),
    odoFirstTs: timestamptz("odo_first_ts"),
    odoLast: doublePrecision("odo_last"),
    odoLastTs: timestamptz("odo_last_ts"),
    /** Odometer km of the day's pairs from its first sample that carried a `raw_data.events` array on (OEM event coverage). */
    evCoverKm: doublePrecision("ev_cover_km").notNull(),
    /** The latest plausible state-of-health reading of the day (0 < SoH ≤ 100) and when. */
    sohLast: doublePrecision("soh_last"),
    sohLastTs: timestamptz("soh_last_ts"),
    /** Readings of the day with a position (lat and lon): a window's great-circle part ends its rolled-up days on a day with one. */
    positions: integer("positions").notNull(),
    /**
     * The day's latest resting 12 V reading (lib/telemetry/queries/resting-12v-sql.ts: a candidate with no
     * awake reading in the settle time before it, the previous day's readings included): when, the
     * voltage, and the reading's raw_data `lv_battery_chemistry` and `voltage_kind`; null when none.
     */
    rest12Ts: timestamptz("rest12_ts"),
    rest12V: doublePrecision("rest12_v"),
    rest12Chem: text("rest12_chem"),
    rest12Kind: text("rest12_kind"),
    /**
     * How many of the day's readings were settled resting 12 V candidates (0 on a day without one).
     * NOT NULL without a default on purpose (migration 0013): an instance still running code that does not
     * compute the resting readings cannot write a rollup row that would say "none that day".
     */
    rest12Settled: integer("rest12_settled").notNull(),
    /**
     * The period distance's odometer chain (lib/distance/queries/odometer-chain-sql.ts; migration 0016).
     * A reading is CHAINED when it and the device's previous odometer reading (any day) are valid
     * (0 ≤ km < ∞) and the step between them is ≥ 0 and not an implausible jump (the period distance's
     * own jump rule). `odo_readings`: the day's odometer readings (not null); `c_odo_readings` their
     * running total from the device's first day; `odo_joined`: the day's first reading is chained;
     * `odo_chain_from`: when every reading of the day but its first is chained (and all are valid), the
     * first day of the chain the day belongs to (the latest earlier-or-equal day whose first reading is
     * not chained, or whose previous odometer day is not in a chain); null otherwise and on a day without
     * odometer readings. NOT NULL without a default (as `rest12_settled`): code that does not compute
     * them cannot write a row.
     */
    odoReadings: integer("odo_readings").notNull(),
    cOdoReadings: integer("c_odo_readings").notNull(),
    odoJoined: boolean("odo_joined").notNull(),
    odoChainFrom: date("odo_chain_from", { mode: "string" }),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.deviceId, t.day] })],
);

/**
 * Which rollups of a device are valid: every day before `clean_before`, computed with the device's
 * `battery_kwh` equal to `rolled_battery_kwh` (consumption pairs depend on it). An ingest lowers
 * `clean_before` to the first day it wrote; a refresh recomputes from there and raises it to today.
 * The reads rely on it both ways: a valid day's row holds that day's telemetry, and a valid day without a
 * row has none (the great-circle tail starts after valid days without a position: `validRollupsEnd`).
 * So telemetry is written only where `clean_before` is lowered with it (lib/ingest/store-batch.ts), or
 * the state marked stale (`markTelemetryRollupsStale`: the seed, the benchmarks).
 */
export const telemetryRollupState = pgTable(
  "telemetry_rollup_state",
  {
    tenantId: tenantId(),
    deviceId: text("device_id").notNull(),
    cleanBefore: date("clean_before", { mode: "string" }).notNull(),
    rolledBatteryKwh: doublePrecision("rolled_battery_kwh"),
    refreshedAt: timestamptz("refreshed_at"),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.deviceId] })],
);
