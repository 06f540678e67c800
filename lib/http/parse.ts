import type { z } from "zod";
import { ValidationError } from "@/lib/errors";
import { zodDetails } from "@/lib/validation";

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
