import { connect } from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body's bytes (a compressed answer is not text). */
  raw: Buffer;
}

/**
 * Sends bytes exactly as given (fetch would normalise `%2e%2e`, refuse TRACE, fix bad framing) and
 * reads the answer until the server closes the connection.
 */
export function rawRequest(url: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.setTimeout(15_000, () => socket.destroy(new Error("raw request timed out")));
    socket.on("close", () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf("\r\n\r\n");
      const head = all.subarray(0, split === -1 ? all.length : split).toString("latin1");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      let body: Buffer = split === -1 ? Buffer.alloc(0) : all.subarray(split + 4);
      if (headers["transfer-encoding"] === "chunked") body = dechunk(body);
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: body.toString("utf8"), raw: body });
    });
  });
}

/** The payload of a chunked body (chunk sizes count bytes, so this works on bytes). */
function dechunk(b: Buffer): Buffer {
  const parts: Buffer[] = [];
  let i = 0;
  for (;;) {
    const lineEnd = b.indexOf("\r\n", i);
    const size = parseInt(b.subarray(i, lineEnd).toString("latin1"), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(b.subarray(lineEnd + 2, lineEnd + 2 + size));
    i = lineEnd + 2 + size + 2;
  }
}

/** A one-shot request line + headers (Connection: close), with an optional body. */
export function requestText(method: string, target: string, headers: Record<string, string> = {}, body = ""): string {
  const all = { Host: "localhost", Connection: "close", ...(body ? { "Content-Length": String(Buffer.byteLength(body)) } : {}), ...headers };
  return `${method} ${target} HTTP/1.1\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n")}\r\n\r\n${body}`;
}
