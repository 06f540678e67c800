import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fleetScoreQuerySchema, PERIOD_PATTERN } from "@/lib/schemas/scores-fleet";

/** The OpenAPI pattern of `period` says exactly which values the server accepts. */
describe("period", () => {
  const accepted = (v: string) => fleetScoreQuerySchema.safeParse({ period: v }).success;

  it("matches the documented pattern exactly when the server accepts it: 0d to 1000d, with and without leading zeros", () => {
    for (let n = 0; n <= 1000; n++) {
      for (const v of [`${n}d`, `0${n}d`, `00${n}d`]) expect(PERIOD_PATTERN.test(v), v).toBe(accepted(v));
    }
    expect(accepted("365d") && accepted("1d") && !accepted("366d") && !accepted("0d")).toBe(true);
  });

  it("and on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 8 }), fc.stringMatching(/^[0-9]{1,6}d$/)), (v) => {
        expect(PERIOD_PATTERN.test(v)).toBe(accepted(v));
      }),
      { numRuns: 2000 },
    );
  });
});
