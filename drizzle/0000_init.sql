CREATE TABLE "tenants" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"entitlements" text[] DEFAULT '{}' NOT NULL,
	"rate_limit_per_min" integer,
	"ingest_secret" text NOT NULL,
	"require_signed_ingest" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"name" text,
	"key_hash" text NOT NULL,
	"display_prefix" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"tenant_id" text NOT NULL,
	"device_id" text NOT NULL,
	"name" text NOT NULL,
	"vin" text,
	"make" text,
	"model" text,
	"year" integer,
	"powertrain" text,
	"powertrain_source" text,
	"fuel_type" text,
	"battery_kwh" double precision,
	"original_price_eur" double precision,
	"contract_km" integer,
	"lease_start" date,
	"lease_months" integer,
	"asset_class" text DEFAULT 'passenger_car' NOT NULL,
	"master_data_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_tenant_id_device_id_pk" PRIMARY KEY("tenant_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "fleet_snapshot" (
	"tenant_id" text NOT NULL,
	"device_id" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"speed_kmh" double precision,
	"battery_voltage" double precision,
	"soc_pct" double precision,
	"soh_pct" double precision,
	"odometer_km" double precision,
	"charging_status" text,
	"charging_power_kw" double precision,
	"fuel_level_pct" double precision,
	"engine_hours" double precision,
	"dtc_codes" text[],
	"ignition" smallint,
	"weather_temp" double precision,
	"raw_data" jsonb,
	CONSTRAINT "fleet_snapshot_tenant_id_device_id_pk" PRIMARY KEY("tenant_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "telemetry" (
	"tenant_id" text NOT NULL,
	"device_id" text NOT NULL,
	"ts" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lat" double precision,
	"lon" double precision,
	"speed_kmh" double precision,
	"battery_voltage" double precision,
	"soc_pct" double precision,
	"soh_pct" double precision,
	"odometer_km" double precision,
	"charging_status" text,
	"charging_power_kw" double precision,
	"fuel_level_pct" double precision,
	"engine_hours" double precision,
	"dtc_codes" text[],
	"ignition" smallint,
	"weather_temp" double precision,
	"raw_data" jsonb,
	CONSTRAINT "telemetry_tenant_id_device_id_ts_pk" PRIMARY KEY("tenant_id","device_id","ts")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"device_id" text NOT NULL,
	"agent" text NOT NULL,
	"severity" text NOT NULL,
	"prediction" text NOT NULL,
	"confidence" double precision NOT NULL,
	"technical_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"acknowledged" boolean DEFAULT false NOT NULL,
	"acknowledged_by" text,
	"acknowledged_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"points" integer NOT NULL,
	"expire" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_tenant_idx" ON "api_keys" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "users_tenant_idx" ON "users" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "telemetry_tenant_ts_idx" ON "telemetry" USING btree ("tenant_id","ts");--> statement-breakpoint
CREATE INDEX "alerts_tenant_created_idx" ON "alerts" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "alerts_tenant_device_idx" ON "alerts" USING btree ("tenant_id","device_id");