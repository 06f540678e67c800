// A fixed single-core workload, timed: what CI times depend on is the machine's speed as much as the
// code, and machines of the same kind differ by 2× from one day to the next (docs/testing.md).
// .ci/run prints this figure beside the run's own, so two runs' times can be compared. The work is the
// test suite's kind: small objects made, serialised, parsed, sorted and hashed. Deterministic; no I/O.
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";

function workload() {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const rows = Array.from({ length: 200_000 }, (_, i) => ({ id: `dev-${i}`, ts: 1_700_000_000_000 + Math.floor(next() * 1e9), km: next() * 1e5, ok: next() < 0.9 }));
  const parsed = JSON.parse(JSON.stringify(rows));
  parsed.sort((a, b) => a.ts - b.ts || (a.id < b.id ? -1 : 1));
  return createHash("sha256").update(JSON.stringify(parsed)).digest("hex");
}

workload(); // warm-up: the JIT's first pass is not the machine
const times = [];
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  workload();
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(Math.round(times[1]));
