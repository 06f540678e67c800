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

export interface JsonInspection {
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

function pathOf(frame: Frame, extra?: string): (string | number)[] {
  const path: (string | number)[] = extra === undefined ? [] : [extra];
  for (let f: Frame | null = frame; f && f.key !== null; f = f.parent) path.unshift(f.key);
  return path;
}

/**
 * Walks `root` (depth-first) and reports the first problem it meets, with `maxDepth` the
 * deepest allowed level of containers (`root` itself, if an object or array, is level 1).
 */
export function inspectJson(root: unknown, maxDepth: number): JsonInspection {
  let members = 0;
  const stack: Frame[] = [{ value: root, parent: null, key: null, depth: 1 }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const { value, depth } = frame;
    if (typeof value === "string") {
      const message = stringProblem(value);
      if (message) return { problem: { path: pathOf(frame), message }, members };
    } else if (typeof value === "number") {
      if (!Number.isFinite(value)) return { problem: { path: pathOf(frame), message: "must be a finite number within the range of a double" }, members };
    } else if (value !== null && typeof value === "object") {
      if (depth > maxDepth) return { problem: { path: pathOf(frame), message: `nests deeper than ${maxDepth} levels` }, members };
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: frame, key: i, depth: depth + 1 });
      } else {
        const keys = Object.keys(value);
        members += keys.length;
        for (let i = keys.length - 1; i >= 0; i--) {
          const key = keys[i] as string;
          const message = stringProblem(key);
          if (message) return { problem: { path: pathOf(frame, key), message: `member name ${message}` }, members };
          stack.push({ value: (value as Record<string, unknown>)[key], parent: frame, key, depth: depth + 1 });
        }
      }
    }
  }
  return { problem: null, members };
}
