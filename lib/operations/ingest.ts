import { ingestTelemetry, verifyIngestRequest } from "@/lib/ingest/ingest-telemetry";
import { SIGNATURE_HEADER } from "@/lib/ingest/verify-signature";
import { z } from "zod";
import { INGEST_MAX_BYTES, INGEST_MAX_VEHICLES, ingestBodySchema, ingestResponseSchema } from "@/lib/schemas/ingest";
import { fastIngestBody } from "@/lib/schemas/ingest-fast-path";
import { defineOperation } from "./define-operation";

/** Endpoint 16. */
const operation = defineOperation({
  id: "ingestOemTelemetry",
  method: "POST",
  path: "/oem/ingest",
  access: { scope: "ingest:write" },
  tag: "Ingest",
  summary: "Bulk OEM telemetry ingest: upsert devices, history and fleet snapshot",
  description:
    `At most ${INGEST_MAX_VEHICLES} records and ${INGEST_MAX_BYTES / 1048576} MiB (413 beyond). ` +
    "The whole payload is validated first; any invalid record gives 400 naming its index and field, and nothing is stored. " +
    "Optional signatures with the tenant's ingest secret: header `X-FDP-Signature: t=<unix seconds>,sha256=<hex>` over " +
    "`<t>.<raw body>` (recommended: a timestamp more than 300 s from the server clock is refused, and each signature is accepted once), " +
    "the older `X-FDP-Signature: sha256=<hex>` over the raw body, or `hmac_signature` over the RFC 8785 canonical JSON of the body " +
    "without it; a signature that does not verify, a stale timestamp or a reused signature gives 401 `invalid_signature`. " +
    "A tenant may require signatures, or timestamped ones (`tenant:update --require-signed-ingest true|timestamped`). Re-sending a payload changes nothing; an older record never overwrites a newer snapshot. " +
    "With the sandbox key the payload is validated and nothing is stored.",
  input: { body: ingestBodySchema },
  output: ingestResponseSchema,
  maxBodyBytes: INGEST_MAX_BYTES,
  errors: { 413: `More than ${INGEST_MAX_VEHICLES} records or ${INGEST_MAX_BYTES / 1048576} MiB.` },
  verifyRequest: ({ ctx, rawBody, body, headers }) =>
    verifyIngestRequest({
      ctx,
      rawBody,
      records: { count: Array.isArray(body.vehicles) ? body.vehicles.length : 0, noun: "vehicle records" },
      body,
      signatureHeader: headers.get(SIGNATURE_HEADER),
    }),
  requestExample: {
    body: {
      source: "oem-connect",
      vehicles: [
        {
          vin: "YV1XZ16K7P1234567",
          timestamp: "2026-11-21T08:00:00Z",
          speed_kmh: 54,
          soc_percent: 71,
          odometer_km: 18250.4,
          lat: 60.17,
          lon: 24.94,
          raw_data: {
            ambient_temp_c: -6,
            ignition: true,
            vehicle: { make: "Volvo", model: "EX30", powertrain: "BEV", battery_kwh: 69, lease_start: "2025-03-01", lease_months: 36 },
            events: [{ kind: "harsh_braking", ts: "2026-11-21T07:58:12Z", value: 0.42, duration_s: 1.5 }],
          },
        },
      ],
    },
  },
  verb: ingestTelemetry,
});

/**
 * The ingest validates its input with the fast path (lib/schemas/ingest-fast-path.ts) and lets zod's
 * parse of the same schema decide whatever the fast path does not accept, so every refusal and its
 * wording are zod's. zod's `withParser` installs it on a copy of the input schema; the schemas the
 * OpenAPI document describes (`input.body`) stay as they are.
 */
export const ingestOperation = {
  ...operation,
  inputSchema: z.withParser(operation.inputSchema, (input) => fastIngestBody(input) ?? z.INVALID),
};
