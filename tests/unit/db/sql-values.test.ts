import { describe, expect, it } from "vitest";
import { sqlBool, sqlCount, sqlDate, sqlJson, sqlNumber, sqlText, sqlTextArray } from "@/lib/db/sql-values";

/** What postgres.js and PGlite hand back for the same raw column, read the same way. */
describe("raw SQL values from either driver", () => {
  it("numbers: numbers or numeric strings, never NaN or Infinity", () => {
    expect(sqlNumber(12.5)).toBe(12.5);
    expect(sqlNumber("12.5")).toBe(12.5);
    expect(sqlNumber("42")).toBe(42);
    expect(sqlNumber(BigInt(7))).toBe(7);
    for (const v of [null, undefined, "", " ", "abc", Number.NaN, Number.POSITIVE_INFINITY, "NaN", "Infinity", {}]) expect(sqlNumber(v)).toBeNull();
    expect(sqlCount(null)).toBe(0);
    expect(sqlCount("3")).toBe(3);
  });
  it("dates: Date objects, ISO strings or epoch milliseconds", () => {
    const d = new Date("2026-11-23T10:00:00Z");
    expect(sqlDate(d)).toEqual(d);
    expect(sqlDate("2026-11-23 10:00:00+00")).toEqual(d);
    expect(sqlDate(d.getTime())).toEqual(d);
    expect(sqlDate("not a date")).toBeNull();
    expect(sqlDate(null)).toBeNull();
  });
  it("booleans, text, jsonb and text[] in both shapes", () => {
    expect([sqlBool(true), sqlBool("t"), sqlBool(false), sqlBool("f"), sqlBool(null)]).toEqual([true, true, false, false, null]);
    expect([sqlText("x"), sqlText(1)]).toEqual(["x", null]);
    expect(sqlJson<{ a: number }>('{"a":1}')).toEqual({ a: 1 });
    expect(sqlJson({ a: 1 })).toEqual({ a: 1 });
    expect(sqlJson("{bad")).toBeNull();
    expect(sqlTextArray(["P0420", "U0100"])).toEqual(["P0420", "U0100"]);
    expect(sqlTextArray("{P0420,U0100}")).toEqual(["P0420", "U0100"]);
    expect(sqlTextArray('{"a,b","c \\"d\\"",e}')).toEqual(["a,b", 'c "d"', "e"]);
    expect(sqlTextArray("{}")).toEqual([]);
    expect(sqlTextArray(null)).toBeNull();
  });
});
