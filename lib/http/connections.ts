import { readFileSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { Env } from "@/lib/env";
import type { Logger } from "@/lib/log/logger";

/**
 * What server.ts does with connections, apart from serving requests on them (docs/connections.md):
 * how long a client may take, how many connections may be open, what happens to a connection whose
 * client goes away or stalls, and the graceful shutdown on SIGTERM. Kept out of server.ts so that the
 * rules read in one place; server.ts wires them to its one HTTP server.
 */

export interface ConnectionSettings {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How often Node looks for requests past their timeouts (its `connectionsCheckingInterval`). */
  checkIntervalMs: number;
  maxConnections: number;
  shutdownTimeoutMs: number;
}

/** Descriptors kept for everything but client connections: database and Redis pools, PDF workers, files, logs. */
const RESERVED_FILE_DESCRIPTORS = 256;
/** MAX_CONNECTIONS when unset and the open-file limit cannot be read (not Linux). */
const FALLBACK_MAX_CONNECTIONS = 1000;

/** The soft limit on open files of this process (Linux: /proc/self/limits), or null. */
export function openFileLimit(limits?: string): number | null {
  let text = limits;
  try {
    text ??= readFileSync("/proc/self/limits", "utf8");
  } catch {
    return null;
  }
  const m = /^Max open files\s+(\d+|unlimited)\s/m.exec(text);
  if (!m?.[1] || m[1] === "unlimited") return null;
  return Number(m[1]);
}

export function connectionSettings(
  e: Pick<Env, "REQUEST_TIMEOUT_MS" | "HEADERS_TIMEOUT_MS" | "KEEP_ALIVE_TIMEOUT_MS" | "MAX_CONNECTIONS" | "SHUTDOWN_TIMEOUT_MS">,
  fileLimit = openFileLimit(),
): ConnectionSettings {
  const requestTimeoutMs = e.REQUEST_TIMEOUT_MS;
  // Node refuses a headers timeout longer than the request timeout: the headers are part of the request.
  const headersTimeoutMs = Math.min(e.HEADERS_TIMEOUT_MS, requestTimeoutMs);
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    // Node's default is 30 s, which would let a 30 s request timeout cut a request only after up to 60 s.
    // A check walks the list of connections still receiving a request: cheap once a second.
    checkIntervalMs: Math.max(100, Math.min(1_000, Math.floor(headersTimeoutMs / 4))),
    // The incident behind this (issue 28): 1,024 descriptors exhausted by connections, after which the
    // process could neither accept a connection nor open one to its database. A cap below the limit
    // keeps the descriptors the process needs for its own work.
    maxConnections: e.MAX_CONNECTIONS ?? (fileLimit === null ? FALLBACK_MAX_CONNECTIONS : Math.max(16, fileLimit - RESERVED_FILE_DESCRIPTORS)),
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}

/** Applies the timeouts and the connection cap to a server created with `serverOptions(settings)`. */
export function applyConnectionSettings(server: Server, s: ConnectionSettings): void {
  // An idle keep-alive connection stays open longer than its clients and proxies keep theirs (load
  // balancers commonly 60 s), so the server never closes a socket while a client is sending a request
  // on it. With Node's default of 5 s, a client reusing a connection idle for about 5 s could have its
  // request cut off ("other side closed"); the certificates benchmark's client met that in 9 of 11 runs
  // on one machine. Node's old advice to keep the headers timeout above this one is for Node < 18,
  // whose headers timer ran on idle connections too: since 18 it runs only while a request's headers
  // are arriving (on a new connection, from the connection on), so 10 s for headers and 65 s idle hold
  // together (tests/integration/connections.test.ts reuses a connection idle longer than the headers timeout).
  server.keepAliveTimeout = s.keepAliveTimeoutMs;
  server.maxConnections = s.maxConnections;
  // No socket inactivity timeout: a long report computes for many seconds without a byte on its
  // connection; the request timeout covers clients that stall while sending.
  server.timeout = 0;
}

/** The options of `http.createServer` that carry the settings (Node reads these only at creation). */
export function serverOptions(s: ConnectionSettings): { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number } {
  return { requestTimeout: s.requestTimeoutMs, headersTimeout: s.headersTimeoutMs, connectionsCheckingInterval: s.checkIntervalMs };
}

const DROP_LOG_INTERVAL_MS = 10_000;

type HttpSocket = Duplex & { _httpMessage?: ServerResponse | null; bytesRead?: number };

/**
 * Requests being served, the state of their connections, and the shutdown. One per server.
 */
export class ConnectionKeeper {
  private readonly inFlight = new Set<ServerResponse>();
  /** Connections whose request was answered before its body had arrived: Node still reads that body. */
  private readonly answeredBeforeBody = new WeakSet<Duplex>();
  private draining = false;
  private drained: (() => void) | null = null;

  constructor(
    private readonly server: Server,
    private readonly settings: ConnectionSettings,
    private readonly log: Logger,
  ) {
    // Node closes a connection beyond maxConnections before any byte is read; say so in the log,
    // once per DROP_LOG_INTERVAL_MS with the count, not once per connection (a flood would flood it).
    let dropped = 0;
    let timer: NodeJS.Timeout | null = null;
    server.on("drop", () => {
      if (timer) {
        dropped++;
        return;
      }
      this.log.warn({ max_connections: settings.maxConnections }, "connection limit reached: new connections are closed");
      timer = setTimeout(() => {
        timer = null;
        if (dropped > 0) this.log.warn({ dropped, max_connections: settings.maxConnections }, "connection limit: connections closed since the last line");
        dropped = 0;
      }, DROP_LOG_INTERVAL_MS).unref();
    });
  }

  /** Called first for every request: counts it until its answer is written or its connection gone. */
  track(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight.add(res);
    const socket = req.socket;
    res.once("finish", () => {
      if (req.complete) return;
      this.answeredBeforeBody.add(socket);
      req.once("end", () => this.answeredBeforeBody.delete(socket));
    });
    res.once("close", () => {
      this.inFlight.delete(res);
      if (!this.draining) return;
      // Its connection is idle now: close it rather than wait for a request that must not come.
      this.server.closeIdleConnections();
      if (this.inFlight.size === 0) this.drained?.();
    });
    // A request that arrived on a connection already open at the signal (pipelined): served, then closed.
    if (this.draining) res.setHeader("Connection", "close");
  }

  /**
   * Node's `clientError`: a request it could not parse, a client that closed its side mid-request, a
   * request past its timeout. `answer` is the raw HTTP answer for the case (408 for a timeout, else 400).
   *
   * The cause of the CLOSE_WAIT leak of issue 28 was here: a client that announced a body, sent part of
   * it and closed got a parse error ("Invalid EOF state") while its request was in flight, and the
   * answer was held back until that request's answer was finished, which waited for the rest of the
   * body, for ever. A request whose own body is cut short is answered (if nothing was written yet) and
   * its connection destroyed now, which also ends the handler's wait (the body stream errors).
   */
  clientError(err: NodeJS.ErrnoException, socket: HttpSocket, answer: string): void {
    if (err.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const inFlight = socket._httpMessage ?? null;
    const bodyCutShort = inFlight !== null && !(inFlight.req as IncomingMessage | undefined)?.complete;
    const answered = inFlight === null && this.answeredBeforeBody.has(socket);
    if (bodyCutShort || answered) {
      // The error is about the request in flight (or one answered already, whose body Node still
      // reads): its handler can never have its body. Answer if nothing was written for it yet.
      if (inFlight && !inFlight.headersSent) socket.write(answer);
      socket.destroy();
      return;
    }
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
      // Headers too slow. A pipelined request behind one still being served waits for that answer;
      // a connection that never sent a byte (a browser's preconnect, a stalled client) gets none.
      if (inFlight) endAfterInFlight(socket, answer, { destroy: true });
      else {
        if ((socket.bytesRead ?? 0) > 0) socket.write(answer);
        socket.destroy();
      }
      return;
    }
    endAfterInFlight(socket, answer);
  }

  /**
   * SIGTERM/SIGINT (CONTRACT "Reliability and hardening"): stop accepting connections, close idle
   * keep-alive ones, let requests in flight finish (their connections close after the answer) for up
   * to SHUTDOWN_TIMEOUT_MS, then `cleanup` (PDF workers, database pools) and exit 0. A repeated
   * signal changes nothing: npm (and under `npm run dev` tsx) relays the one a process manager sends to
   * the whole group, so the server gets it up to three times within milliseconds.
   */
  async shutdown(signal: string, cleanup: () => Promise<void>, exit: (code: number) => void = (code) => process.exit(code)): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    const started = Date.now();
    // Stops listening (new connections are refused) and, on Node ≥ 19, closes the idle connections;
    // before the log line, so that whoever reads "shutdown started" finds the port closed.
    this.server.close();
    this.server.closeIdleConnections();
    this.log.info({ signal, in_flight: this.inFlight.size, timeout_ms: this.settings.shutdownTimeoutMs }, "shutdown started: no new connections; finishing the requests in flight");
    for (const res of this.inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    let cut = 0;
    if (this.inFlight.size > 0) {
      const finished = new Promise<void>((resolve) => (this.drained = resolve));
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), this.settings.shutdownTimeoutMs)));
      if ((await Promise.race([finished, timedOut])) === "timeout") cut = this.inFlight.size;
      clearTimeout(timer);
    }
    if (cut > 0) this.log.warn({ cut, timeout_ms: this.settings.shutdownTimeoutMs }, "shutdown: requests still in flight at the timeout are cut");
    // What is left: connections still sending headers (no request yet), and those of cut requests.
    this.server.closeAllConnections();
    try {
      await cleanup();
    } catch (err) {
      this.log.error({ err }, "shutdown: cleanup failed");
    }
    this.log.info({ ms: Date.now() - started, cut }, "shutdown complete");
    exit(0);
  }
}

/**
 * Writes a raw answer on a connection after the answer already under way on it (a pipelined request
 * that is still being served) has gone out: a broken or CONNECT follow-up must not replace it.
 */
export function endAfterInFlight(socket: Duplex, answer: string, { destroy = false } = {}): void {
  let ended = false;
  const end = () => {
    if (ended || socket.destroyed) return;
    ended = true;
    // `destroy`: a client that stalled will not close its side; release the connection once written.
    if (destroy) {
      socket.write(answer);
      socket.destroy();
    } else socket.end(answer);
  };
  const inFlight = (socket as HttpSocket)._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    inFlight.once("finish", end);
    inFlight.once("close", end);
    return;
  }
  end();
}
