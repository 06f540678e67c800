CREATE TABLE "certificate_signing_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"first_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"number" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"device_id" text NOT NULL,
	"content" text NOT NULL,
	"verify_hash" text NOT NULL,
	"confidence" text NOT NULL,
	"grade" text NOT NULL,
	"generated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"signature_kid" text NOT NULL,
	"signature" text NOT NULL,
	"pdf" "bytea" NOT NULL,
	"pdf_sha256" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificates_tenant_device_idx" ON "certificates" USING btree ("tenant_id","device_id","generated_at");--> statement-breakpoint
-- A certificate never changes after it is generated (CONTRACT "Certificates and verification"): the
-- only update allowed is its revocation, once. Enforced here so no code path (or operator) can alter
-- what an auditor verifies.
CREATE FUNCTION "certificates_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."revoked_at" IS NOT NULL THEN
    RAISE EXCEPTION 'certificate % is revoked and can no longer change', OLD."number";
  END IF;
  IF (NEW."number", NEW."tenant_id", NEW."device_id", NEW."content", NEW."verify_hash", NEW."confidence", NEW."grade",
      NEW."generated_at", NEW."expires_at", NEW."signature_kid", NEW."signature", NEW."pdf", NEW."pdf_sha256", NEW."created_at")
     IS DISTINCT FROM
     (OLD."number", OLD."tenant_id", OLD."device_id", OLD."content", OLD."verify_hash", OLD."confidence", OLD."grade",
      OLD."generated_at", OLD."expires_at", OLD."signature_kid", OLD."signature", OLD."pdf", OLD."pdf_sha256", OLD."created_at") THEN
    RAISE EXCEPTION 'certificate % is immutable; only its revocation can be recorded', OLD."number";
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "certificates_immutable" BEFORE UPDATE ON "certificates" FOR EACH ROW EXECUTE FUNCTION "certificates_immutable"();
