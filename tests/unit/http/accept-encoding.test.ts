import { describe, expect, it } from "vitest";
import { acceptsGzip } from "@/lib/http/accept-encoding";

describe("Accept-Encoding", () => {
  it.each([
    ["gzip", true],
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["GZIP", true],
    ["gzip;q=0", false],
    ["gzip;q=0.0, *", false],
    ["*;q=0", false],
    ["identity", false],
    ["", false],
    [undefined, false],
    ["deflate, *;q=0.1", true],
  ] as const)("%s → %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
