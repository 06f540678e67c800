ALTER TABLE "devices" ALTER COLUMN "asset_class" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "devices" ALTER COLUMN "asset_class" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "odometer_max_km" double precision;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "odometer_max_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_dedupe_idx" ON "alerts" USING btree ("tenant_id","device_id","dedupe_key") WHERE "alerts"."acknowledged" = false and "alerts"."dedupe_key" is not null;