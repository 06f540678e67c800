import { z } from "zod";

/** RFC 3339 date-time with an explicit offset (CONTRACT: `Z` preferred). */
export const dateTime = () => z.iso.datetime({ offset: true });

/**
 * An integer query parameter: digits only (no `1.5`, `abc`, `-1`, `1e2`), then a range check.
 * Out-of-range values are a 400, never clamped (CONTRACT "Errors").
 */
export function intQueryParam({ min, max, fallback }: { min: number; max: number; fallback: number }) {
  return z
    .string()
    .regex(/^[0-9]+$/, { message: `must be an integer between ${min} and ${max}` })
    .transform(Number)
    .pipe(z.number().int().min(min, { message: `must be at least ${min}` }).max(max, { message: `must be at most ${max}` }))
    .optional()
    .default(fallback)
    .meta({ type: "integer", minimum: min, maximum: max, default: fallback });
}

/** `true` or `false` (case-insensitive); anything else is a 400. */
export const booleanQueryParam = () =>
  z
    .string()
    .transform((v) => v.toLowerCase())
    .pipe(z.enum(["true", "false"], { message: "must be true or false" }))
    .transform((v) => v === "true")
    .optional()
    .meta({ type: "boolean" });

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
    error: z.enum([
      "invalid_request",
      "unauthorized",
      "invalid_signature",
      "forbidden",
      "not_found",
      "payload_too_large",
      "unprocessable",
      "rate_limited",
      "internal_error",
      "upstream_unavailable",
    ]),
    message: z.string(),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    request_id: z.string().optional(),
    _sandbox: z.literal(true).optional(),
  })
  .meta({ id: "Error", description: "CONTRACT error envelope." });
