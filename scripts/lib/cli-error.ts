import type { ErrorCode } from "@/lib/errors";

/** A failure of the CLI itself (not of a verb) that still has a known code and a message worth showing. */
export class CliError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "CliError";
  }
}
