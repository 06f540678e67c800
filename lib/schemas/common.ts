import { z } from "zod";
import { ERROR_CODES } from "@/lib/errors";
import { stringProblem } from "@/lib/json/inspect-json";

/** RFC 3339 date-time with an explicit offset (CONTRACT: `Z` preferred). */
export const dateTime = () => z.iso.datetime({ offset: true });

/**
 * Device ids, wherever they travel (path, batch bodies, ingest): 1–128 letters, digits, `.`, `_`, `:`
 * or `-`, but not `.` or `..` alone (a path could not address them). The default id of an ingested
 * VIN, `oem-<vin>`, fits. Anything else (a NUL, a slash, a 201-character string) is a 400 naming the
 * field, never a lookup.
 */
export const DEVICE_ID_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._:-]{1,128}$/;
const DEVICE_ID_RULE = "1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone";

export const deviceId = () =>
  z
    .string({ message: `must be a device id (${DEVICE_ID_RULE})` })
    .regex(DEVICE_ID_PATTERN, { message: `must be a device id (${DEVICE_ID_RULE})` })
    .meta({ pattern: DEVICE_ID_PATTERN.source, minLength: 1, maxLength: 128, example: "sbx-001" });

/** Path parameter `{device_id}`. */
export const deviceIdPath = () => z.object({ device_id: deviceId().meta({ description: `The device id (${DEVICE_ID_RULE}).` }) });

/**
 * Free text that can be stored and echoed: trimmed, within `max` characters, without the NUL
 * character and well-formed Unicode (no lone surrogate). Other characters (tabs, quotes, emoji) are
 * kept exactly as sent.
 */
export const text = ({ min = 1, max }: { min?: number; max: number }) =>
  z
    .string()
    .trim()
    .min(min, { message: min === 1 ? "must not be empty" : `must be at least ${min} characters` })
    .max(max, { message: `must be at most ${max} characters` })
    .superRefine((s, ctx) => {
      const problem = stringProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

/**
 * An integer query parameter: digits only (no `1.5`, `abc`, `-1`, `1e2`), then a range check.
 * Out-of-range values are a 400, never clamped (CONTRACT "Errors").
 */
function digitsInRange(min: number, max: number) {
  return z
    .string()
    .regex(/^[0-9]+$/, { message: `must be an integer between ${min} and ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { message: `must be at least ${min}` })
        .max(max, { message: `must be at most ${max}` }),
    );
}

/** An integer query parameter with a default when absent. */
export function intQueryParam({ min, max, fallback }: { min: number; max: number; fallback: number }) {
  return digitsInRange(min, max).optional().default(fallback).meta({ type: "integer", minimum: min, maximum: max, default: fallback });
}

/** An integer query parameter without a default: absent → undefined (the caller's own fallback applies). */
export function optionalIntQueryParam({ min, max, description }: { min: number; max: number; description: string }) {
  return digitsInRange(min, max).optional().meta({ type: "integer", minimum: min, maximum: max, description });
}

/**
 * An optional non-negative decimal query parameter: digits with an optional fraction, nothing else. `abc`, `-1`, `NaN`, `Infinity`,
 * `1e400` (and every exponent form), `0x10` and an empty value are refused before any conversion, so no
 * string can become a non-finite number.
 */
const DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

export function numberQueryParam({ min, max, exclusiveMin, description }: { min: number; max: number; exclusiveMin?: boolean; description: string }) {
  const lower = exclusiveMin ? `greater than ${min}` : `at least ${min}`;
  return z
    .string()
    .regex(DECIMAL, { message: `must be a decimal number ${lower} and at most ${max} (digits and an optional fraction, no sign or exponent)` })
    .transform(Number)
    .pipe(
      z
        .number()
        .finite()
        .refine((n) => (exclusiveMin ? n > min : n >= min), { message: `must be ${lower}` })
        .refine((n) => n <= max, { message: `must be at most ${max}` }),
    )
    .optional()
    .meta({ type: "number", ...(exclusiveMin ? { exclusiveMinimum: min } : { minimum: min }), maximum: max, description });
}

/** `true` or `false` (case-insensitive); anything else is a 400. */
export const booleanQueryParam = () =>
  z
    .string()
    .regex(/^[A-Za-z]+$/, { message: "must be true or false" })
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(["true", "false"], { message: "must be true or false" }))
    .transform((v) => v === "true")
    .optional()
    .meta({ type: "boolean", description: "`true` or `false`, case-insensitive." });

/** A list envelope of CONTRACT: `count` equals `data.length`. */
export function listEnvelope<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      data: z.array(item),
      count: z.number().int().meta({ description: "Equals data.length." }),
      tenant_id: z.string(),
    })
    .meta({ id });
}

export const errorBodySchema = z
  .object({
    error: z.enum(ERROR_CODES),
    message: z.string(),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    request_id: z.string().optional(),
    _sandbox: z.literal(true).optional(),
  })
  .meta({ id: "Error", description: "CONTRACT error envelope." });

/** What the verbs of one device receive. */
export type DeviceInput = z.output<ReturnType<typeof deviceIdPath>>;
