CREATE TABLE "score_snapshots" (
	"tenant_id" text NOT NULL,
	"kind" text NOT NULL,
	"device_id" text NOT NULL,
	"period_days" integer NOT NULL,
	"version" text NOT NULL,
	"answer" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "score_snapshots_tenant_id_kind_device_id_period_days_pk" PRIMARY KEY("tenant_id","kind","device_id","period_days")
);
--> statement-breakpoint
ALTER TABLE "score_snapshots" ADD CONSTRAINT "score_snapshots_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;