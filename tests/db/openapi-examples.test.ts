import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDbHandle } from "@/lib/db/client";
import { rootLogger } from "@/lib/log/logger";
import { OPERATIONS } from "@/lib/operations/registry";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import { resetEnvCache } from "@/lib/env";
import { resetRateLimiters } from "@/lib/rate-limit/limiter-store";
import { collectSandboxExamples, type OperationExample } from "../../scripts/lib/sandbox-examples";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/databases";
import { OFFLINE_SPOT_PRICE_URL } from "../helpers/fixtures";

/**
 * The OpenAPI examples are the sandbox's own answers (lib/openapi/examples.json, `npm run
 * openapi:examples`): on a freshly seeded sandbox every operation answers its example request with
 * 200, and every verb's answer is exactly what its output schema describes (nothing the document
 * leaves out is dropped on the way).
 */
let tdb: TestDatabase;
let live: Record<string, OperationExample>;

beforeAll(async () => {
  tdb = await createSeededTestDatabase("postgres");
  process.env.REDIS_URL = "";
  process.env.DATABASE_URL = tdb.url;
  process.env.SPOT_PRICE_BASE_URL = OFFLINE_SPOT_PRICE_URL;
  resetEnvCache();
  resetRateLimiters();
  setDbHandle(tdb.handle);
  live = await collectSandboxExamples();
}, 180_000);

afterAll(async () => {
  setDbHandle(undefined);
  await tdb?.dispose();
});

describe("OpenAPI examples from the sandbox", () => {
  const committed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../lib/openapi/examples.json"), "utf8")) as Record<string, OperationExample>;

  it("exist for every operation, with the operation's current example request", () => {
    expect(Object.keys(committed).sort()).toEqual(OPERATIONS.map((op) => op.id).sort());
    for (const op of OPERATIONS) expect(committed[op.id]?.request).toEqual(op.requestExample);
  });

  it("are what the sandbox answers today: success, and valid for the operation's output schema", () => {
    for (const op of OPERATIONS) {
      expect(live[op.id]?.status, op.id).toBe(op.success ?? 200);
      if (op.produces) {
        // A binary answer is recorded by its type and size (scripts/lib/sandbox-examples.ts).
        expect(live[op.id]?.response, op.id).toMatchObject({ content_type: op.produces, bytes: expect.any(Number) });
        continue;
      }
      expect(op.output.safeParse(live[op.id]?.response).error, op.id).toBeUndefined();
      expect(op.output.safeParse(committed[op.id]?.response).error, op.id).toBeUndefined();
    }
  });

  it("every verb answers exactly its output schema: parsing drops and changes nothing", async () => {
    const ctx = { db: tdb.handle.db, tenantId: SANDBOX_TENANT_ID, isSandbox: true, log: rootLogger() };
    // The certificate the examples issued stands in for the placeholder number.
    const issued = (live.generateCertificate?.response as { certificate_number: string }).certificate_number;
    // The webhook the examples registered is deleted by the deletion example: the registration below makes another.
    let webhook: string | undefined;
    for (const op of OPERATIONS) {
      const ex = op.requestExample as { path?: Record<string, string>; query?: object; body?: object };
      const path = {
        ...ex.path,
        ...(op.pathParams.includes("certificate_number") ? { certificate_number: issued } : {}),
        ...(op.pathParams.includes("webhook_id") && webhook ? { webhook_id: webhook } : {}),
      };
      const input = op.inputSchema.parse({ ...ex.body, ...ex.query, ...path });
      const answer = await op.verb({ ctx: ctx, input: input });
      if (op.id === "createWebhook") webhook = (answer as { id: string }).id;
      if (op.produces) {
        expect(answer instanceof Response && answer.headers.get("content-type"), op.id).toBe(op.produces);
        continue;
      }
      const raw = JSON.parse(JSON.stringify(answer)) as unknown;
      expect(op.output.parse(raw), op.id).toEqual(raw);
    }
  });
});
