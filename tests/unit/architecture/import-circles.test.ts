import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/**
 * Issue 29: no module may import itself back through others, type-only imports included (madge's
 * default: `detectiveOptions.ts.skipTypeImports` is off). A circle means two modules that cannot be read,
 * tested or moved apart; the fix is to move what both need into a module below them, never to exclude a
 * file. The same roots as `npm run check:circular` (package.json); the imports of a root are followed.
 */
const ROOTS = ["lib", "app", "components", "server.ts", "proxy.ts", "scripts", "bench"];

describe("import graph", () => {
  it("has no circles", async () => {
    const graph = await madge(
      ROOTS.map((r) => path.join(ROOT, r)),
      { baseDir: ROOT, fileExtensions: ["ts", "tsx"], tsConfig: path.join(ROOT, "tsconfig.json") },
    );
    const circles = graph.circular().map((c) => c.join(" > "));
    expect(circles, `import circles:\n${circles.join("\n")}`).toEqual([]);
  });
});
