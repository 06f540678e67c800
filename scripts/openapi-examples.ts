/**
 * Regenerates lib/openapi/examples.json: every operation's example request answered by the app on a
 * freshly seeded sandbox (an embedded database in a temporary folder, removed afterwards).
 *
 *   npm run openapi:examples
 *
 * tests/db/openapi-examples.test.ts fails when an answer's shape no longer matches the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, setDbHandle } from "@/lib/db/client";
import { migrateWithPartitions } from "@/lib/db/telemetry-partitions";
import { OPERATIONS } from "@/lib/operations/registry";
import { seedSandbox } from "@/lib/seed/seed-sandbox";
import { collectSandboxExamples } from "./lib/sandbox-examples";

const OUT = path.join(process.cwd(), "lib/openapi/examples.json");

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fdp-examples-"));
  const handle = await openDatabase({ url: null, dataDir });
  try {
    await migrateWithPartitions(handle);
    await seedSandbox({ db: handle.db });
    setDbHandle(handle);
    const examples = await collectSandboxExamples();
    const failed = OPERATIONS.filter((op) => examples[op.id]?.status !== (op.success ?? 200));
    if (failed.length > 0) throw new Error(`examples not answered with success: ${failed.map((op) => `${op.id} ${examples[op.id]?.status}`).join(", ")}`);
    writeFileSync(OUT, `${JSON.stringify(examples, null, 2)}\n`);
    console.log(JSON.stringify({ written: path.relative(process.cwd(), OUT), operations: Object.keys(examples).length }));
  } finally {
    setDbHandle(undefined);
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
