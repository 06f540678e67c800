/**
 * Operations CLI (CONTRACT "Operations CLI"):
 *   npm run --silent admin -- <command> [flags]
 * Prints exactly one JSON object on stdout; on failure `{"error","message"}` and exit code 1.
 * Everything else (logs, usage, stack traces) goes to stderr. See docs/admin-cli.md.
 * The command itself runs in scripts/lib/run-admin.ts; this file is the process around it.
 */
import { runAdmin } from "./lib/run-admin";

// stdout carries the one JSON answer and nothing else: whatever a library logs goes to stderr.
for (const method of ["log", "info", "debug", "warn"] as const) {
  console[method] = (...args: unknown[]) => console.error(...args);
}

const { code, output } = await runAdmin(process.argv.slice(2), {
  stderr: (text) => process.stderr.write(text.endsWith("\n") ? text : text + "\n"),
});
// Exit once the answer is written: a pool or timer a library left open must not keep the process alive.
process.stdout.write(JSON.stringify(output) + "\n", () => process.exit(code));
