import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLIENT_SCHEMA_PATH, typescriptClientSchema } from "@/scripts/lib/typescript-client-schema";

/**
 * The typed client's types (clients/typescript/src/schema.ts) are what openapi-typescript makes of the
 * OpenAPI document the app serves now: an operation's input or output changed without
 * `npm run client:generate` fails here, before a partner's client drifts from the API.
 */
describe("the TypeScript client's generated types", () => {
  it("match the live OpenAPI document", async () => {
    const committed = readFileSync(path.join(process.cwd(), CLIENT_SCHEMA_PATH), "utf8");
    const live = await typescriptClientSchema();
    // Not toBe on 10,000 lines: the first differing line says what drifted.
    // Each text split once: splitting inside the comparison was quadratic (20 s of CPU for this test).
    const [liveLines, committedLines] = [live.split("\n"), committed.split("\n")];
    const firstDifference = liveLines.findIndex((line, i) => line !== committedLines[i]);
    expect(firstDifference === -1 ? null : { line: firstDifference + 1, live: liveLines[firstDifference], committed: committedLines[firstDifference] }).toBeNull();
    expect(committed).toBe(live);
  });

  it("cover every path of the document", async () => {
    const { openApiDocument } = await import("@/lib/openapi/document");
    const schema = readFileSync(path.join(process.cwd(), CLIENT_SCHEMA_PATH), "utf8");
    for (const p of Object.keys((openApiDocument() as { paths: object }).paths)) expect(schema).toContain(`    "${p}": {`);
  });
});
