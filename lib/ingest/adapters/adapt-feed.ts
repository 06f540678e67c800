import type { z } from "zod";
import { INGEST_MAX_FUTURE_SKEW_MS, ingestRecordSchema } from "@/lib/schemas/ingest";
import { fastIngestRecord } from "@/lib/schemas/ingest-fast-path";
import type { FeedFormat } from "@/lib/vocabulary/feeds";
import { type Adapted, type FeedIngestRecord, type SourceIssue, type SourcePath, sourceOf } from "./feed-record";
import { adaptTesla } from "./tesla";
import { adaptTraccar } from "./traccar";

/** The feeds FDP reads in their own formats (CONTRACT "Feeds"), each by its one adapter. */
const ADAPTERS: Record<FeedFormat, (doc: unknown) => Adapted> = { traccar: adaptTraccar, tesla: adaptTesla };

/**
 * An adapted record is checked by the rules of endpoint 16's record (SPEC 2.17), with two differences
 * that come from the feeds: the device id is always the source's own, and the VIN may be unknown.
 */
export const feedRecordSchema = ingestRecordSchema.extend({
  vin: ingestRecordSchema.shape.vin.nullable(),
  device_id: ingestRecordSchema.shape.device_id.unwrap(),
  timestamp: ingestRecordSchema.shape.timestamp.unwrap(),
});
export type FeedRecord = z.output<typeof feedRecordSchema>;

/** A VIN of the pattern's shape, standing in for an unknown one while the fast path checks the rest. */
const VIN_STAND_IN = "0";

/**
 * `feedRecordSchema`'s answer for a record it accepts, by endpoint 16's fast path (three times faster
 * than zod on a feed's records, docs/benchmarks.md "feeds"); `undefined` leaves the record to zod,
 * which then words the refusal. An unknown VIN is checked as a stand-in and given back as null: the
 * schemas differ in nothing else for a record that names its device and its time.
 */
export function fastFeedRecord(record: FeedIngestRecord): FeedRecord | undefined {
  const out = fastIngestRecord(record.vin === null ? { ...record, vin: VIN_STAND_IN } : record);
  if (out === undefined || out.device_id === undefined || out.timestamp === undefined) return undefined;
  return { ...out, vin: record.vin === null ? null : out.vin, device_id: out.device_id, timestamp: out.timestamp };
}

/** What `POST /oem/ingest/{format}` hands the ingest: validated records, as endpoint 16's body holds them. */
export interface FeedBody {
  source: FeedFormat;
  vehicles: FeedRecord[];
}

/**
 * A feed's request body (one document, or a JSON array of them) → the records FDP ingests, or every
 * problem found, each at its place in what the source sent (`position.fixTime`; `3.position.fixTime`
 * in an array), one per place. Every document is adapted and validated before anything is stored,
 * including endpoint 16's bound on device clocks running ahead of `now`. Never throws.
 */
export function adaptFeedDocuments(format: FeedFormat, body: unknown, now: Date): { ok: true; body: FeedBody } | { ok: false; issues: SourceIssue[] } {
  const documents = Array.isArray(body) ? body : [body];
  if (documents.length === 0) return { ok: false, issues: [{ path: [], message: "must hold at least one document" }] };
  const at = (i: number, path: SourcePath): SourcePath => (Array.isArray(body) ? [i, ...path] : path);
  const issues = new Map<string, SourceIssue>();
  const refuse = (path: SourcePath, message: string) => {
    const key = JSON.stringify(path);
    if (!issues.has(key)) issues.set(key, { path, message }); // the first problem at a place is the one to fix
  };
  const latest = now.getTime() + INGEST_MAX_FUTURE_SKEW_MS;
  const vehicles: FeedRecord[] = [];
  for (const [i, doc] of documents.entries()) {
    const adapted = ADAPTERS[format](doc);
    if (!adapted.ok) {
      for (const issue of adapted.issues) refuse(at(i, issue.path), issue.message);
      continue;
    }
    const fast = fastFeedRecord(adapted.record);
    const parsed = fast ? { success: true as const, data: fast } : feedRecordSchema.safeParse(adapted.record);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const source = sourceOf(issue.path, adapted.origins, adapted.notes);
        refuse(at(i, source.path ?? []), source.note ? `${issue.message} (${source.note})` : issue.message);
      }
      continue;
    }
    if (Date.parse(parsed.data.timestamp) > latest) {
      refuse(at(i, sourceOf(["timestamp"], adapted.origins).path ?? []), `is more than ${INGEST_MAX_FUTURE_SKEW_MS / 60_000} minutes in the future`);
      continue;
    }
    vehicles.push(parsed.data);
  }
  return issues.size > 0 ? { ok: false, issues: [...issues.values()] } : { ok: true, body: { source: format, vehicles } };
}
