import { inspect, parseArgs } from "node:util";
import { DomainError, ValidationError, type ErrorCode, type ErrorDetail } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { COMMANDS, findCommand, usageText, type AdminCommand, type FlagValues } from "./admin-commands";
import { CliError } from "./cli-error";
import { openAdminDatabase } from "./open-admin-database";

interface ErrorOutput {
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

/** What one command answered: the JSON object the CLI prints on stdout, and its exit code. */
interface AdminRun {
  code: 0 | 1;
  output: Record<string, unknown>;
}

interface AdminIo {
  /** Everything that is not the answer (logs, usage, stack traces): one line or block per call. */
  stderr(text: string): void;
}

/** Validation details in the operator's words: verb fields become the flags that fed them. */
function validationOutput(err: ValidationError, command: AdminCommand | undefined): ErrorOutput {
  if (!err.details || !command) return { error: err.code, message: err.message };
  const details = err.details.map((d) => {
    const [head, ...rest] = d.field.split(".");
    const flag = head !== undefined ? command.flagOfField[head] : undefined;
    if (!flag) return d;
    const index = rest[0];
    const item = index !== undefined && /^\d+$/.test(index) ? `Item ${Number(index) + 1}: ` : "";
    return { field: flag, message: `${item}${d.message}` };
  });
  const fieldLevel = details.filter((d) => d.field.startsWith("--"));
  const message = fieldLevel.length === details.length ? fieldLevel.map((d) => `${d.field}: ${d.message}`).join(" ") : err.message;
  return { error: err.code, message, details };
}

function errorOutput(err: unknown, command: AdminCommand | undefined, io: AdminIo): ErrorOutput {
  if (err instanceof ValidationError) return validationOutput(err, command);
  if (err instanceof DomainError) {
    const out: ErrorOutput = { error: err.code, message: err.message };
    if (err.details) out.details = err.details;
    return out;
  }
  if (err instanceof CliError) return { error: err.code, message: err.message };
  io.stderr(`[admin] unexpected error: ${inspect(err)}`);
  return { error: "internal_error", message: "The command failed unexpectedly; details are on stderr." };
}

function parseFlags(command: AdminCommand, args: string[]): FlagValues {
  let values: FlagValues;
  try {
    const parsed = parseArgs({
      args,
      options: Object.fromEntries(command.flags.map((f) => [f, { type: "string" as const }])),
      strict: true,
      allowPositionals: false,
    });
    values = parsed.values;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new ValidationError(`${command.name}: ${message.replace(/\.?$/, ".")} Usage: ${command.name} ${command.synopsis}`);
  }
  const missing = command.required.filter((f) => values[f] === undefined);
  if (missing.length > 0) {
    throw new ValidationError(
      `${command.name}: missing ${missing.map((f) => `--${f}`).join(", ")}. Usage: ${command.name} ${command.synopsis}`,
      missing.map((f) => ({ field: `--${f}`, message: "Required." })),
    );
  }
  return values;
}

/**
 * One command of the operations CLI (CONTRACT "Operations CLI", docs/admin-cli.md), in the calling
 * process: argv as after `npm run --silent admin --`. Never throws: a failure is the `{"error","message"}`
 * answer with code 1. The database and secrets come from `env()` (lib/env.ts), parsed once per process:
 * an in-process caller that changes process.env calls `resetEnvCache()` first.
 */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<AdminRun> {
  // The command being run, so that its flag names can be used in error messages.
  let command: AdminCommand | undefined;
  try {
    const args = argv[0] === "--" ? argv.slice(1) : [...argv];
    const [name, ...rest] = args;
    const known = COMMANDS.map((c) => c.name).join(", ");

    if (name === undefined || name === "--help" || name === "-h" || name === "help") {
      io.stderr(usageText());
      throw new ValidationError(name === undefined ? `No command given. Commands: ${known} (usage on stderr).` : `Help printed on stderr. Commands: ${known}.`);
    }
    command = findCommand(name);
    if (!command) throw new ValidationError(`Unknown command "${name}". Commands: ${known}.`);
    if (rest.includes("--help") || rest.includes("-h")) {
      io.stderr(usageText(command));
      throw new ValidationError(`Help for ${command.name} printed on stderr. Usage: ${command.name} ${command.synopsis}`);
    }

    const values = parseFlags(command, rest);
    const input = command.buildInput(values);
    parseInput(command.schema, input); // fail fast, before opening the database

    const handle = await openAdminDatabase((line) => io.stderr(line));
    try {
      return { code: 0, output: await command.run(handle.db, input) };
    } finally {
      await handle.close().catch((err: unknown) => io.stderr(`[admin] closing the database failed: ${String(err)}`));
    }
  } catch (err) {
    return { code: 1, output: { ...errorOutput(err, command, io) } };
  }
}
