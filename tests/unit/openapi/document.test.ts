import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { admitNullInNullableEnums, openApiDocument, OPENAPI_VERSION } from "@/lib/openapi/document";
import { OPERATIONS } from "@/lib/operations/registry";
import { openApiResponseErrors } from "../../helpers/openapi-response-validator";

describe("OpenAPI document", () => {
  const doc = openApiDocument() as {
    openapi: string;
    info: { version: string };
    servers: { url: string }[];
    paths: Record<string, Record<string, { parameters?: { name: string; schema: Record<string, unknown> }[]; responses: Record<string, unknown> }>>;
  };

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(OPENAPI_VERSION);
    expect(OPENAPI_VERSION).toBe("1.2.0");
  });

  it("has servers ending in /api/v1 and paths relative to them", () => {
    expect(doc.servers[0]?.url).toMatch(/\/api\/v1$/);
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/alerts",
      "/certificates/generate/{device_id}",
      "/certificates/{certificate_number}",
      "/certificates/{certificate_number}/pdf",
      "/certificates/{certificate_number}/verify",
      "/charging/recommendation/{device_id}",
      "/energy/spot-prices",
      "/events",
      "/fleet",
      "/oem/ingest",
      "/oem/ingest/tesla",
      "/oem/ingest/traccar",
      "/predict/mileage/{device_id}",
      "/predict/residual-value/{device_id}",
      "/pricing/commission",
      "/pricing/gordon-loeb",
      "/reports/csrd/generate",
      "/reports/emissions",
      "/scores/batch",
      "/scores/fleet-risk",
      "/scores/green-fleet",
      "/scores/vehicle-health/{device_id}",
      "/tas/batch",
      "/tas/{device_id}",
      "/vehicles/{device_id}/battery-health-snapshot",
      "/vehicles/{device_id}/eol-summary",
      "/vehicles/{device_id}/residual-value",
      "/webhooks",
      "/webhooks/{webhook_id}",
      "/webhooks/{webhook_id}/replay",
    ]);
  });

  it("documents the query bounds the handlers enforce, from the same zod schemas", () => {
    const fleetLimit = doc.paths["/fleet"]?.get?.parameters?.find((p) => p.name === "limit");
    expect(fleetLimit?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 500, default: 100 });
    const alertParams = Object.fromEntries((doc.paths["/alerts"]?.get?.parameters ?? []).map((p) => [p.name, p.schema]));
    expect(alertParams.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 50 });
    expect(alertParams.severity).toMatchObject({ enum: ["CRITICAL", "WARNING", "INFO"] });
    expect(alertParams.acknowledged).toMatchObject({ type: "boolean" });
  });

  it("describes the ingest body from the zod schema", () => {
    const op = (doc.paths["/oem/ingest"] as unknown as Record<string, { requestBody?: { content: Record<string, { schema: unknown }> }; responses: Record<string, unknown> }>).post;
    expect(JSON.stringify(op?.requestBody)).toContain("OemIngestRequest");
    expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "401", "403", "413", "429"]));
  });

  it("lists the CONTRACT error answers of keyed endpoints", () => {
    expect(Object.keys(doc.paths["/fleet"]?.get?.responses ?? {})).toEqual(expect.arrayContaining(["200", "400", "401", "403", "429", "500"]));
  });

  it("admits null in the enum of every schema whose type admits null (a nullable literal such as soh_source)", () => {
    const soh = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, { properties: Record<string, unknown> }> }> } }).components.schemas
      .BatteryHealthSnapshot?.properties.data_quality?.properties.soh_source;
    expect(soh).toEqual({ type: ["string", "null"], enum: ["oem_bms", null] });
    const bad: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== "object") return;
      const o = node as Record<string, unknown>;
      const nullable = o.type === "null" || (Array.isArray(o.type) && o.type.includes("null"));
      if (nullable && Array.isArray(o.enum) && !o.enum.includes(null)) bad.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(doc, "");
    expect(bad).toEqual([]);
    const sample = { type: ["string", "null"], enum: ["a"], items: [{ type: "null", enum: ["b"] }] };
    admitNullInNullableEnums(sample);
    expect(sample).toEqual({ type: ["string", "null"], enum: ["a", null], items: [{ type: "null", enum: ["b", null] }] });
  });

  it("every operation's example answer validates against the document's own response schema", () => {
    for (const op of OPERATIONS) {
      if (op.produces) continue;
      const success = op.success ?? 200;
      const answer = doc.paths[op.path]?.[op.method.toLowerCase()]?.responses[String(success)] as { content?: { "application/json": { example?: unknown } } };
      if (success === 204) {
        expect(answer.content, op.id).toBeUndefined();
        continue;
      }
      const body = answer.content?.["application/json"].example;
      expect(body, op.id).toBeDefined();
      expect(openApiResponseErrors(op.method, op.path, success, body), op.id).toBeNull();
    }
  });

  it("the validator refuses an answer the document does not allow (a null where the enum has no null, a missing member)", () => {
    const op = OPERATIONS.find((o) => o.path === "/vehicles/{device_id}/battery-health-snapshot")!;
    const example = (doc.paths[op.path]?.get?.responses["200"] as { content: { "application/json": { example: Record<string, unknown> } } }).content["application/json"].example;
    const withNull = structuredClone(example) as { data_quality: Record<string, unknown> };
    withNull.data_quality.soh_source = null;
    expect(openApiResponseErrors("GET", op.path, 200, withNull)).toBeNull();
    withNull.data_quality.soh_source = "guess";
    expect(openApiResponseErrors("GET", op.path, 200, withNull)).not.toBeNull();
    const { data_quality: _dropped, ...missing } = example;
    expect(openApiResponseErrors("GET", op.path, 200, missing)).not.toBeNull();
  });
});
