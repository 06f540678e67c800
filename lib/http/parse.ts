import type { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { parseInput, zodDetails } from "@/lib/validation";
import { parseJsonObject, readBodyLimited } from "./read-body";

/** Parses query parameters with a zod object schema; unknown parameters are ignored (CONTRACT). */
export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.output<S> {
  const params = Object.fromEntries(new URL(req.url).searchParams);
  const result = schema.safeParse(params);
  if (!result.success) {
    const details = zodDetails(result.error);
    throw new ValidationError(`Invalid query parameter${details.length > 1 ? "s" : ""}: ${details.map((d) => `${d.field} (${d.message})`).join("; ")}.`, details);
  }
  return result.data;
}

/** Request bodies of the JSON endpoints other than ingest (which has its own 10 MiB limit). */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;

/** Reads a JSON object body (413 past `maxBytes`, 400 if not a JSON object) and parses it with `schema`. */
export async function parseJsonBody<S extends z.ZodType>(schema: S, req: Request, maxBytes = JSON_BODY_MAX_BYTES): Promise<z.output<S>> {
  return parseInput(schema, parseJsonObject(await readBodyLimited(req, maxBytes)));
}
