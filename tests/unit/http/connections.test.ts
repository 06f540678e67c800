import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { applyConnectionSettings, ConnectionKeeper, connectionSettings, openFileLimit, serverOptions, type ConnectionSettings } from "@/lib/http/connections";
import { captureLog } from "../../helpers/log-capture";

/**
 * lib/http/connections.ts on a plain Node server, in milliseconds: the settings, a client that goes
 * away mid-body (the cause of issue 28's CLOSE_WAIT leak), and the shutdown's cut at its timeout,
 * which the integration test (tests/integration/connections.test.ts, the built app) does not reach.
 */

const BASE = { REQUEST_TIMEOUT_MS: 30_000, HEADERS_TIMEOUT_MS: 10_000, KEEP_ALIVE_TIMEOUT_MS: 65_000, MAX_CONNECTIONS: undefined, SHUTDOWN_TIMEOUT_MS: 25_000 };

describe("connectionSettings", () => {
  it("reads the open-file limit's soft value from /proc/self/limits text", () => {
    const limits =
      "Limit                     Soft Limit           Hard Limit           Units     \nMax open files            1024                 524288               files     \n";
    expect(openFileLimit(limits)).toBe(1024);
    expect(openFileLimit("Max open files            unlimited            unlimited            files\n")).toBeNull();
  });

  it("caps connections 256 below the open-file limit unless MAX_CONNECTIONS is set; headers never outlast the request", () => {
    expect(connectionSettings(BASE, 1024).maxConnections).toBe(768);
    expect(connectionSettings(BASE, null).maxConnections).toBe(1000);
    expect(connectionSettings({ ...BASE, MAX_CONNECTIONS: 50 }, 1024).maxConnections).toBe(50);
    const s = connectionSettings({ ...BASE, REQUEST_TIMEOUT_MS: 5_000, HEADERS_TIMEOUT_MS: 10_000 }, 1024);
    expect(s.headersTimeoutMs).toBe(5_000);
    expect(s.checkIntervalMs).toBe(1_000);
    expect(connectionSettings({ ...BASE, REQUEST_TIMEOUT_MS: 1_000, HEADERS_TIMEOUT_MS: 600 }, 1024).checkIntervalMs).toBe(150);
  });
});

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A server wired as server.ts wires it, whose handler is `handler`. */
async function serve(settings: Partial<ConnectionSettings>, handler: Parameters<typeof createServer>[1]) {
  const s: ConnectionSettings = { ...connectionSettings(BASE, 1024), ...settings };
  const log = captureLog();
  const exits: number[] = [];
  server = createServer(serverOptions(s), (req, res) => {
    keeper.track(req, res);
    handler!(req, res);
  });
  const keeper = new ConnectionKeeper(server, s, log.logger);
  applyConnectionSettings(server, s);
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => keeper.clientError(err, socket, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"));
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { port: (server.address() as AddressInfo).port, keeper, log, exits, exit: (code: number) => void exits.push(code) };
}

describe("a client that goes away mid-body", () => {
  it("is answered and its connection closed at once while the handler still waits for the body", async () => {
    let handlerSawError = false;
    const { port } = await serve({}, (req, res) => {
      // A handler that reads the whole body before answering, as every body reader does.
      req.on("error", () => (handlerSawError = true));
      req.on("end", () => res.end("never"));
      req.resume();
    });
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{"a":1,"');
        socket.end();
      });
      let data = "";
      socket.on("data", (d: Buffer) => (data += d.toString()));
      socket.on("error", () => {});
      // Resolves only if the server closes its side too (a leaked socket would sit in CLOSE_WAIT).
      socket.on("close", () => resolve(data));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    await expect.poll(() => handlerSawError).toBe(true);
    expect(await new Promise<number>((r) => server!.getConnections((_err, n) => r(n)))).toBe(0);
  }, 10_000); // a leaked socket never closes: fail in 10 s rather than the project's 60
});

describe("shutdown", () => {
  it("cuts a request still in flight at SHUTDOWN_TIMEOUT_MS, logs it, cleans up and exits 0", async () => {
    let received!: () => void;
    const inFlight = new Promise<void>((r) => (received = r));
    const { port, keeper, log, exits, exit } = await serve({ shutdownTimeoutMs: 200 }, () => received()); // never answers
    const closed = new Promise<void>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
      socket.on("error", () => {});
      socket.on("close", () => resolve());
    });
    await inFlight;
    let cleaned = false;
    await keeper.shutdown("SIGTERM", async () => void (cleaned = true), exit);
    await closed;
    expect(cleaned).toBe(true);
    expect(exits).toEqual([0]);
    const records = log.records();
    expect(records.map((r) => r.msg)).toEqual([
      "shutdown started: no new connections; finishing the requests in flight",
      "shutdown: requests still in flight at the timeout are cut",
      "shutdown complete",
    ]);
    expect(records[0]).toMatchObject({ signal: "SIGTERM", in_flight: 1 });
    expect(records[2]).toMatchObject({ cut: 1 });
    // A second signal (npm and tsx relay the first) does nothing.
    await keeper.shutdown("SIGTERM", async () => {}, exit);
    expect(exits).toEqual([0]);
  });
});
