import { describe, expect, it } from "vitest";
import { requestLogger } from "@/lib/log/logger";
import { parseTraceparent } from "@/lib/log/trace-context";
import { captureLog } from "../../helpers/log-capture";

/** W3C Trace Context, "traceparent Header": the recommendation's own example and its rules for a receiver. */
const EXAMPLE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

describe("parseTraceparent", () => {
  it("reads the recommendation's example", () => {
    expect(parseTraceparent(EXAMPLE)).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentId: "00f067aa0ba902b7", flags: "01" });
    expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.flags).toBe("00");
  });

  it("reads a later version's first four fields and passes over what it adds", () => {
    expect(parseTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-next")?.traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
  });

  it.each([
    ["absent", null],
    ["empty", ""],
    ["uppercase hex", EXAMPLE.toUpperCase()],
    ["version ff", `ff${EXAMPLE.slice(2)}`],
    ["version 00 with more fields", `${EXAMPLE}-extra`],
    ["an all-zero trace id", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"],
    ["an all-zero parent id", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01"],
    ["a short trace id", "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01"],
    ["a long parent id", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b70-01"],
    ["not hex", "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01"],
    ["another separator", EXAMPLE.replaceAll("-", "_")],
    ["a header past 512 characters", `01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-${"a".repeat(500)}`],
  ])("ignores %s", (_, header) => {
    expect(parseTraceparent(header)).toBeNull();
  });
});

describe("requestLogger with a traceparent", () => {
  it("puts the caller's trace id and span on every line of the request; an invalid header adds nothing", () => {
    const cap = captureLog();
    requestLogger({ requestId: "req_1", operation: "getFleet", traceparent: EXAMPLE }, cap.logger).info("one");
    requestLogger({ requestId: "req_2", operation: "getFleet", traceparent: "00-nonsense" }, cap.logger).info("two");
    const [one, two] = cap.records();
    expect(one).toMatchObject({ request_id: "req_1", trace_id: "4bf92f3577b34da6a3ce929d0e0e4736", parent_span_id: "00f067aa0ba902b7" });
    expect(two).toMatchObject({ request_id: "req_2" });
    expect(two).not.toHaveProperty("trace_id");
    expect(two).not.toHaveProperty("parent_span_id");
  });
});
