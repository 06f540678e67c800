import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "@/lib/operations/registry";
import { POSTMAN_COLLECTION_PATH, postmanCollection } from "@/scripts/lib/postman-collection";

/**
 * The Postman collection (clients/postman) is what `npm run postman:generate` makes of the live OpenAPI
 * document and the operations' examples: an operation changed without regenerating it fails here.
 * (tests/integration/partner-samples.test.ts runs it with newman against the app.)
 */
type Item = { name: string; request: { method: string; url: { raw: string }; auth?: { type: string } }; event: { listen: string; script: { exec: string[] } }[] };
const committed = () => JSON.parse(readFileSync(path.join(process.cwd(), POSTMAN_COLLECTION_PATH), "utf8")) as { item: { name: string; item: Item[] }[] };

describe("the Postman collection", () => {
  it("is what the generator makes of the live document", async () => {
    expect(committed()).toEqual(JSON.parse(JSON.stringify(await postmanCollection())));
  });

  it("holds one request per operation, public ones without the key, each with its contract tests", () => {
    const items = committed().item.flatMap((folder) => folder.item);
    expect(items.map((i) => i.name.split(":")[0]).sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
    for (const op of OPERATIONS) {
      const item = items.find((i) => i.name.startsWith(`${op.id}:`))!;
      expect(item.request.method).toBe(op.method);
      expect(item.request.auth?.type === "noauth", op.id).toBe("public" in op.access);
      const tests = item.event.find((e) => e.listen === "test")!.script.exec.join("\n");
      expect(tests, op.id).toContain(`pm.response.to.have.status(${op.success ?? 200})`);
      expect(tests, op.id).toContain("X-Request-Id");
      if (op.success !== 204 && op.id !== "getCertificatePdf") expect(tests, op.id).toContain("pm.response.to.have.jsonSchema(schema)");
    }
  });
});
