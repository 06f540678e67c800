CREATE TABLE "driving_events" (
	"tenant_id" text NOT NULL,
	"device_id" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"value" double precision NOT NULL,
	"duration_s" double precision,
	"record_ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "driving_events_tenant_id_device_id_ts_kind_source_pk" PRIMARY KEY("tenant_id","device_id","ts","kind","source"),
	CONSTRAINT "driving_events_kind_check" CHECK ("driving_events"."kind" in ('harsh_braking', 'harsh_acceleration', 'harsh_cornering', 'overspeed')),
	CONSTRAINT "driving_events_source_check" CHECK ("driving_events"."source" in ('oem', 'derived'))
);
--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "events_reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "dense_speed_at" timestamp with time zone;