import { describe, expect, it } from "vitest";
import { numberArray, textArray } from "@/lib/db/pg-array";

describe("Postgres array literals", () => {
  it("quote every string and escape only backslash and double quote", () => {
    expect(textArray(["a", 'b"c', "d\\e", "", null, "NULL", "{,}", "Jyväskylä ⚡"])).toBe('{"a","b\\"c","d\\\\e","",null,"NULL","{,}","Jyväskylä ⚡"}');
    expect(textArray([])).toBe("{}");
  });
  it("keep control characters literal inside quotes (where JSON would escape them)", () => {
    expect(textArray(["new\nline", 'q"', null])).toBe('{"new\nline","q\\"",NULL}');
    expect(textArray(["lone \udc00"])).toBe('{"lone \udc00"}');
  });
  it("write numbers and NULLs", () => {
    expect(numberArray([1.5, null, -3, 1e21, 0])).toBe("{1.5,null,-3,1e+21,0}");
  });
});
