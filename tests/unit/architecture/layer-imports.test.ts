import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { readRepositoryFile, repositoryFiles } from "../../helpers/repository-files";

/** Every .ts/.tsx file under `dir` (relative to the repository), recursively. */
const sourceFiles = (dir: string): string[] => repositoryFiles([dir], /\.tsx?$/);

/**
 * What a file imports, as repository paths without extension (`lib/vocabulary/scores`) for the app's
 * own modules and as written for packages: static imports and re-exports, `import type` included, and
 * dynamic `import()`, read by TypeScript's own pre-processor rather than a regular expression.
 */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readRepositoryFile(file), true, true);
  return importedFiles.map(({ fileName: spec }) => {
    if (spec.startsWith("@/")) return spec.slice(2);
    if (spec.startsWith(".")) return path.posix.join(path.posix.dirname(file), spec);
    return spec;
  });
}

/** The imports of the files under `dir` that no allowed prefix admits, as `file → import`. */
function offending(dir: string, allowed: (imported: string) => boolean): string[] {
  return sourceFiles(dir).flatMap((file) =>
    importsOf(file)
      .filter((i) => !allowed(i))
      .map((i) => `${file} → ${i}`),
  );
}

const isPackage = (imported: string) => !imported.startsWith("lib/") && !imported.startsWith("app/") && !imported.startsWith("components/");
const under = (imported: string, folders: readonly string[]) => folders.some((f) => imported === f || imported.startsWith(`${f}/`));

describe("layers (issue 29)", () => {
  it("the schemas import only the vocabulary and the modules every layer may use, never a domain module", () => {
    // The words a schema states (enums, bounds, defaults) live in lib/vocabulary/, which the domain
    // modules import too; a schema that imported lib/scores/ or lib/charging/ tied the API's shape to them.
    const SCHEMAS_MAY_IMPORT = ["lib/schemas", "lib/vocabulary", "lib/errors", "lib/json"];
    const found = offending("lib/schemas", (i) => isPackage(i) || under(i, SCHEMAS_MAY_IMPORT));
    expect(found, `schemas importing beyond ${SCHEMAS_MAY_IMPORT.join(", ")}:\n${found.join("\n")}`).toEqual([]);
  });

  it("the ingest, the telemetry aggregates it keeps up to date and the shared device reads do not import the scores", () => {
    // The scores read what the ingest writes; the rollups' upkeep the ingest starts is lib/telemetry/.
    const found = ["lib/ingest", "lib/telemetry", "lib/devices"].flatMap((dir) => offending(dir, (i) => !under(i, ["lib/scores"])));
    expect(found, `imports of lib/scores:\n${found.join("\n")}`).toEqual([]);
  });
});
