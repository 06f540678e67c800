import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { COMMANDS, booleanFlag, findCommand, integerFlag, listFlag, signedIngestFlag, usageText } from "@/scripts/lib/admin-commands";
import { embeddedDbStatus } from "@/scripts/lib/embedded-db-lock";

describe("admin CLI flag parsing", () => {
  it("splits lists on commas, trimming and dropping empties", () => {
    expect(listFlag("a,b , c")).toEqual(["a", "b", "c"]);
    expect(listFlag("")).toEqual([]);
    expect(listFlag(" , ")).toEqual([]);
  });

  it("reads whole numbers only", () => {
    expect(integerFlag("rate-limit", "120")).toBe(120);
    expect(integerFlag("rate-limit", " 7 ")).toBe(7);
    for (const bad of ["", "1.5", "1e3", "abc", "12abc", "0x10"]) {
      expect(() => integerFlag("rate-limit", bad)).toThrow(ValidationError);
    }
  });

  it("reads true and false only", () => {
    expect(booleanFlag("require-signed-ingest", "true")).toBe(true);
    expect(booleanFlag("require-signed-ingest", "FALSE")).toBe(false);
    expect(() => booleanFlag("require-signed-ingest", "yes")).toThrow(/--require-signed-ingest/);
  });

  it("reads --require-signed-ingest true, false or timestamped, and tenant:update passes it on", () => {
    expect(signedIngestFlag("timestamped")).toBe("timestamped");
    expect(signedIngestFlag("True")).toBe(true);
    expect(signedIngestFlag("false")).toBe(false);
    expect(() => signedIngestFlag("always")).toThrow(/true, false or timestamped/);
    const update = findCommand("tenant:update")!;
    expect(update.buildInput({ tenant: "ten_1", "require-signed-ingest": "timestamped" })).toMatchObject({ tenantId: "ten_1", requireSignedIngest: "timestamped" });
  });

  it("has exactly the CONTRACT commands (signing keys: CONTRACT Evidence and trust), then FDP's own operations commands (rollups:refresh, the MQTT bridges: docs/admin-cli.md)", () => {
    expect(COMMANDS.map((c) => c.name)).toEqual([
      "tenant:create",
      "tenant:update",
      "key:create",
      "key:revoke",
      "certificate:revoke",
      "signing-key:rotate",
      "signing-key:revoke",
      "user:create",
      "rollups:refresh",
      "mqtt:add",
      "mqtt:list",
      "mqtt:remove",
    ]);
    expect(usageText()).toContain("signing-key:revoke --kid=<key_id> --reason <text>");
    expect(usageText()).toContain("rollups:refresh [--tenant <tenant_id>]");
    expect(usageText()).toContain("key:revoke --key-id <key_id>");
    expect(usageText()).toContain("certificate:revoke --number <certificate_number> --reason <text>");
  });

  it("signing-key:revoke checks the key id and the reason before opening the database", () => {
    const revoke = findCommand("signing-key:revoke")!;
    expect(revoke.required).toEqual(["kid", "reason"]);
    expect(revoke.schema.parse(revoke.buildInput({ kid: " abc_DEF-123 ", reason: "leaked" }))).toEqual({ kid: "abc_DEF-123", reason: "leaked" });
    expect(revoke.schema.safeParse({ kid: "has space", reason: "leaked" }).success).toBe(false);
    expect(revoke.schema.safeParse({ kid: "abc", reason: "no" }).success).toBe(false);
    expect(revoke.schema.safeParse({ kid: "abc", reason: "bad\u0000reason" }).success).toBe(false);
  });

  it("certificate:revoke checks the number and the reason before opening the database", () => {
    const revoke = findCommand("certificate:revoke")!;
    expect(revoke.required).toEqual(["number", "reason"]);
    const input = revoke.buildInput({ number: " FDP-CERT-20261124-7KQ2M ", reason: "Issued in error" });
    expect(revoke.schema.parse(input)).toEqual({ number: "FDP-CERT-20261124-7KQ2M", reason: "Issued in error" });
    expect(revoke.schema.safeParse({ number: "FDP-CERT-2026-1", reason: "Issued in error" }).success).toBe(false);
    expect(revoke.schema.safeParse({ number: "FDP-CERT-20261124-7KQ2M", reason: "x" }).success).toBe(false);
    expect(revoke.schema.safeParse({ number: "FDP-CERT-20261124-7KQ2M", reason: "bad\u0000reason" }).success).toBe(false);
  });

  it("maps flags to verb input, refusing an update with nothing to change", () => {
    const update = findCommand("tenant:update")!;
    expect(update.buildInput({ tenant: "tn_1", "rate-limit": "default", entitlements: "" })).toEqual({
      tenantId: "tn_1",
      entitlements: [],
      rateLimitPerMin: null,
      requireSignedIngest: undefined,
      electricityContractGPerKwh: undefined,
      reportingRole: undefined,
    });
    expect(update.buildInput({ tenant: "tn_1", "electricity-contract-factor": "12.5" })).toMatchObject({ tenantId: "tn_1", electricityContractGPerKwh: 12.5 });
    expect(update.buildInput({ tenant: "tn_1", "electricity-contract-factor": "none" })).toMatchObject({ electricityContractGPerKwh: null });
    expect(() => update.buildInput({ tenant: "tn_1", "electricity-contract-factor": "12,5 g" })).toThrow(ValidationError);
    expect(update.schema.safeParse({ tenantId: "tn_1", electricityContractGPerKwh: 2500 }).success).toBe(false);
    expect(update.schema.safeParse({ tenantId: "tn_1", electricityContractGPerKwh: -1 }).success).toBe(false);
    expect(() => update.buildInput({ tenant: "tn_1" })).toThrow(/Nothing to update/);
    const create = findCommand("tenant:create")!;
    expect(() => create.buildInput({ name: "A", "rate-limit": "default" })).toThrow(ValidationError);
    // The CSRD reporting role: a flag of both tenant commands, checked by the schema before the database opens.
    expect(update.flags).toContain("reporting-role");
    expect(create.flags).toContain("reporting-role");
    expect(update.schema.parse(update.buildInput({ tenant: "tn_1", "reporting-role": " Lessor " }))).toMatchObject({ tenantId: "tn_1", reportingRole: "lessor" });
    expect(update.schema.parse(update.buildInput({ tenant: "tn_1", "reporting-role": "operator" }))).toMatchObject({ reportingRole: "operator" });
    expect(update.schema.safeParse(update.buildInput({ tenant: "tn_1", "reporting-role": "lessee" })).success).toBe(false);
    expect(update.flagOfField.reportingRole).toBe("--reporting-role");
    expect(create.schema.parse(create.buildInput({ name: "A", "reporting-role": "lessor" }))).toMatchObject({ reportingRole: "lessor" });
    expect(usageText()).toContain("[--reporting-role operator|lessor]");
  });
});

describe("embedded database holder check", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "fdp-lockcheck-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is free without a postmaster.pid, and sees a pid file nobody holds as stale", () => {
    expect(embeddedDbStatus(dir)).toEqual({ state: "free", pids: [], stalePidFile: false });
    writeFileSync(path.join(dir, "postmaster.pid"), "-42\n/pglite/data\n");
    const status = embeddedDbStatus(dir);
    if (process.platform === "linux") expect(status).toEqual({ state: "free", pids: [], stalePidFile: true });
    else expect(status.state).toBe("unknown");
  });
});
