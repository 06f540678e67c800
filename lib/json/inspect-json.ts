/**
 * The checks that keep a parsed JSON value storable and unambiguous (RFC 7493, I-JSON), shared by the
 * HTTP body parser and the zod schemas of free-form members such as `raw_data`:
 * - no NUL character in any string or member name (Postgres text and jsonb cannot hold U+0000);
 * - well-formed UTF-16 (no lone surrogate: jsonb refuses them, and UTF-8 cannot encode them);
 * - finite numbers (`1e400` parses to Infinity, which JSON cannot write back);
 * - bounded nesting (a 5,000-deep array parses, but recursion over it later does not).
 * The walk is iterative, so its own depth never depends on the input.
 */

export interface JsonProblem {
  /** Path of the offending value from the inspected root (member names and array indexes). */
  path: (string | number)[];
  message: string;
}

interface JsonInspection {
  problem: JsonProblem | null;
  /** Object members seen (each object's distinct names); the body parser compares it with the text. */
  members: number;
}

/** A string Postgres and every JSON reader can hold as is: no U+0000 and no lone surrogate. */
export function isStorableString(s: string): boolean {
  return !s.includes("\u0000") && s.isWellFormed();
}

export function stringProblem(s: string): string | null {
  if (s.includes("\u0000")) return "must not contain the NUL character (U+0000)";
  if (!s.isWellFormed()) return "must be well-formed Unicode (a lone surrogate such as \\udc00 is not)";
  return null;
}

interface Frame {
  value: unknown;
  /** Where the value sits: the path is only built when a problem is found. */
  parent: Frame | null;
  key: string | number | null;
  depth: number;
}

function pathOf(frame: Frame, extra?: string | number): (string | number)[] {
  const path: (string | number)[] = extra === undefined ? [] : [extra];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) path.unshift(f.key);
  return path;
}

/** The problem of a primitive value, if any (containers are checked by the walk). */
function primitiveProblem(value: unknown): string | null {
  if (typeof value === "string") return stringProblem(value);
  if (typeof value === "number" && !Number.isFinite(value)) return "must be a finite number within the range of a double";
  return null;
}

/**
 * Walks `root` (depth-first) and reports the first problem it meets, with `maxDepth` the deepest
 * allowed level of containers (`root` itself, if an object or array, is level 1). With `values: false`
 * only the structure is judged (depth, member names); the strings and numbers are left to a later
 * check that knows their context (the MCP edge leaves a tool's arguments to the tool). Only containers get
 * a frame on the stack; primitives are checked where they sit (a 10,000-record ingest body has some
 * 250,000 of them).
 */
export function inspectJson(root: unknown, maxDepth: number, { values = true }: { values?: boolean } = {}): JsonInspection {
  let members = 0;
  const rootProblem = values ? primitiveProblem(root) : null;
  if (rootProblem) return { problem: { path: [], message: rootProblem }, members };
  if (root === null || typeof root !== "object") return { problem: null, members };
  const stack: Frame[] = [{ value: root, parent: null, key: null, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, depth } = frame;
    if (depth > maxDepth) return { problem: { path: pathOf(frame), message: `nests deeper than ${maxDepth} levels` }, members };
    const isArray = Array.isArray(value);
    const keys = isArray ? null : Object.keys(value as object);
    const length = isArray ? (value as unknown[]).length : (keys as string[]).length;
    if (!isArray) members += length;
    for (let i = 0; i < length; i++) {
      const key: string | number = isArray ? i : ((keys as string[])[i] as string);
      if (!isArray) {
        const message = stringProblem(key as string);
        if (message) return { problem: { path: pathOf(frame, key), message: `member name ${message}` }, members };
      }
      const child: unknown = (value as Record<string | number, unknown>)[key];
      if (child !== null && typeof child === "object") {
        stack.push({ value: child, parent: frame, key, depth: depth + 1 });
        continue;
      }
      const message = values ? primitiveProblem(child) : null;
      if (message) return { problem: { path: pathOf(frame, key), message }, members };
    }
  }
  return { problem: null, members };
}
