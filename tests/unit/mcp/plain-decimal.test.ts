import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainDecimal } from "@/lib/mcp/call-tool";

/** A tool's number argument becomes the query-string form REST's parsers read: digits, never an exponent. */
describe("plainDecimal", () => {
  it("writes small and huge numbers without an exponent", () => {
    expect(plainDecimal(5e-7)).toBe("0.0000005");
    expect(plainDecimal(1.25e-10)).toBe("0.000000000125");
    expect(plainDecimal(1e21)).toBe("1000000000000000000000");
    expect(plainDecimal(1.5e22)).toBe("15000000000000000000000");
    expect(plainDecimal(-2.5e-7)).toBe("-0.00000025");
    expect(plainDecimal(92.5)).toBe("92.5");
    expect(plainDecimal(0)).toBe("0");
  });

  it("is exact: the same number back, for every finite double", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const s = plainDecimal(x);
        expect(s).not.toMatch(/e/i);
        expect(Number(s)).toBe(x === 0 ? 0 : x);
      }),
      { numRuns: 2000 },
    );
  });
});
