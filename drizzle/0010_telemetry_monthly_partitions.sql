-- Telemetry history partitioned by month of device time (docs/performance.md "Monthly partitions").
-- The table keeps its name, columns, primary key and index; its rows move into one partition per UTC
-- month that holds data, plus this month and the next two. A reading of a month without a partition
-- lands in telemetry_default until fdp_ensure_telemetry_partition() creates that month (it moves them).
ALTER TABLE "telemetry" RENAME TO "telemetry_unpartitioned";--> statement-breakpoint
ALTER TABLE "telemetry_unpartitioned" RENAME CONSTRAINT "telemetry_tenant_id_device_id_ts_pk" TO "telemetry_unpartitioned_pk";--> statement-breakpoint
ALTER INDEX "telemetry_tenant_ts_idx" RENAME TO "telemetry_unpartitioned_tenant_ts_idx";--> statement-breakpoint
CREATE TABLE "telemetry" (LIKE "telemetry_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("ts");--> statement-breakpoint
ALTER TABLE "telemetry" ADD CONSTRAINT "telemetry_tenant_id_device_id_ts_pk" PRIMARY KEY ("tenant_id", "device_id", "ts");--> statement-breakpoint
CREATE INDEX "telemetry_tenant_ts_idx" ON "telemetry" USING btree ("tenant_id", "ts");--> statement-breakpoint
CREATE TABLE "telemetry_default" PARTITION OF "telemetry" DEFAULT;--> statement-breakpoint
CREATE FUNCTION fdp_ensure_telemetry_partition(month_start date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  m date := date_trunc('month', month_start)::date;
  part text := 'telemetry_' || to_char(m, 'YYYY_MM');
  lo timestamptz := m::timestamp AT TIME ZONE 'UTC';
  hi timestamptz := (m + interval '1 month')::timestamp AT TIME ZONE 'UTC';
BEGIN
  -- One creator at a time (several app instances); the loser finds the partition made.
  PERFORM pg_advisory_xact_lock(740202502);
  IF to_regclass(part) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE telemetry INCLUDING DEFAULTS)', part);
  -- Readings that arrived before the month had a partition wait in the default one: move them over.
  EXECUTE format('INSERT INTO %I SELECT * FROM telemetry_default WHERE ts >= %L AND ts < %L', part, lo, hi);
  EXECUTE format('DELETE FROM telemetry_default WHERE ts >= %L AND ts < %L', lo, hi);
  EXECUTE format('ALTER TABLE telemetry ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
  RETURN true;
END
$$;--> statement-breakpoint
SELECT fdp_ensure_telemetry_partition(x.m) FROM (
  SELECT DISTINCT date_trunc('month', ts AT TIME ZONE 'UTC')::date AS m FROM "telemetry_unpartitioned"
  UNION
  SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => i))::date FROM generate_series(0, 2) AS i
) x ORDER BY x.m;--> statement-breakpoint
INSERT INTO "telemetry" SELECT * FROM "telemetry_unpartitioned";--> statement-breakpoint
DROP TABLE "telemetry_unpartitioned";
