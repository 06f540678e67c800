import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface AppProcess {
  url: string;
  output: () => string;
  /** The pid of the node process that runs the server (npm, and under `npm run dev` tsx's launcher, sit above it). */
  serverPid(): number;
  stop(): Promise<void>;
  /** Sends `signal` to npm alone, as a process manager that knows only the process it started does. */
  signal(signal: NodeJS.Signals): void;
  /** Resolves with npm's exit code (the server's, relayed by npm) once it has exited. */
  exited: Promise<number | null>;
}

/** What the command line of the server's process names: `npm run dev`'s, `npm start`'s. */
const SERVER_ENTRIES = ["server.ts", "scripts/start-production.mjs"];

/**
 * The process of group `groupId` that runs the server itself: of the group's processes whose command line
 * names its entry (server.ts under `npm run dev`, where tsx's launcher and its node child both do;
 * scripts/start-production.mjs under `npm start`), the one that is nobody's parent.
 */
function serverProcessOf(groupId: number): number {
  const procs: { pid: number; ppid: number; cmd: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; comm may hold spaces, so split after ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) !== groupId) continue;
      procs.push({ pid: Number(entry), ppid: Number(ppid), cmd: readFileSync(`/proc/${entry}/cmdline`, "utf8") });
    } catch {
      // the process ended while we looked
    }
  }
  const servers = procs.filter((p) => SERVER_ENTRIES.some((entry) => p.cmd.includes(entry)));
  const leaf = servers.find((p) => !servers.some((q) => q.ppid === p.pid));
  if (!leaf) throw new Error(`no server process (${SERVER_ENTRIES.join(" or ")}) in group ${groupId}`);
  return leaf.pid;
}

/**
 * Starts the real service as a user does (`npm start` after a build, or `npm run dev`; or `command`, a
 * process started as it is, such as the self-host build's `node server.mjs`), waits until /api/health
 * answers 200 (which also means migrations and the sandbox seed are done).
 */
export async function startApp({
  mode,
  env,
  readyTimeoutMs = 240_000,
  command,
}: {
  mode: "start" | "dev";
  env: Record<string, string | undefined>;
  readyTimeoutMs?: number;
  /**
   * Run instead of npm: argv[0] is the executable; the process itself is the server. With `cleanEnv`
   * it inherits nothing from the test process but PATH, as in a container: only `env` and the port.
   */
  command?: { argv: [string, ...string[]]; cwd: string; cleanEnv?: boolean };
}): Promise<AppProcess> {
  const port = await freePort();
  // NODE_ENV is left out: npm start sets production itself, and dev must not inherit vitest's "test".
  const { NODE_ENV: _vitestNodeEnv, ...inherited }: Record<string, string | undefined> = command?.cleanEnv ? { PATH: process.env.PATH } : process.env;
  // A production start on Postgres needs the session secret every instance shares (lib/dashboard/auth-secret.ts);
  // the test servers of one run share this one. A test may still override or unset it through `env`.
  const childEnv: Record<string, string | undefined> = {
    ...(command?.cleanEnv ? {} : { AUTH_SECRET: "test-only-session-secret-0123456789abcdef0123456789" }),
    ...inherited,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
  };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  const [file, ...args] = command?.argv ?? ["npm", "run", "--silent", mode];
  const child: ChildProcess = spawn(file, args, { cwd: command?.cwd ?? ROOT, env: childEnv as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout?.on("data", (d: Buffer) => (log += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const exitedWith = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      process.kill(-child.pid, "SIGTERM"); // the whole group: npm, tsx and the server
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* already gone */
      }
    }, 8000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`app exited early (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.status === 200)
        return { url, output: () => log, serverPid: () => (command ? child.pid! : serverProcessOf(child.pid!)), stop, signal: (sig) => void child.kill(sig), exited: exitedWith };
    } catch {
      /* not listening yet */
    }
    // A refused connection answers at once: a short interval notices readiness within 0.1 s.
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`app not ready within ${readyTimeoutMs} ms:\n${log}`);
}
