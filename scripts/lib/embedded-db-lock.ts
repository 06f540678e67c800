import { existsSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import path from "node:path";

/**
 * The embedded PGlite database may be opened by ONE process at a time, and PGlite itself does not
 * enforce it: a second process opens the same folder without complaint and the two corrupt it.
 * While a PGlite instance has the folder open it keeps a `postmaster.pid` there (removed on a clean
 * close or exit, left behind when the process is killed). On Linux, /proc tells whether some live
 * process really has files of the folder open, which separates a holder from a stale pid file.
 */
interface EmbeddedDbStatus {
  /** `free`: nobody holds it; `held`: another process has it open; `unknown`: pid file present, no /proc to check. */
  state: "free" | "held" | "unknown";
  /** Processes seen holding files of the folder (Linux only). */
  pids: number[];
  /** True when a postmaster.pid was found but no process holds the folder (left by a killed process). */
  stalePidFile: boolean;
}

export function embeddedDbStatus(dataDir: string): EmbeddedDbStatus {
  const dir = path.resolve(dataDir);
  if (!existsSync(path.join(dir, "postmaster.pid"))) return { state: "free", pids: [], stalePidFile: false };
  if (!existsSync("/proc/self/fd")) return { state: "unknown", pids: [], stalePidFile: false };

  const real = realpathSync(dir);
  const prefix = real.endsWith(path.sep) ? real : real + path.sep;
  const pids: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return { state: "unknown", pids: [], stalePidFile: false };
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // gone, or not ours to look at
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      if (target.startsWith(prefix)) {
        pids.push(pid);
        break;
      }
    }
  }
  return pids.length > 0 ? { state: "held", pids, stalePidFile: false } : { state: "free", pids: [], stalePidFile: true };
}
