DROP INDEX "alerts_open_dedupe_idx";--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "occurrences" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "first_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "worst_value" double precision;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "latest_value" double precision;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_dedupe_idx" ON "alerts" USING btree ("tenant_id","device_id","dedupe_key","severity") WHERE "alerts"."acknowledged" = false and "alerts"."dedupe_key" is not null;--> statement-breakpoint
-- Alerts raised before the lifecycle: one occurrence, seen when created (created_at is the evidence's device time).
UPDATE "alerts" SET "first_seen_at" = "created_at", "last_seen_at" = "created_at" WHERE "first_seen_at" IS NULL;
