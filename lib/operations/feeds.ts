import { z } from "zod";
import { adaptFeedDocuments } from "@/lib/ingest/adapters/adapt-feed";
import type { FeedFormat } from "@/lib/vocabulary/feeds";
import { ingestTelemetry, verifyIngestRequest } from "@/lib/ingest/ingest-telemetry";
import { SIGNATURE_HEADER } from "@/lib/ingest/verify-signature";
import { INGEST_MAX_BYTES, INGEST_MAX_VEHICLES, ingestResponseSchema } from "@/lib/schemas/ingest";
import { defineOperation } from "./define-operation";

/**
 * The feeds in their own formats (CONTRACT "Feeds", docs/feeds.md): `POST /oem/ingest/traccar` and
 * `POST /oem/ingest/tesla`. The body is the source's documents as they come, one or a JSON array of
 * them; its adapter (lib/ingest/adapters/) makes each an FDP ingest record, and from there the records
 * take endpoint 16's path (limits, signatures, validation, detectors, read-your-writes, answer).
 */

/** JSON Schema of one source document, for the OpenAPI document (the adapter is what validates). */
const DOCUMENT_SCHEMAS: Record<FeedFormat, object> = {
  traccar: {
    type: "object",
    description: "Traccar's JSON position forwarding (`forward.type=json`): org.traccar.model.Position and Device as Traccar serialises them.",
    required: ["position", "device"],
    properties: {
      position: {
        type: "object",
        properties: {
          fixTime: { type: "string", format: "date-time", description: "The record's time (else `deviceTime`; one of them is required)." },
          deviceTime: { type: "string", format: "date-time", description: "The record's time when `fixTime` is absent or the position is `outdated`." },
          valid: { type: "boolean", description: "False: no GPS fix; position and speed are then not reported." },
          outdated: { type: "boolean", description: "True: the last known position repeated; position and speed are then not reported." },
          latitude: { type: "number" },
          longitude: { type: "number" },
          speed: { type: "number", description: "Knots (× 1.852 = km/h)." },
          attributes: {
            type: "object",
            description: "Read: `odometer` (else `totalDistance`, metres), `power` (V), `hours` (ms), `ignition`, `dtcs`, `vin`. Every attribute is kept in `raw_data.traccar`.",
            additionalProperties: true,
          },
        },
        additionalProperties: true,
      },
      device: {
        type: "object",
        required: ["uniqueId"],
        properties: {
          uniqueId: { type: ["string", "integer"], description: "The device id is `traccar-<uniqueId>`." },
          model: { type: ["string", "null"], description: "Master data: the vehicle's model." },
          category: { type: ["string", "null"], description: "Master data: `car`, `van`, `pickup`, `truck`, … (docs/feeds.md)." },
        },
        additionalProperties: true,
      },
    },
    additionalProperties: true,
  },
  tesla: {
    type: "object",
    description: "Tesla Fleet Telemetry's `Payload` (vehicle_data.proto) in protobuf JSON.",
    required: ["vin", "data"],
    properties: {
      vin: { type: "string", description: "The device id is `oem-<vin>`." },
      createdAt: { type: "string", format: "date-time", description: "The record's time, required (or under the proto name `created_at`)." },
      isResend: { type: "boolean" },
      data: {
        type: "array",
        items: {
          type: "object",
          required: ["key", "value"],
          properties: {
            key: {
              type: "string",
              description:
                "A `Field` of vehicle_data.proto. Read: VehicleSpeed (mph), Odometer (miles), Soc (else BatteryLevel), Location, DetailedChargeState (else ChargeState), DCChargingPower, ACChargingPower, OutsideTemp, CarType. Every key is kept in `raw_data.tesla`.",
            },
            value: {
              type: "object",
              description:
                "One member of `Value`: stringValue, doubleValue, floatValue, intValue, longValue, booleanValue, locationValue {latitude, longitude}, chargingValue, detailedChargeStateValue, carTypeValue, …, or `invalid: true` (not reported). Numbers sent as strings are read as numbers.",
              additionalProperties: true,
            },
          },
        },
      },
    },
    additionalProperties: true,
  },
};

/**
 * The body of a feed: adapted and validated as a whole by the feed's adapter, each refusal at its place
 * in what the source sent (zod paths below this member are the body's own: lib/validation.ts).
 */
