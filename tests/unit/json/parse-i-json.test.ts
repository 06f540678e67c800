import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { inspectJson } from "@/lib/json/inspect-json";
import { JSON_BODY_MAX_DEPTH, parseIJsonObject, scanJsonText } from "@/lib/json/parse-i-json";

const bytes = (text: string) => new TextEncoder().encode(text);
const fail = (text: string | Uint8Array): ValidationError => {
  try {
    parseIJsonObject(typeof text === "string" ? bytes(text) : text);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return err as ValidationError;
  }
  throw new Error(`accepted: ${String(text).slice(0, 80)}`);
};

/** Strings that I-JSON accepts: any well-formed Unicode without U+0000. */
const storable = fc.string({ unit: "grapheme", maxLength: 12 }).filter((s) => !s.includes("\u0000"));
const iJsonValue = fc.jsonValue({ maxDepth: 4 }).map(function clean(v: unknown): unknown {
  if (typeof v === "string") return v.replaceAll("\u0000", "");
  if (Array.isArray(v)) return v.map(clean);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replaceAll("\u0000", ""), clean(x)]));
  return v;
});
const iJsonObject = fc.dictionary(storable, iJsonValue, { maxKeys: 6 });

/** JSON text of `value` with the first member name of its `n`-th object (document order) written twice. */
function withDuplicate(value: unknown, n: number): { text: string; duplicated: boolean } {
  let seen = 0;
  let duplicated = false;
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(write).join(",")}]`;
    if (v && typeof v === "object") {
      const entries = Object.entries(v);
      const parts = entries.map(([k, x]) => `${JSON.stringify(k)}:${write(x)}`);
      if (seen++ === n && entries.length > 0) {
        duplicated = true;
        parts.push(`${JSON.stringify(entries[0]![0])} : ${write(entries[0]![1])}`);
      }
      return `{${parts.join(",")}}`;
    }
    return JSON.stringify(v);
  };
  return { text: write(value), duplicated };
}

describe("parseIJsonObject", () => {
  it("accepts every I-JSON object and returns what JSON.parse returns, whatever the layout", () => {
    fc.assert(
      fc.property(iJsonObject, fc.constantFrom(0, 2, "\t"), (obj, indent) => {
        const text = JSON.stringify(obj, null, indent);
        expect(parseIJsonObject(bytes(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it("finds a repeated member name in any object, at any depth", () => {
    fc.assert(
      fc.property(iJsonObject, fc.nat(20), (obj, n) => {
        const { text, duplicated } = withDuplicate(obj, n);
        fc.pre(duplicated);
        const err = fail(text);
        expect(err.details?.[0]?.message).toBe("duplicate member name");
      }),
      { numRuns: 500 },
    );
  });

  it("names the repeated member's path", () => {
    expect(fail('{"a":1,"a":2}').details).toEqual([{ field: "a", message: "duplicate member name" }]);
    expect(fail('{"vehicles":[{"vin":"X"},{"vin":"Y","raw_data":{"k":1,"k":2}}]}').details).toEqual([{ field: "vehicles.1.raw_data.k", message: "duplicate member name" }]);
    // Escaped quotes and backslashes in names are compared decoded: "a\"" twice is a duplicate, "a\\" and "a" are not.
    expect(fail('{"a\\"":1, "a\\"" :2}').details?.[0]?.field).toBe('a"');
    expect(parseIJsonObject(bytes('{"a\\\\":1,"a":2,"b":"\\":"}'))).toEqual({ "a\\": 1, a: 2, b: '":' });
  });

  it("refuses NUL characters and lone surrogates in values and in names, naming the field", () => {
    expect(fail('{"vehicles":[{"raw_data":{"note":"a\\u0000b"}}]}').details).toEqual([
      { field: "vehicles.0.raw_data.note", message: "must not contain the NUL character (U+0000)" },
    ]);
    expect(fail('{"x":["ok","\\udc00"]}').details?.[0]?.field).toBe("x.1");
    expect(fail('{"x":"\\ud800"}').details?.[0]?.message).toMatch(/lone surrogate/);
    expect(fail('{"\\u0000":1}').details?.[0]?.message).toMatch(/^member name must not contain the NUL/);
    // A well-formed pair is fine.
    expect(parseIJsonObject(bytes('{"x":"\\ud83d\\ude97"}'))).toEqual({ x: "🚗" });
  });

  it("refuses numbers beyond a double, nesting past the bound, non-objects, bad JSON and bad UTF-8", () => {
    expect(fail('{"x":1e400}').details?.[0]).toEqual({ field: "x", message: "must be a finite number within the range of a double" });
    const deep = `{"raw_data":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    expect(fail(deep).details?.[0]?.message).toBe(`nests deeper than ${JSON_BODY_MAX_DEPTH} levels`);
    const justDeepEnough = `{"a":${"[".repeat(JSON_BODY_MAX_DEPTH - 1)}${"]".repeat(JSON_BODY_MAX_DEPTH - 1)}}`;
    expect(() => parseIJsonObject(bytes(justDeepEnough))).not.toThrow();
    expect(() => parseIJsonObject(bytes(`{"a":${"[".repeat(JSON_BODY_MAX_DEPTH)}${"]".repeat(JSON_BODY_MAX_DEPTH)}}`))).toThrow(ValidationError);
    expect(fail("[1,2]").details?.[0]?.message).toBe("expected an object");
    expect(fail('{"a":').details?.[0]?.message).toBe("invalid JSON");
    expect(fail(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])).details?.[0]?.message).toBe("invalid UTF-8");
  });
});

describe("scanJsonText", () => {
  it("counts exactly the member names of valid JSON (equal to the parsed members when none repeats)", () => {
    fc.assert(
      fc.property(iJsonObject, (obj) => {
        const text = JSON.stringify(obj);
        expect(scanJsonText(text, 100).members).toBe(inspectJson(JSON.parse(text), 100).members);
      }),
      { numRuns: 500 },
    );
    expect(scanJsonText('["a", ": b", "c"]', 10).members).toBe(0);
  });
  it("measures depth as the walk does, brackets inside strings aside, and ends on any text", () => {
    fc.assert(
      fc.property(iJsonObject, fc.integer({ min: 1, max: 8 }), (obj, max) => {
        const text = JSON.stringify(obj);
        expect(scanJsonText(text, max).tooDeep).toBe(inspectJson(JSON.parse(text), max).problem?.message === `nests deeper than ${max} levels`);
      }),
      { numRuns: 500 },
    );
    expect(scanJsonText('{"a":"[[[[[[[["}', 2).tooDeep).toBe(false);
    expect(scanJsonText("[".repeat(5_000_000), 32).tooDeep).toBe(true);
    for (const junk of ['"', '{"a', '"\\', '\\"', '{"a":"b\\"}']) expect(() => scanJsonText(junk, 32)).not.toThrow();
  });
});
