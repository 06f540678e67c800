import type { z } from "zod";
import { ValidationError, type ErrorDetail } from "@/lib/errors";

/** Zod issues as the domain's error details (dotted field path, message). */
export function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)",
    message: issue.message,
  }));
}

/**
 * Parses a verb's input with its schema; a failure becomes a ValidationError whose details name
 * each offending field. Every edge (HTTP, CLI, MCP) then maps that one error type.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = zodDetails(result.error);
  const summary = details.map((d) => `${d.field}: ${d.message}`).join("; ");
  throw new ValidationError(`Invalid input (${summary}).`, details);
}
