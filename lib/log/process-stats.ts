import { monitorEventLoopDelay, performance, type EventLoopUtilization } from "node:perf_hooks";
import type { Logger } from "./logger";

/**
 * One line of process figures, logged every FDP_PROCESS_STATS_MS by server.ts ("process stats").
 * Why a log line and not only a metric: an operator reading the log of a slow or swelling instance
 * sees at once whether the event loop was blocked (delay) or busy (utilisation), and whether memory
 * grew on the JavaScript heap (a leak of objects), in buffers (`array_buffers_mb`: bodies, PDFs) or
 * outside both (`native_mb`: WASM, the allocator's retained pages). `npm run soak` reads these lines
 * to report memory and event-loop lag at the start and end of its run (bench/soak.ts).
 */
export interface ProcessStats {
  rss_mb: number;
  heap_used_mb: number;
  heap_total_mb: number;
  array_buffers_mb: number;
  /** RSS not accounted for by the V8 heap or by external memory. */
  native_mb: number;
  /** Event-loop delay over the interval (perf_hooks.monitorEventLoopDelay, 20 ms resolution). */
  event_loop_delay_p50_ms: number;
  event_loop_delay_p99_ms: number;
  event_loop_delay_max_ms: number;
  /** Share of the interval the event loop spent running code (0–1). */
  event_loop_utilization: number;
}

const PROCESS_STATS_MESSAGE = "process stats";

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;

/** Starts the periodic line; returns a function that stops it. `intervalMs` 0 starts nothing. */
export function startProcessStats(log: Logger, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => {};
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  let lastElu: EventLoopUtilization = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const mem = process.memoryUsage();
    const elu = performance.eventLoopUtilization(lastElu);
    lastElu = performance.eventLoopUtilization();
    const stats: ProcessStats = {
      rss_mb: mb(mem.rss),
      heap_used_mb: mb(mem.heapUsed),
      heap_total_mb: mb(mem.heapTotal),
      array_buffers_mb: mb(mem.arrayBuffers),
      native_mb: mb(Math.max(0, mem.rss - mem.heapTotal - mem.external)),
      event_loop_delay_p50_ms: ms(delay.percentile(50)),
      event_loop_delay_p99_ms: ms(delay.percentile(99)),
      event_loop_delay_max_ms: ms(delay.max),
      event_loop_utilization: Math.round(elu.utilization * 1000) / 1000,
    };
    delay.reset();
    log.info(stats, PROCESS_STATS_MESSAGE);
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    delay.disable();
  };
}

/** The "process stats" lines in a log's text (one JSON object per line), oldest first. */
export function parseProcessStats(logText: string): (ProcessStats & { time: string })[] {
  const out: (ProcessStats & { time: string })[] = [];
  for (const line of logText.split("\n")) {
    if (!line.includes(PROCESS_STATS_MESSAGE)) continue;
    try {
      const obj = JSON.parse(line) as ProcessStats & { msg?: string; time: string };
      if (obj.msg === PROCESS_STATS_MESSAGE) out.push(obj);
    } catch {
      // not a JSON line (npm's own output)
    }
  }
  return out;
}
