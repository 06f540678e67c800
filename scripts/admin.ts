/**
 * Operations CLI (CONTRACT "Operations CLI"):
 *   npm run --silent admin -- <command> [flags]
 * Prints exactly one JSON object on stdout; on failure `{"error","message"}` and exit code 1.
 * Everything else (logs, usage, stack traces) goes to stderr. See docs/admin-cli.md.
 */
import { inspect, parseArgs } from "node:util";
import { DomainError, ValidationError, type ErrorCode, type ErrorDetail } from "@/lib/errors";
import { parseInput } from "@/lib/validation";
import { COMMANDS, findCommand, usageText, type AdminCommand, type FlagValues } from "./lib/admin-commands";
import { CliError } from "./lib/cli-error";
import { openAdminDatabase } from "./lib/open-admin-database";

interface ErrorOutput {
  error: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

const log = (line: string): void => {
  process.stderr.write(line.endsWith("\n") ? line : line + "\n");
};

// stdout carries the one JSON answer and nothing else: whatever a library logs goes to stderr.
for (const method of ["log", "info", "debug", "warn"] as const) {
  console[method] = (...args: unknown[]) => console.error(...args);
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

function errorOutput(err: unknown, command: AdminCommand | undefined): ErrorOutput {
  if (err instanceof ValidationError) return validationOutput(err, command);
  if (err instanceof DomainError) {
    const out: ErrorOutput = { error: err.code, message: err.message };
    if (err.details) out.details = err.details;
    return out;
  }
  if (err instanceof CliError) return { error: err.code, message: err.message };
  log(`[admin] unexpected error: ${inspect(err)}`);
  return { error: "internal_error", message: "The command failed unexpectedly; details are on stderr." };
}

/** The command being run, so that its flag names can be used in error messages. */
let current: AdminCommand | undefined;

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

async function execute(argv: string[]): Promise<Record<string, unknown>> {
  const args = argv[0] === "--" ? argv.slice(1) : argv;
  const [name, ...rest] = args;
  const known = COMMANDS.map((c) => c.name).join(", ");

  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    log(usageText());
    throw new ValidationError(
      name === undefined ? `No command given. Commands: ${known} (usage on stderr).` : `Help printed on stderr. Commands: ${known}.`,
    );
  }
  const command = findCommand(name);
  if (!command) throw new ValidationError(`Unknown command "${name}". Commands: ${known}.`);
  current = command;
  if (rest.includes("--help") || rest.includes("-h")) {
    log(usageText(command));
    throw new ValidationError(`Help for ${command.name} printed on stderr. Usage: ${command.name} ${command.synopsis}`);
  }

  const values = parseFlags(command, rest);
  const input = command.buildInput(values);
  parseInput(command.schema, input); // fail fast, before opening the database

  const handle = await openAdminDatabase(log);
  try {
    return await command.run(handle.db, input);
  } finally {
    await handle.close().catch((err: unknown) => log(`[admin] closing the database failed: ${String(err)}`));
  }
}

function finish(output: unknown, code: 0 | 1): void {
  process.stdout.write(JSON.stringify(output) + "\n", () => process.exit(code));
}

execute(process.argv.slice(2)).then(
  (result) => finish(result, 0),
  (err: unknown) => finish(errorOutput(err, current), 1),
);
