import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { COMMANDS, booleanFlag, findCommand, integerFlag, listFlag, usageText } from "@/scripts/lib/admin-commands";
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

  it("has exactly the CONTRACT commands (certificate:revoke waits for certificates)", () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(["tenant:create", "tenant:update", "key:create", "key:revoke", "user:create"]);
    expect(findCommand("certificate:revoke")).toBeUndefined();
    expect(usageText()).toContain("key:revoke --key-id <key_id>");
  });

  it("maps flags to verb input, refusing an update with nothing to change", () => {
    const update = findCommand("tenant:update")!;
    expect(update.buildInput({ tenant: "tn_1", "rate-limit": "default", entitlements: "" })).toEqual({
      tenantId: "tn_1",
      entitlements: [],
      rateLimitPerMin: null,
      requireSignedIngest: undefined,
    });
    expect(() => update.buildInput({ tenant: "tn_1" })).toThrow(/Nothing to update/);
    const create = findCommand("tenant:create")!;
    expect(() => create.buildInput({ name: "A", "rate-limit": "default" })).toThrow(ValidationError);
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
