CREATE TABLE "mqtt_bridges" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"broker_url" text NOT NULL,
	"topic_filter" text NOT NULL,
	"format" text NOT NULL,
	"username" text,
	"password_env" text,
	"client_id" text NOT NULL,
	"connections" smallint DEFAULT 1 NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"state_since" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"messages_ingested" bigint DEFAULT 0 NOT NULL,
	"messages_refused" bigint DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone,
	"last_refusal" text,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mqtt_bridges_format_check" CHECK ("mqtt_bridges"."format" in ('traccar', 'tesla')),
	CONSTRAINT "mqtt_bridges_connections_check" CHECK ("mqtt_bridges"."connections" between 1 and 32),
	CONSTRAINT "mqtt_bridges_state_check" CHECK ("mqtt_bridges"."state" in ('waiting', 'connecting', 'connected', 'disconnected'))
);
--> statement-breakpoint
ALTER TABLE "mqtt_bridges" ADD CONSTRAINT "mqtt_bridges_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mqtt_bridges_tenant_idx" ON "mqtt_bridges" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mqtt_bridges_client_id_idx" ON "mqtt_bridges" USING btree ("client_id");