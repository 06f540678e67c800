import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 string (rejection sampling, so no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Prefixed identifiers (`tn_…`, `key_…`, `usr_…`, `alt_…`): readable in logs, unguessable. */
export function newId(prefix: string, length = 20): string {
  return `${prefix}_${randomBase62(length)}`;
}
