import { ValidationError } from "@/lib/errors";
import { parseIJson } from "@/lib/json/parse-i-json";
import { adaptFeedDocuments, type FeedBody } from "@/lib/ingest/adapters/adapt-feed";
import { INGEST_MAX_VEHICLES } from "@/lib/schemas/ingest";
import type { FeedFormat } from "@/lib/vocabulary/feeds";

/**
 * The largest MQTT message a bridge takes (announced to the broker as the MQTT 5 Maximum Packet Size, so
 * the broker never sends a larger one; MQTT 5.0 §3.1.2.11.4). A position or a telemetry payload is a few
 * KiB; an array of them may be larger, and a bridge holds at most a few dozen messages at once.
 */
export const MQTT_MAX_MESSAGE_BYTES = 1024 * 1024;

/** How many of a refusal's problems the bridge's state keeps. */
const REASONS_KEPT = 5;

/**
 * One MQTT message of a bridge → the records to ingest, by the same rules as the body of
 * `POST /oem/ingest/{format}`: I-JSON holding one document or an array of at most INGEST_MAX_VEHICLES,
 * each adapted and validated (lib/ingest/adapters/). A message that can never be stored is refused, with
 * a reason that names fields and rules, never the message's values (it is shown on the dashboard and
 * logged). Never throws.
 */
export function adaptMqttMessage(format: FeedFormat, payload: Uint8Array, now: Date): { ok: true; body: FeedBody } | { ok: false; reason: string } {
  if (payload.byteLength > MQTT_MAX_MESSAGE_BYTES) return { ok: false, reason: `The message is larger than ${MQTT_MAX_MESSAGE_BYTES} bytes.` };
  let body: unknown;
  try {
    body = parseIJson(payload);
  } catch (err) {
    if (err instanceof ValidationError) return { ok: false, reason: err.message.replace("request body", "message") };
    return { ok: false, reason: "The message is not JSON." };
  }
  if (Array.isArray(body) && body.length > INGEST_MAX_VEHICLES) {
    return { ok: false, reason: `At most ${INGEST_MAX_VEHICLES} documents per message; this one has ${body.length}.` };
  }
  const adapted = adaptFeedDocuments(format, body, now);
  if (adapted.ok) return adapted;
  const shown = adapted.issues.slice(0, REASONS_KEPT).map((issue) => `${issue.path.length === 0 ? "(message)" : issue.path.join(".")}: ${issue.message}`);
  const more = adapted.issues.length > REASONS_KEPT ? ` (and ${adapted.issues.length - REASONS_KEPT} more)` : "";
  return { ok: false, reason: `Not a ${format} message: ${shown.join("; ")}${more}.` };
}
