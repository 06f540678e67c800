-- The daily rollups gain each day's latest resting 12 V reading (lib/scores/queries/resting-12v-sql.ts).
-- Rows built before this migration do not have it, and a missing one would read as "none that day":
-- they are dropped and rebuilt by each tenant's next refresh (after its next ingest, or
-- `npm run admin -- rollups:refresh`). Scores read raw telemetry until then, which is right, only slower.
-- `rest12_settled` has no default, so an instance still running the previous code (a rolling deploy)
-- cannot write rows without the new columns: its refresh fails and is logged, and its answers read raw.
TRUNCATE TABLE "telemetry_daily";--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "rest12_ts" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "rest12_v" double precision;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "rest12_chem" text;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "rest12_kind" text;--> statement-breakpoint
ALTER TABLE "telemetry_daily" ADD COLUMN "rest12_settled" integer NOT NULL;--> statement-breakpoint
-- Every device's rollups are stale from its first day (as in 0012): a state row saying that days are
-- rolled up while the table holds no rows for them would make those days read as empty.
INSERT INTO "telemetry_rollup_state" ("tenant_id", "device_id", "clean_before")
  SELECT "tenant_id", "device_id", '-infinity'::date FROM "devices"
  ON CONFLICT ("tenant_id", "device_id") DO UPDATE SET "clean_before" = '-infinity'::date;
