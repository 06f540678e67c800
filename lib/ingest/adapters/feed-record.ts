/**
 * What a feed adapter makes of one source document (CONTRACT "Feeds", docs/feeds.md): an FDP ingest
 * record (SPEC 2.17) and, for every member it filled, the place in the source document it came from,
 * so that a refusal names the source's field (`position.fixTime`), not ours (`timestamp`).
 *
 * Adapters are pure and total: any JSON value gives a record or a list of issues, never an exception.
 */

/** A place in a source document: member names and array indexes from its root. */
export type SourcePath = readonly (string | number)[];

/** One thing wrong with a source document, at `path`. */
export interface SourceIssue {
  path: SourcePath;
  message: string;
}

/**
 * An ingest record as an adapter fills it: SPEC 2.17's members, but `vin` may be null (a tracker that
 * does not report the VIN: FDP never invents one) and `device_id` is always set (the source's own id).
 */
export interface FeedIngestRecord {
  vin: string | null;
  device_id: string;
  timestamp: string;
  odometer_km?: number | null;
  soc_percent?: number | null;
  battery_voltage?: number | null;
  charging_status?: string | null;
  lat?: number | null;
  lon?: number | null;
  speed_kmh?: number | null;
  engine_hours?: number | null;
  dtc_codes?: string[] | null;
  raw_data: Record<string, unknown>;
}

/**
 * Where each record member came from, keyed by the member's path in the record joined with `.`
 * (`speed_kmh`, `raw_data.vehicle.model`, `raw_data.traccar`). A validation issue at a record path is
 * reported at the source path of its longest key prefix, followed by the rest of its own path.
 */
export type RecordOrigins = Record<string, SourcePath>;

/**
 * How a record member was derived from its source field, when a refusal worded in FDP's terms would
 * otherwise puzzle the sender (`speed_kmh` "must be at most 500 km/h" for a speed sent in mph), keyed
 * like RecordOrigins: appended to the refusal's message.
 */
export type RecordNotes = Record<string, string>;

export type Adapted = { ok: true; record: FeedIngestRecord; origins: RecordOrigins; notes?: RecordNotes } | { ok: false; issues: SourceIssue[] };

/**
 * The source path of a record path (see RecordOrigins), and the note on how that member was derived
 * (RecordNotes); the path is null when no member of the record matches.
 */
export function sourceOf(recordPath: readonly PropertyKey[], origins: RecordOrigins, notes: RecordNotes = {}): { path: SourcePath | null; note?: string } {
  for (let n = recordPath.length; n > 0; n--) {
    const key = recordPath.slice(0, n).map(String).join(".");
    const origin = Object.hasOwn(origins, key) ? origins[key] : undefined;
    if (origin) return { path: [...origin, ...recordPath.slice(n).map((p) => (typeof p === "number" ? p : String(p)))], note: Object.hasOwn(notes, key) ? notes[key] : undefined };
  }
  return { path: null };
}

export function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** A decimal number as text: `12`, `-4.5`, `.5`, `1e3`. Not `0x10`, `0b11`, `Infinity` or `1_000`, which `Number()` would read. */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number as a source sends it: a finite JSON number, or a string holding a decimal one (Tesla sends
 * most values as strings; some Traccar protocols do too). `undefined` when absent or null; `NaN` when
 * present but not a number (the caller refuses it, naming the field: a reading FDP cannot read is not
 * "not reported").
 */
function sourceNumber(x: unknown): number | undefined {
  if (x === undefined || x === null) return undefined;
  if (typeof x === "number") return Number.isFinite(x) ? x : Number.NaN;
  if (typeof x === "string" && DECIMAL.test(x.trim())) return Number(x.trim());
  return Number.NaN;
}

/** `sourceNumber`, with a non-number (or an infinite one) recorded as an issue at `path`. */
export function readNumber(x: unknown, path: SourcePath, what: string, issues: SourceIssue[]): number | undefined {
  const n = sourceNumber(x);
  if (n === undefined) return undefined;
  if (!Number.isFinite(n)) {
    issues.push({ path, message: `must be a number (${what})` });
    return undefined;
  }
  return n;
}

/**
 * A unit conversion without binary noise in the last digits (1.852 × 10 is 18.520000000000003 in
 * floating point): 9 significant digits, far finer than any vehicle sensor.
 */
export function convert(x: number | undefined, factor: number): number | undefined {
  return x === undefined ? undefined : Number((x * factor).toPrecision(9));
}
