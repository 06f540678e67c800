CREATE TABLE "ingest_signatures" (
	"tenant_id" text NOT NULL,
	"signature" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ingest_signatures_tenant_id_signature_pk" PRIMARY KEY("tenant_id","signature")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "require_timestamped_signature" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ingest_signatures" ADD CONSTRAINT "ingest_signatures_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingest_signatures_expiry_idx" ON "ingest_signatures" USING btree ("tenant_id","expires_at");