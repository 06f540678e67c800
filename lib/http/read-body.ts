import { PayloadTooLargeError, ValidationError } from "@/lib/errors";

/**
 * Reads a request body up to `maxBytes`, refusing a larger one as soon as it is known: from
 * Content-Length before reading anything, else while streaming, without buffering the rest.
 */
export async function readBodyLimited(req: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new PayloadTooLargeError(`The request body exceeds ${maxBytes} bytes (${Math.round(maxBytes / 1048576)} MiB).`);
  const declared = req.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Parses a JSON object body; anything else is a 400 with a clear message. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new ValidationError("The request body is not valid JSON (UTF-8).", [{ field: "(body)", message: "invalid JSON" }]);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ValidationError("The request body must be a JSON object.", [{ field: "(body)", message: "expected an object" }]);
  }
  return value as Record<string, unknown>;
}