const feedDocuments = (format: FeedFormat) =>
  z
    .unknown()
    .transform((body, ctx) => {
      const adapted = adaptFeedDocuments(format, body, new Date());
      if (adapted.ok) return adapted.body;
      for (const issue of adapted.issues) ctx.addIssue({ code: "custom", path: [...issue.path], message: issue.message });
      return z.NEVER;
    })
    .meta({
      description: `One document, or a JSON array of 1 to ${INGEST_MAX_VEHICLES}.`,
      anyOf: [DOCUMENT_SCHEMAS[format], { type: "array", items: DOCUMENT_SCHEMAS[format], minItems: 1, maxItems: INGEST_MAX_VEHICLES }],
    });

const FEED_WORDS: Record<FeedFormat, { summary: string; source: string }> = {
  traccar: { summary: "Traccar position forwarding: positions in Traccar's own JSON", source: "Traccar `{position, device}` documents" },
  tesla: { summary: "Tesla Fleet Telemetry: payloads in protobuf JSON", source: "Tesla Fleet Telemetry payloads" },
};

function feedOperation<F extends FeedFormat, I extends string>(format: F, id: I, requestExample: unknown) {
  return defineOperation({
    id,
    method: "POST",
    path: `/oem/ingest/${format}`,
    access: { scope: "ingest:write" },
    tag: "Ingest",
    summary: FEED_WORDS[format].summary,
    description:
      `${FEED_WORDS[format].source} as the source sends them, one or a JSON array of them; each becomes one telemetry record (mapping and units: docs/feeds.md). ` +
      `At most ${INGEST_MAX_VEHICLES} documents and ${INGEST_MAX_BYTES / 1048576} MiB (413 beyond). ` +
      "Everything else is endpoint 16's: the whole body is validated first (a 400 names each field as the source sent it, e.g. `position.fixTime` or `2.data.0.value.stringValue`, and nothing is stored), " +
      "the header signatures (`X-FDP-Signature`), the answer, read-your-writes, and the sandbox's mock acceptance.",
    input: { body: z.object({ documents: feedDocuments(format) }) },
    bodyMember: "documents",
    output: ingestResponseSchema,
    maxBodyBytes: INGEST_MAX_BYTES,
    errors: { 413: `More than ${INGEST_MAX_VEHICLES} documents or ${INGEST_MAX_BYTES / 1048576} MiB.` },
    verifyRequest: ({ ctx, rawBody, body, headers }) =>
      verifyIngestRequest({
        ctx,
        rawBody,
        records: { count: Array.isArray(body.documents) ? body.documents.length : 1, noun: "documents" },
        // The body-field signature is endpoint 16's (a member of its object body); a feed's body is the source's.
        body: {},
        signatureHeader: headers.get(SIGNATURE_HEADER),
      }),
    requestExample: { body: { documents: requestExample } },
    verb: ({ ctx, input }) => ingestTelemetry({ ctx, input: input.documents }),
  });
}

export const ingestTraccarOperation = feedOperation("traccar", "ingestTraccarPositions", {
  position: {
    deviceId: 17,
    protocol: "teltonika",
    serverTime: "2026-11-21T08:00:03.000+00:00",
    deviceTime: "2026-11-21T08:00:00.000+00:00",
    fixTime: "2026-11-21T08:00:00.000+00:00",
    outdated: false,
    valid: true,
    latitude: 60.1699,
    longitude: 24.9384,
    speed: 27,
    course: 181,
    attributes: { ignition: true, motion: true, power: 13.9, odometer: 18250400, hours: 4320000000, fuel: 31.5, batteryLevel: 100 },
  },
  device: { id: 17, name: "Van 12 (ABC-123)", uniqueId: "356307042441013", model: "Transit Custom", category: "van" },
});

export const ingestTeslaOperation = feedOperation("tesla", "ingestTeslaTelemetry", {
  data: [
    { key: "VehicleSpeed", value: { stringValue: "40.0" } },
    { key: "Odometer", value: { stringValue: "11340.25" } },
    { key: "Soc", value: { stringValue: "71.3" } },
    { key: "Location", value: { locationValue: { latitude: 59.3293, longitude: 18.0686 } } },
    { key: "DetailedChargeState", value: { detailedChargeStateValue: "DetailedChargeStateDisconnected" } },
    { key: "CarType", value: { carTypeValue: "CarTypeModel3" } },
  ],
  createdAt: "2026-11-21T08:00:00.123Z",
  vin: "5YJ3E7EB2KF123456",
});
