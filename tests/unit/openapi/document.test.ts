import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument, OPENAPI_VERSION } from "@/lib/openapi/document";

describe("OpenAPI document", () => {
  const doc = openApiDocument() as {
    openapi: string;
    info: { version: string };
    servers: { url: string }[];
    paths: Record<string, Record<string, { parameters?: { name: string; schema: Record<string, unknown> }[]; responses: Record<string, unknown> }>>;
  };

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc as never);
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
      "/fleet",
      "/oem/ingest",
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
});
