ALTER TABLE "alerts" ADD COLUMN "dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "dismissed_by" text;--> statement-breakpoint
ALTER TABLE "alerts" ADD COLUMN "dismissal_reason" text;