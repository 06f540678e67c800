-- Certificate signing keys get a lifecycle (CONTRACT "Evidence and trust"): status, validity window,
-- revocation, and the private halves stored encrypted so that every instance signs with the one active
-- key (lib/certificates/signing/signing-keys.ts). Certificates get their JWS.
ALTER TABLE "certificate_signing_keys" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD COLUMN "valid_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD COLUMN "valid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD COLUMN "revocation_reason" text;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD COLUMN "private_key_enc" text;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD COLUMN "pdf_private_key_enc" text;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD COLUMN "pdf_certificate_pem" text;--> statement-breakpoint
-- Keys from before: each was valid from its first use, or from its first certificate's generated_at
-- when that is earlier (first_used_at was the insert's database time, after the request's clock read,
-- and generated_at is floored to the second). The newest stays active (its private half is
-- adopted from FDP_CERT_SIGNING_KEY or the old key file at the next signature); every older one is
-- retired now, not at its successor's first use: instances with different keys used to sign side by
-- side, and each of their certificates must keep verifying.
UPDATE "certificate_signing_keys" SET
  "valid_from" = LEAST(date_trunc('second', "first_used_at"), (SELECT min(c."generated_at") FROM "certificates" c WHERE c."signature_kid" = "certificate_signing_keys"."kid")),
  "status" = CASE WHEN "kid" = (SELECT "kid" FROM "certificate_signing_keys" ORDER BY "first_used_at" DESC, "kid" DESC LIMIT 1) THEN 'active' ELSE 'retired' END,
  "valid_until" = CASE WHEN "kid" = (SELECT "kid" FROM "certificate_signing_keys" ORDER BY "first_used_at" DESC, "kid" DESC LIMIT 1) THEN NULL ELSE now() END;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ALTER COLUMN "status" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ALTER COLUMN "valid_from" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "certificates" ADD COLUMN "jws" text;--> statement-breakpoint
CREATE UNIQUE INDEX "certificate_signing_keys_one_active" ON "certificate_signing_keys" USING btree ("status") WHERE status = 'active';--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD CONSTRAINT "certificate_signing_keys_status" CHECK (status in ('active', 'retired', 'revoked'));--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD CONSTRAINT "certificate_signing_keys_active_open" CHECK ((status = 'active') = (valid_until is null));--> statement-breakpoint
ALTER TABLE "certificate_signing_keys" ADD CONSTRAINT "certificate_signing_keys_revoked_reason" CHECK ((status = 'revoked') = (revoked_at is not null and revocation_reason is not null));
