import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The repository's root: the tests that read its own source files (import layers, the guards of one code path) start here. */
const REPO_ROOT = path.resolve(import.meta.dirname, "../..");

/** Where the repository's code lives: what the app, its CLIs and scripts run, and the tests, browser tests and benchmarks. */
export const CODE_DIRS = ["lib", "app", "components", "scripts", "tests", "e2e", "bench"] as const;

/** Every file under `dirs` whose name matches `pattern`, recursively, as `/`-separated repository paths (`lib/db/client.ts`). */
export function repositoryFiles(dirs: readonly string[], pattern: RegExp): string[] {
  return dirs.flatMap((dir) =>
    readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: "utf8" })
      .filter((f) => pattern.test(f))
      .map((f) => path.posix.join(dir, f.split(path.sep).join("/"))),
  );
}

/** A repository file's text. */
export const readRepositoryFile = (file: string): string => readFileSync(path.join(REPO_ROOT, file), "utf8");
