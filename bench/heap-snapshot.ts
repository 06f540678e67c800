import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * Heap snapshots of the running server (Node's `--heapsnapshot-signal=SIGUSR2`, written to
 * `--diagnostic-dir`), and a comparison of two by constructor: what grew between them. Used by
 * `SOAK_HEAP_SNAPSHOTS=1 npm run soak` and by `npm run --silent heap:diff -- <before> <after>`.
 */

/** NODE_OPTIONS for an app whose heap is to be snapshotted into `dir`. */
export function heapSnapshotNodeOptions(dir: string): string {
  return `${process.env.NODE_OPTIONS ?? ""} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`.trim();
}

/** Signals the server to write a snapshot and waits until the new file is complete. */
export async function takeHeapSnapshot(pid: number, dir: string, timeoutMs = 120_000): Promise<string> {
  const before = new Set(existsSync(dir) ? readdirSync(dir) : []);
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1_000));
    const fresh = readdirSync(dir).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (!fresh) continue;
    const file = path.join(dir, fresh);
    // Written in one go by the server; complete once its size stops changing and it parses to the end.
    const size = statSync(file).size;
    if (size === last && readFileSync(file).subarray(-2).toString().trim().endsWith("}")) return file;
    last = size;
  }
  throw new Error(`no heap snapshot from pid ${pid} within ${timeoutMs} ms`);
}

interface Aggregate {
  count: number;
  selfSize: number;
}

/** Self size and count per "type:name" (constructor for objects) of one .heapsnapshot file. */
export function aggregateSnapshot(file: string): Map<string, Aggregate> {
  const snap = JSON.parse(readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf("type");
  const nameAt = fields.indexOf("name");
  const sizeAt = fields.indexOf("self_size");
  const types = snap.snapshot.meta.node_types[0];
  const out = new Map<string, Aggregate>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!] ?? "?";
    // Strings are grouped by type only: their text is data, not a kind of object.
    const name = type === "object" || type === "closure" || type === "native" ? snap.strings[snap.nodes[i + nameAt]!]!.slice(0, 60) : "";
    const key = `${type}${name ? `:${name}` : ""}`;
    const agg = out.get(key) ?? { count: 0, selfSize: 0 };
    agg.count++;
    agg.selfSize += snap.nodes[i + sizeAt]!;
    out.set(key, agg);
  }
  return out;
}

export function diffSnapshots(beforeFile: string, afterFile: string, top = 15): string {
  const a = aggregateSnapshot(beforeFile);
  const b = aggregateSnapshot(afterFile);
  const total = (m: Map<string, Aggregate>) => [...m.values()].reduce((s, x) => s + x.selfSize, 0);
  const keys = new Set([...a.keys(), ...b.keys()]);
  const rows = [...keys]
    .map((k) => ({ k, bytes: (b.get(k)?.selfSize ?? 0) - (a.get(k)?.selfSize ?? 0), count: (b.get(k)?.count ?? 0) - (a.get(k)?.count ?? 0) }))
    .sort((x, y) => y.bytes - x.bytes)
    .slice(0, top);
  const mb = (n: number) => (n / 1048576).toFixed(1);
  return [
    `Heap (self sizes): ${mb(total(a))} MB → ${mb(total(b))} MB (${total(b) >= total(a) ? "+" : ""}${mb(total(b) - total(a))} MB)`,
    "",
    "| type:constructor | Δ MB | Δ count |",
    "|---|---|---|",
    ...rows.map((r) => `| ${r.k.replace(/\|/g, "\\|")} | ${mb(r.bytes)} | ${r.count} |`),
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [before, after] = process.argv.slice(2);
  if (!before || !after) {
    process.stderr.write("usage: tsx bench/heap-snapshot.ts <before.heapsnapshot> <after.heapsnapshot>\n");
    process.exit(2);
  }
  process.stdout.write(diffSnapshots(before, after) + "\n");
}
