import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "../../tests/helpers/app-process";
import { ROOT } from "./app";

/**
 * What the CPU-profile tools share (bench/profile-read.ts, bench/profile-ingest.ts): the built app
 * started with `--cpu-prof`, the server's profile file, and self time by where the code lives.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileBreakdown {
  /** Self time (ms) by where the code lives, largest first. */
  buckets: [string, number][];
  /** Self time (ms) of the top functions, largest first. */
  functions: [string, number][];
  totalMs: number;
  /** totalMs without idle. */
  busyMs: number;
}

/** Where a function's code lives, by its script URL. */
function bucketOf(url: string, name: string): string {
  if (name === "(garbage collector)") return "GC";
  if (name === "(idle)") return "idle";
  if (name === "(program)") return "V8/native (program)";
  if (url === "") return "native / builtins (JSON.parse, RegExp, …)";
  if (url.startsWith("node:")) return "Node.js core";
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) {
    const pkg = m[1]!;
    if (pkg === "next") return /react|compiled\/react/.test(url) ? "React (in next)" : "Next.js";
    return pkg;
  }
  // The app's own code bundled by Next.js: chunk names say little, so the function names are kept too.
  if (/\.next\/server/.test(url)) return "app bundle (.next/server: FDP lib/ + bundled deps)";
  if (url.includes("/server.ts")) return "server.ts";
  return url.replace(`file://${ROOT}/`, "");
}

/**
 * Self time by bucket and by function. `fromUrl`: count only from the first sample whose script URL
 * contains it on (e.g. the first request body's parse), so the server's start-up is left out.
 */
export function analyseProfile(profile: CpuProfile, { fromUrl, topFunctions = 30 }: { fromUrl?: string; topFunctions?: number } = {}): ProfileBreakdown {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const first = fromUrl ? profile.samples.findIndex((id) => byId.get(id)?.callFrame.url.includes(fromUrl)) : 0;
  for (let i = Math.max(0, first); i < profile.samples.length; i++) self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    const n = byId.get(id)!;
    const bucket = bucketOf(n.callFrame.url, n.callFrame.functionName);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + ms);
    const fn = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/^.*node_modules\//, "").replace(`file://${ROOT}/`, "")}:${n.callFrame.lineNumber}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
    totalMs += ms;
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  const byBucket = sorted(buckets);
  return { buckets: byBucket, functions: sorted(functions).slice(0, topFunctions), totalMs, busyMs: totalMs - (byBucket.find(([b]) => b === "idle")?.[1] ?? 0) };
}

/** The server process's profile in `profDir`: the largest file (tsx's launcher writes a small one too). */
export function serverProfile(profDir: string): { file: string; profile: CpuProfile } {
  const files = readdirSync(profDir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(profDir, f));
  if (files.length === 0) throw new Error(`no .cpuprofile in ${profDir} (did the app exit cleanly?)`);
  const file = files.map((f) => ({ f, size: readFileSync(f).length })).sort((a, b) => b.size - a.size)[0]!.f;
  return { file, profile: JSON.parse(readFileSync(file, "utf8")) as CpuProfile };
}

/**
 * The built app in production mode under `--cpu-prof`, started as `node --cpu-prof --import tsx server.ts`
 * (Node refuses that flag in NODE_OPTIONS). `npm start` runs the same code compiled into one file
 * (scripts/start-production.mjs); through tsx each lib/ module keeps its own URL, so the profile says
 * which module the time went to.
 * Resolves once /api/health answers; `stop()` ends it with SIGTERM so that V8 writes the profile.
 */
export async function startProfiledApp({
  databaseUrl,
  profDir,
  log,
}: {
  databaseUrl: string;
  profDir: string;
  log: (m: string) => void;
}): Promise<{ url: string; stop: () => Promise<void> }> {
  mkdirSync(profDir, { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, ["--cpu-prof", `--cpu-prof-dir=${profDir}`, "--import", "tsx", "server.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      REDIS_URL: "",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
      AUTH_SECRET: "profile-only-session-secret-0123456789abcdef0123",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the app exited early (${child.exitCode})`);
      if (
        await fetch(`${url}/api/health`).then(
          (r) => r.status === 200,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error("the app did not become healthy in 120 s");
      await new Promise((r) => setTimeout(r, 500));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  log(`app ready at ${url} (profiling)`);
  return { url, stop };
}
