import type { z } from "zod";
import { ValidationError, type ErrorDetail } from "@/lib/errors";

/**
 * Zod issues as the domain's error details (dotted field path, message). With `bodyMember` (an
 * operation whose whole body is that one input member), a path into it is named from the body's root.
 */
export function zodDetails(error: z.ZodError, bodyMember?: string): ErrorDetail[] {
  return error.issues.map((issue) => {
    const inBody = bodyMember !== undefined && issue.path[0] === bodyMember;
    const path = inBody ? issue.path.slice(1) : issue.path;
    return { field: path.length > 0 ? path.map(String).join(".") : inBody ? "(body)" : "(root)", message: issue.message };
  });
}

/**
 * Parses a verb's input with its schema; a failure becomes a ValidationError whose details name
 * each offending field. Every edge (HTTP, CLI, MCP) then maps that one error type.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, bodyMember?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = zodDetails(result.error, bodyMember);
  const summary = details.map((d) => `${d.field}: ${d.message}`).join("; ");
  throw new ValidationError(`Invalid input (${summary}).`, details);
}

/** A computed answer that breaks its own schema (NaN, out of range, missing field): a bug, never sent. */
export class OutputInvariantError extends Error {
  constructor(label: string, issues: z.core.$ZodIssue[]) {
    // Paths and messages only: the offending values may be tenants' data.
    super(`${label} breaks its schema at ${issues.map((i) => `${i.path.map(String).join(".") || "(root)"} (${i.message})`).join("; ")}`);
    this.name = "OutputInvariantError";
  }
}

/**
 * Checks a computed answer against its schema before it leaves: a wrong score is worse than a missing
 * one, so an impossible value (NaN, a score of 140) becomes an error that is logged and answered as
 * such instead of a number a customer acts on.
 */
export function checkedOutput<S extends z.ZodType>(schema: S, value: unknown, label: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new OutputInvariantError(label, result.error.issues);
  return result.data;
}
