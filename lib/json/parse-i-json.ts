import { ValidationError } from "@/lib/errors";
import { inspectJson, type JsonProblem } from "./inspect-json";

/**
 * Request bodies are I-JSON (RFC 7493; CONTRACT "Errors"): UTF-8, no duplicate member names, no lone
 * surrogates, and, for storage, no NUL character and finite numbers. Nesting is bounded too. A body
 * that breaks any of these is a 400 `invalid_request` naming the offending member.
 *
 * Duplicate names matter beyond tidiness: `JSON.parse` keeps the last one silently, so two readers of
 * the same bytes (a signature checker, a proxy, FDP) could disagree about what was sent.
 */

/** Deepest nesting of any JSON body (the body object itself is level 1). `raw_data` has its own, lower bound. */
export const JSON_BODY_MAX_DEPTH = 32;

const field = (path: (string | number)[]) => (path.length === 0 ? "(body)" : path.map(String).join("."));

/** The 400 for a body whose value at `problem.path` breaks the I-JSON rules. */
export function bodyProblemError(problem: JsonProblem): ValidationError {
  return new ValidationError(`The request body is not acceptable JSON: ${field(problem.path)} ${problem.message}.`, [{ field: field(problem.path), message: problem.message }]);
}

/**
 * Parses a JSON body under the I-JSON rules: any JSON value (an object, an array, …). Fast path: one
 * scan of the text (depth, member names), `JSON.parse`, one iterative walk of the result; only when
 * the text holds more member names
 * than the parsed objects (a name was repeated) does a slower scan find which. `checkValues: false`
 * judges the structure only (UTF-8, depth, member names, duplicates) and leaves strings and numbers
 * to the caller.
 */
export function parseIJson(bytes: Uint8Array, { checkValues = true }: { checkValues?: boolean } = {}): unknown {
  let text: string;
  let value: unknown;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ValidationError("The request body is not valid UTF-8.", [{ field: "(body)", message: "invalid UTF-8" }]);
  }
  // Depth first, on the text: JSON.parse itself takes seconds and a gigabyte on 5 million nested
  // brackets, which a 10 MiB body can hold.
  const scan = scanJsonText(text, JSON_BODY_MAX_DEPTH);
  if (scan.tooDeep) {
    throw new ValidationError(`The request body is not acceptable JSON: it nests deeper than ${JSON_BODY_MAX_DEPTH} levels.`, [
      { field: "(body)", message: `nests deeper than ${JSON_BODY_MAX_DEPTH} levels` },
    ]);
  }
  try {
    value = JSON.parse(text);
  } catch {
    // V8's own message quotes a snippet of the body; the answer says only what is wrong.
    throw new ValidationError("The request body is not valid JSON.", [{ field: "(body)", message: "invalid JSON" }]);
  }
  const { problem, members } = inspectJson(value, JSON_BODY_MAX_DEPTH, { values: checkValues });
  if (problem) throw bodyProblemError(problem);
  if (scan.members !== members) {
    const path = duplicatePath(text) ?? [];
    throw new ValidationError(`The request body repeats the member name ${field(path)}; each name may appear once per object (I-JSON).`, [
      { field: field(path), message: "duplicate member name" },
    ]);
  }
  return value;
}

/** `parseIJson` of a body that must be a JSON object. */
export function parseIJsonObject(bytes: Uint8Array, options: { checkValues?: boolean } = {}): Record<string, unknown> {
  const value = parseIJson(bytes, options);
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("The request body must be a JSON object.", [{ field: "(body)", message: "expected an object" }]);
  }
  return value as Record<string, unknown>;
}

/** Index just past the string token that opens at `start` (a `"`); -1 when it never closes (invalid JSON). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return -1;
    // A quote preceded by an odd run of backslashes is escaped.
    let backslashes = 0;
    for (let j = quote - 1; text.charCodeAt(j) === 92; j--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * One pass over the text before it is parsed: the nesting depth (stopping as soon as it passes
 * `maxDepth`) and the number of member names (string tokens followed, after white space, by `:`).
 * Outside strings JSON has no `"`, so jumping from quote to quote visits exactly the string tokens;
 * on invalid text the figures are meaningless but the scan still ends (JSON.parse then refuses it).
 */
export function scanJsonText(text: string, maxDepth: number): { members: number; tooDeep: boolean } {
  let depth = 0;
  let members = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      if (end === -1) break;
      let j = end;
      while (isJsonSpace(text.charCodeAt(j))) j++;
      if (text.charCodeAt(j) === 58 /* : */) members++;
      i = end - 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > maxDepth) return { members, tooDeep: true };
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return { members, tooDeep: false };
}

/** The path of the first repeated member name, by a full (slower) scan of valid JSON text. */
function duplicatePath(text: string): (string | number)[] | null {
  type Container = { names: Set<string> | null; key: string | number | null; index: number };
  const stack: Container[] = [];
  let pendingKey: string | null = null;
  const pathTo = (last: string) => [...stack.slice(1).map((c) => c.key as string | number), last];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 123 /* { */ || c === 91 /* [ */) {
      const key = top ? (top.names ? pendingKey : top.index) : null;
      stack.push({ names: c === 123 ? new Set() : null, key, index: 0 });
      pendingKey = null;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
    } else if (c === 44 /* , */ && top && !top.names) {
      top.index++;
    } else if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      let j = end;
      while (isJsonSpace(text.charCodeAt(j))) j++;
      if (top?.names && text.charCodeAt(j) === 58) {
        const name = JSON.parse(text.slice(i, end)) as string;
        if (top.names.has(name)) return pathTo(name);
        top.names.add(name);
        pendingKey = name;
      }
      i = end - 1;
    }
  }
  return null;
}
