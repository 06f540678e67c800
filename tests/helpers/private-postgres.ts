import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import path from "node:path";
import postgres from "postgres";
import { freePort } from "./app-process";

/**
 * A Postgres cluster of the test's own (initdb in a temp dir, its own port on 127.0.0.1), for tests
 * that stop, restart or break the server: the machine's shared Postgres must never be touched that way.
 * As tests/db/read-replica.test.ts does, the server binaries run as the `postgres` OS user when the
 * tests run as root (the server refuses root).
 */

function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (set PG_BIN)");
  return path.join(root, newest, "bin");
}

/** Runs a server binary; as root, as the `postgres` OS user (the server refuses root). */
export function asPostgres(bin: string, args: string[]): string {
  const exe = path.join(pgBin(), bin);
  const isRoot = process.getuid?.() === 0;
  return execFileSync(isRoot ? "runuser" : exe, isRoot ? ["-u", "postgres", "--", exe, ...args] : args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000 });
}

/** The same, without blocking the event loop: the app under test keeps answering while pg_ctl works. */
async function asPostgresAsync(bin: string, args: string[]): Promise<void> {
  const exe = path.join(pgBin(), bin);
  const isRoot = process.getuid?.() === 0;
  await promisify(execFile)(isRoot ? "runuser" : exe, isRoot ? ["-u", "postgres", "--", exe, ...args] : args, { timeout: 60_000 });
}

export interface PrivateCluster {
  port: number;
  /** URL of the database `fdp`, created at start. */
  url: string;
  start(): Promise<void>;
  /** `fast` ends sessions cleanly (57P01 to each), `immediate` as a crash would. */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Stops (if running) and removes the cluster's folder. */
  dispose(): void;
}

export async function startPrivateCluster(prefix = "fdp-pg-"): Promise<PrivateCluster> {
  const root = mkdtempSync(`/tmp/${prefix}`);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(root, uid, gid);
  }
  const port = await freePort();
  const dir = path.join(root, "data");
  const log = path.join(root, "server.log");
  let running = false;
  asPostgres("initdb", ["-D", dir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  appendFileSync(
    path.join(dir, "postgresql.conf"),
    `port = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\nmax_connections = 60\nshared_buffers = 32MB\nfsync = off\nfull_page_writes = off\nlog_min_messages = warning\n`,
  );
  const cluster: PrivateCluster = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/fdp`,
    async start() {
      await asPostgresAsync("pg_ctl", ["-D", dir, "-l", log, "-w", "-t", "60", "start"]);
      running = true;
    },
    async stop(mode = "fast") {
      if (!running) return;
      try {
        await asPostgresAsync("pg_ctl", ["-D", dir, "-m", mode, "-w", "stop"]);
      } catch {
        // already gone
      }
      running = false;
    },
    dispose() {
      if (running) {
        try {
          asPostgres("pg_ctl", ["-D", dir, "-m", "immediate", "-w", "stop"]);
        } catch {
          // already gone
        }
      }
      running = false;
      rmSync(root, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
    const admin = postgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 1, onnotice: () => {} });
    await admin.unsafe("create database fdp");
    await admin.end();
  } catch (err) {
    cluster.dispose();
    throw err;
  }
  return cluster;
}
