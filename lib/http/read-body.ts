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
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away mid-body (ECONNRESET, "aborted"): its request, not a server failure.
      throw new ValidationError("The request body ended before it was complete (the connection closed).", [{ field: "(body)", message: "incomplete" }]);
    }
    const { done, value } = chunk;
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
