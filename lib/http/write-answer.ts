import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip, gzipSync } from "node:zlib";
import { acceptsGzip } from "./accept-encoding";
import { jsonBodyOf } from "./respond";

/**
 * How a handler's Web Response goes out on Node's response (lib/http/api-request-handler.ts): the
 * status and headers as they are, `Vary: Accept-Encoding`, and gzip for a client that accepts it on
 * JSON and text answers of at least COMPRESS_MIN_BYTES (GZIP_LEVEL below), as Next.js's compression
 * middleware did when Next.js served the API.
 */

/** Next.js's compression threshold (the `compression` middleware's default): smaller answers go as they are. */
const COMPRESS_MIN_BYTES = 1024;
const gzipAsync = promisify(gzip);
/**
 * zlib's fastest level, as nginx's default (`gzip_comp_level 1`): the 128 KB /fleet page becomes 18 KB
 * in 0.44 ms instead of 14 KB in 0.91 ms at the default level 6 (measured in process on that page).
 */
const GZIP_LEVEL = 1;
/**
 * Up to this size the answer is compressed on the main thread (`gzipSync`), above it on libuv's thread
 * pool. For the 128 KB /fleet page the synchronous call costs 0.27–0.35 ms of CPU against 0.45–0.63 ms
 * for the asynchronous one (its stream machinery and the hand-off to and from the pool thread; measured
 * with process.cpuUsage on the 2-core bench machine), and on a machine whose cores Postgres and the
 * clients share, CPU is what limits throughput. 256 KB keeps the event loop blocked under a millisecond;
 * larger answers (CSV reports) still go to the pool.
 */
const GZIP_SYNC_MAX_BYTES = 256 * 1024;

/** JSON and text answers (CSV) are compressed; PDFs are compressed already. */
const COMPRESSIBLE = /^(application\/json|text\/)/i;

/** Writes a handler's Response on the Node response: headers, `Vary`, gzip when accepted (see above), the body. */
export async function writeAnswer(
  req: Pick<IncomingMessage, "headers">,
  res: Pick<ServerResponse, "statusCode" | "setHeader" | "end">,
  response: Response,
  head: boolean,
): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.setHeader("Vary", "Accept-Encoding");
  // A JSON answer made by jsonResponse is written from its text (Node encodes it on the socket, as the
  // bench's floor writes its answer), its stream left unread; anything else is read back.
  let body: string | Buffer | null = jsonBodyOf(response) ?? (response.body ? Buffer.from(await response.arrayBuffer()) : null);
  const bytes = body === null ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.length;
  if (
    body !== null &&
    bytes >= COMPRESS_MIN_BYTES &&
    COMPRESSIBLE.test(response.headers.get("content-type") ?? "") &&
    !response.headers.has("content-encoding") &&
    acceptsGzip(req.headers["accept-encoding"])
  ) {
    body = bytes <= GZIP_SYNC_MAX_BYTES ? gzipSync(body, { level: GZIP_LEVEL }) : await gzipAsync(body, { level: GZIP_LEVEL });
    res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", String(body.length));
  } else if (body !== null) res.setHeader("Content-Length", String(bytes));
  res.end(head ? undefined : (body ?? undefined));
}

/**
 * Writes an answer as it is, uncompressed and without `Vary`: the edge's own small answers (the edge
 * guard's refusals, the 417 to an unsupported `Expect`), given before any route is chosen.
 */
export async function sendAnswer(res: Pick<ServerResponse, "statusCode" | "setHeader" | "end">, answer: Response): Promise<void> {
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(Buffer.from(await answer.arrayBuffer()));
}
