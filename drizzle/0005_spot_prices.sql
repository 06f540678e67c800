CREATE TABLE "spot_price_cache" (
	"source_key" text PRIMARY KEY NOT NULL,
	"series" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
