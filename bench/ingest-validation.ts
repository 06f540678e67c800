/**
 * How much does validating an ingest body cost, next to parsing it? In process, no HTTP and no
 * database: one 10,000-record body (2,000 vehicles × 5 readings, the ingest benchmark's large case,
 * bench/lib/fleet.ts) is turned from JSON text into a validated input by each contender, in
 * interleaved rounds (the order rotates each round, so a burst of background load falls on all of
 * them), and the table gives the median ms per body and its ratio to the floor, in wall time and in
 * the process's CPU time (steadier than wall time when other work shares the cores).
 *
 *   npm run bench:ingest-validation        (INGEST_VALIDATION_ROUNDS, default 40, after 5 warm-up rounds)
 *
 * Contenders: `JSON.parse` alone (the floor: no validation at all), then `JSON.parse` followed by
 * zod's parse of the body schema, by the same parse after `z.compile`, and by the ingest operation's
 * own input schema (what lib/http/read-input.ts runs: the hand-written fast path of
 * lib/schemas/ingest-fast-path.ts, zod for what it does not accept). Writes the figures to
 * bench/results/ingest-validation-<time>.json.
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { z } from "zod";
import { ingestOperation } from "@/lib/operations/ingest";
import { ingestBodySchema } from "@/lib/schemas/ingest";
import { FleetSimulator } from "./lib/fleet";
import { writeResultsFile } from "./lib/results-file";
import { runMain } from "./lib/run-main";
import { fmtMs, renderTable } from "./lib/table";
import { median, percentile } from "./lib/timing";

const log = (m: string) => process.stderr.write(`[ingest-validation] ${m}\n`);

const ROUNDS = Math.max(1, Number(process.env.INGEST_VALIDATION_ROUNDS ?? 40));
const WARMUP_ROUNDS = 5;

const compiled = z.compile(ingestBodySchema, { strict: true });

interface Contender {
  name: string;
  /** JSON text → validated input (or just the parsed value, for the floor). */
  run: (text: string) => unknown;
}

/** Throws on a refusal: every contender must accept the benchmark's body, or its figure means nothing. */
function accepted(result: { success: boolean; error?: unknown }): unknown {
  if (!result.success) throw new Error(`the benchmark body was refused: ${String(result.error)}`);
  return result;
}

const CONTENDERS: Contender[] = [
  { name: "JSON.parse only (floor)", run: (text) => JSON.parse(text) as unknown },
  { name: "+ zod safeParse (runtime parser, object JIT)", run: (text) => accepted(ingestBodySchema.safeParse(JSON.parse(text))) },
  { name: "+ zod safeParse of z.compile(schema)", run: (text) => accepted(compiled.safeParse(JSON.parse(text))) },
  { name: "+ ingest input schema (hand-written fast path)", run: (text) => accepted(ingestOperation.inputSchema.safeParse(JSON.parse(text))) },
];

async function main(): Promise<void> {
  const fleet = new FleetSimulator({ seed: 3001, vehicles: 2000, recordsPerVehicle: 5, vinTag: "V00000", startMs: Date.parse("2026-11-21T08:00:00Z"), stepMs: 60_000 });
  const records = fleet.nextBatch();
  const text = JSON.stringify({ source: "fdp-bench", vehicles: records });
  log(`body: ${records.length.toLocaleString("en-US")} records, ${(text.length / 1048576).toFixed(2)} MiB; zod jitless: ${String(z.config().jitless ?? false)}`);

  const wall = CONTENDERS.map(() => [] as number[]);
  const cpu = CONTENDERS.map(() => [] as number[]);
  for (let round = 0; round < WARMUP_ROUNDS + ROUNDS; round++) {
    for (let k = 0; k < CONTENDERS.length; k++) {
      const i = (round + k) % CONTENDERS.length;
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      CONTENDERS[i]!.run(text);
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (round >= WARMUP_ROUNDS) {
        wall[i]!.push(ms);
        cpu[i]!.push((c.user + c.system) / 1000);
      }
    }
  }

  const floor = median(wall[0]!);
  const cpuFloor = median(cpu[0]!);
  const rows = CONTENDERS.map((c, i) => {
    const m = median(wall[i]!);
    const cm = median(cpu[i]!);
    return [c.name, fmtMs(m), fmtMs(percentile(wall[i]!, 25)), fmtMs(percentile(wall[i]!, 75)), fmtMs(m - floor), `${(m / floor).toFixed(2)}×`, fmtMs(cm), fmtMs(cm - cpuFloor)];
  });
  const load = os.loadavg().map((x) => x.toFixed(2));
  process.stdout.write(
    `\n### Validating one 10,000-record ingest body, median of ${ROUNDS} rounds (load ${load.join(" ")})\n\n` +
      renderTable(["contender", "ms/body", "p25", "p75", "ms over floor", "× floor", "CPU ms", "CPU over floor"], rows, ["left", ...Array<"right">(7).fill("right")]) +
      "\n",
  );
  const file = writeResultsFile("ingest-validation", {
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg(),
    records: records.length,
    bodyBytes: text.length,
    rounds: ROUNDS,
    contenders: CONTENDERS.map((c, i) => ({ name: c.name, medianMs: median(wall[i]!), medianCpuMs: median(cpu[i]!), ms: wall[i], cpuMs: cpu[i] })),
  });
  log(`figures: ${file}`);
}

runMain(main, log);
