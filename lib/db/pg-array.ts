/**
 * Postgres array literals for `unnest($n::type[])` parameters: a whole column of a batch travels as
 * one text parameter that the server parses natively (faster than jsonb_to_recordset, and far cheaper
 * on the client than a driver's per-element array serialiser).
 */

/**
 * Characters where JSON and Postgres array quoting part ways: JSON writes control characters and lone
 * surrogates as `\n`, `\u0001`, `\udc00`…, which an array literal would read as plain letters.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const JSON_ESCAPED = /[\u0000-\u001f\ud800-\udfff]/;

/**
 * `{"a","b\"c",NULL}`: every string quoted; inside quotes only `\` and `"` need escaping, which is
 * exactly what JSON.stringify does, so the native serialiser writes the common case (~5× faster).
 */
export function textArray(values: readonly (string | null)[]): string {
  if (!values.some((v) => v !== null && JSON_ESCAPED.test(v))) return `{${JSON.stringify(values).slice(1, -1)}}`;
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    const v = values[i];
    out += v === null || v === undefined ? "NULL" : `"${v.replace(/[\\"]/g, "\\$&")}"`;
  }
  return out + "}";
}

/** `{1.5,null,-3}` from finite numbers (callers validate finiteness; `null` reads as NULL). */
export function numberArray(values: readonly (number | null)[]): string {
  return `{${JSON.stringify(values).slice(1, -1)}}`;
}
