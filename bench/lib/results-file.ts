import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./app";

/** Writes `data` as bench/results/<prefix>-<time>.json; returns the path relative to the project. */
export function writeResultsFile(prefix: string, data: unknown): string {
  const dir = path.join(ROOT, "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${prefix}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, JSON.stringify(data, null, 2) + "\n");
  return path.relative(ROOT, file);
}
