import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ForbiddenError, ValidationError } from "@/lib/errors";
import { rootLogger } from "@/lib/log/logger";
import { defineOperation, type Operation } from "@/lib/operations/define-operation";
import { invokeOperation, type Invocation } from "@/lib/operations/invoke-operation";
import { getTasOperation } from "@/lib/operations/scores";
import { OutputInvariantError } from "@/lib/validation";

/**
 * The one pipeline REST and MCP run an operation through: scope → raw input → validation → verb →
 * output check, each step refusing before the next one runs.
 */
const log = rootLogger();
const ctx = { db: undefined as never, log };

function publicOperation(verb: (input: { n: number }) => unknown): Operation {
  // The rule's fix (dropping `as Operation`-like widening of the literal operation) breaks the verb's
  // input inference here: tsc then types `input` as the generic Record.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  return defineOperation({
    id: "testEcho",
    method: "GET",
    path: "/test/echo",
    access: { public: true },
    tag: "Fleet",
    summary: "Echo",
    input: { query: z.object({ n: z.coerce.number().int().min(1).default(3) }) },
    output: z.object({ doubled: z.number().int() }),
    requestExample: {},
    verb: async ({ input }) => verb(input) as never,
  }) as unknown as Operation;
}

const invoke = (op: Operation, rawInput: Invocation["rawInput"], scopes: Invocation["scopes"] = new Set()) =>
  invokeOperation({ op, ctx, scopes, lacksScope: (scope) => `lacks ${scope}`, rawInput, log });

describe("invokeOperation", () => {
  it("refuses a key without the operation's scope in the surface's words, before reading any input", async () => {
    let read = false;
    const err = await invoke(getTasOperation as unknown as Operation, () => ((read = true), {})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as ForbiddenError).message).toBe("lacks scores:read");
    expect(read).toBe(false);
  });

  it("validates the raw input with the operation's schema before the verb runs", async () => {
    let ran = false;
    const op = publicOperation(() => ((ran = true), { doubled: 0 }));
    const err = await invoke(op, () => ({ n: "1.5" })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).details?.[0]?.field).toBe("n");
    expect(ran).toBe(false);
  });

  it("hands the verb the validated input and answers the checked output", async () => {
    const op = publicOperation(({ n }) => ({ doubled: n * 2, internal: "dropped by the output schema" }));
    expect(await invoke(op, async () => ({}))).toEqual({ input: { n: 3 }, answer: { doubled: 6 } });
    expect((await invoke(op, () => ({ n: "4" }))).answer).toEqual({ doubled: 8 });
  });

  it("refuses an answer that breaks the output schema, and passes a file (a Response) through as it is", async () => {
    await expect(
      invoke(
        publicOperation(() => ({ doubled: 0.5 })),
        () => ({}),
      ),
    ).rejects.toBeInstanceOf(OutputInvariantError);
    const file = new Response("%PDF");
    expect(
      (
        await invoke(
          publicOperation(() => file),
          () => ({}),
        )
      ).answer,
    ).toBe(file);
  });
});
