-- The daily rollups gain each day's odometer chain (lib/distance/queries/odometer-chain-sql.ts), so the
-- period distance reads whole days of plausible increases from the rollups and raw telemetry only where
-- a reading breaks the chain. Rows built before this migration do not have it: they are dropped and
-- rebuilt by each tenant's next refresh (after its next ingest, or `npm run admin -- rollups:refresh`).
-- Reads take raw telemetry until then, which is right, only slower. `odo_readings`, `c_odo_readings` and
-- `odo_joined` have no default, so an instance still running the previous code (a rolling deploy) cannot
-- write rows without them: its refresh fails and is logged, and its answers read raw.
TRUNCATE TABLE "telemetry_daily";--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "odo_readings" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "c_odo_readings" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "odo_joined" boolean NOT NULL;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "odo_chain_from" date;--> statement-breakpoint
-- Every device's rollups are stale from its first day (as in 0012 and 0013): a state row saying that days
-- are rolled up while the table holds no rows for them would make those days read as empty.
INSERT INTO "telemetry_rollup_state" ("tenant_id", "device_id", "clean_before")
  SELECT "tenant_id", "device_id", '-infinity'::date FROM "devices"
  ON CONFLICT ("tenant_id", "device_id") DO UPDATE SET "clean_before" = '-infinity'::date;
