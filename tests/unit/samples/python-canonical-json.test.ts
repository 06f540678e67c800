import { execFileSync } from "node:child_process";
import path from "node:path";
import canonicalize from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/**
 * The Python samples write RFC 8785 themselves (samples/python/fdp_sample.py `canonical_json`: the bytes
 * FDP signs and hashes), with the standard library only. Checked here against the `canonicalize` package
 * the app uses, on the same values: any difference would make a Python partner's body signature or
 * recomputed `verify_hash` fail. One python3 process for every value.
 */
const SAMPLES = path.resolve(import.meta.dirname, "../../../samples/python");

function pythonCanonical(values: unknown[]): string[] {
  const script = "import json, sys\nfrom fdp_sample import canonical_json\nfor v in json.load(sys.stdin): print(canonical_json(v))";
  const out = execFileSync("python3", ["-c", script], { cwd: SAMPLES, input: JSON.stringify(values), encoding: "utf8", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
  return out.split("\n").slice(0, values.length);
}

describe("samples/python canonical_json", () => {
  it("writes numbers as ECMAScript does: edge cases and random doubles across the whole range", () => {
    const edges = [0, -0, 1, -1, 0.1, 1e21, 1e20, 1e-7, 1e-6, 123e-20, 2 ** 53, 2 ** 53 + 2, 5e-324, Number.MAX_VALUE, -Number.MIN_VALUE, 333333333.3333333, 96.3, 51319.3];
    const random = fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true }), { numRuns: 3000, seed: 30_2026 });
    const values = [...edges, ...random];
    expect(pythonCanonical(values)).toEqual(values.map((v) => canonicalize(v)));
  });

  // U+FB01 sorts after U+1F600 by UTF-16 code units (0xFB01 > 0xD83D), before it by code points.
  it("sorts members by UTF-16 code units and escapes strings as JSON.stringify does", () => {
    const values = [
      { b: [1, 2.5, null, true, false], a: 'é\n\u0001\u001f"\\', "\u20ac": 1, "\u{1F600}": 2, "\ufb01": 3, "": { z: [], y: {} } },
      ...fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 300, seed: 30_2026 }).filter((v) => JSON.stringify(v) !== undefined),
    ];
    expect(pythonCanonical(values)).toEqual(values.map((v) => canonicalize(v)));
  });
});
