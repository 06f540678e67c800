-- No statement reads a tenant's telemetry by time alone: every read is one device's range of the primary
-- key (tenant_id, device_id, ts). Without planner statistics (a new month's partition, a new tenant, PGlite,
-- which never runs autovacuum) the planner took this index for the cheaper way into a device's range and
-- read the tenant's whole period once per device; every insert also paid for it (docs/performance.md).
DROP INDEX "telemetry_tenant_ts_idx";
