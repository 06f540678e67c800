import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * scripts/patch-postgres-driver.mjs (package.json "postinstall") guards two crashes of postgres.js
 * 3.4.9 that a connection killed at the wrong moment provokes, and the shifted rows of the next result
 * on a reconnected connection (docs/scaling.md "Failure semantics").
 * If the install skipped it, the fault tests crash the process instead of failing plainly: say so here.
 */
describe("the postgres.js patch", () => {
  const root = path.resolve(import.meta.dirname, "../../../node_modules/postgres");
  const version = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;

  it.runIf(version === "3.4.9")("is applied to every build of the driver (ESM, CommonJS, Workers)", () => {
    for (const flavour of ["src", "cjs/src", "cf/src"]) {
      const text = readFileSync(path.join(root, flavour, "connection.js"), "utf8");
      expect(text, flavour).toContain("/* fdp-patched: null-socket guard */");
      expect(text, flavour).toContain("return fetchArrayTypes().catch(");
      expect(text, flavour).toContain("rows = 0 /* fdp-patched: row counter reset */");
    }
  });
});
