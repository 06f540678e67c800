import { createLogger, type Logger, type LogLevel } from "@/lib/log/logger";

export interface CapturedLog {
  logger: Logger;
  /** Raw lines as pino wrote them (each ends with a newline). */
  lines: string[];
  /** Every line parsed (throws if one is not valid JSON). */
  records(): Record<string, unknown>[];
  /** Everything written, for "never appears" assertions. */
  text(): string;
}

/** A logger with the production options writing to memory instead of stderr. */
export function captureLog(level: LogLevel = "trace"): CapturedLog {
  const lines: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void lines.push(line) } });
  return {
    logger,
    lines,
    records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>),
    text: () => lines.join(""),
  };
}
