import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { CsrdReport } from "../../reports/csrd";
import type { CertificatePdfInput } from "./certificate-pdf-input";
import type { RenderJob, RenderReply } from "./render-certificate-pdf-worker";

/**
 * A small pool of worker threads rendering certificate PDFs (and the CSRD report's, endpoint 13), so
 * that rendering (CPU-bound, ~100–400 ms) does not starve the API's event loop. Same output as
 * renderCertificatePdf in-process (byte for byte: rendering is deterministic).
 *
 * - Size: `FDP_PDF_WORKERS` (integer 1–16, default 1), read when the first worker starts.
 * - Workers start lazily, take one job at a time from a FIFO queue, and are unref'd while idle so they
 *   never keep a script or test process alive.
 * - A job running longer than the timeout, or a worker that dies, fails that job and the worker is
 *   replaced on the next job; the other jobs carry on.
 * - The worker file is found from the working directory (the app, scripts and tests run from the
 *   repository root, the self-host build from its own directory), not from `import.meta.url`, which a
 *   bundler may rewrite. The self-host build (scripts/build-standalone.ts) holds it compiled, as `.mjs`,
 *   and a worker runs that file as it is. In the repository it is TypeScript, loaded through tsx's
 *   `register()` in a two-line bootstrap (workerBootstrap): `execArgv: ["--import", "tsx"]` is not
 *   applied to worker threads on Node 20 (the worker fails with "Unknown file extension .ts", checked
 *   on 20.20), and the bootstrap works on every supported Node.
 */

const WORKER_STEM = path.join("lib", "certificates", "pdf", "render-certificate-pdf-worker");
/** The self-host build holds the compiled file, the repository the TypeScript one. */
const WORKER_FILES = [`${WORKER_STEM}.mjs`, `${WORKER_STEM}.ts`];
const DEFAULT_TIMEOUT_MS = 30_000;

export function certificatePdfWorkerCount(env: Record<string, string | undefined> = process.env): number {
  const raw = env.FDP_PDF_WORKERS;
  if (raw === undefined || raw.trim() === "") return 1;
  if (!/^[0-9]+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > 16) {
    throw new Error(`FDP_PDF_WORKERS must be an integer between 1 and 16, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

export function certificatePdfWorkerFile(start: string = process.cwd()): string {
  for (let dir = path.resolve(/*turbopackIgnore: true*/ start); ; dir = path.dirname(dir)) {
    for (const file of WORKER_FILES) {
      const candidate = path.join(/*turbopackIgnore: true*/ dir, file);
      if (existsSync(candidate)) return candidate;
    }
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`certificate PDF worker: ${WORKER_STEM}.{mjs,ts} not found from ${start} upwards`);
}

/**
 * The worker's eval'd entry: registers tsx's ESM hooks in the worker, then imports the TypeScript
 * worker module. `tsx` is resolved from the working directory (an eval'd worker's base), like the
 * worker file itself.
 */
function workerBootstrap(workerFile: string): string {
  return `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(pathToFileURL(workerFile).href)}); })`;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Pending {
  job: RenderJob;
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  current: (Pending & { timer: NodeJS.Timeout }) | null;
}

class CertificatePdfPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(
    private readonly size: number,
    private readonly file: string,
    private readonly timeoutMs: number,
  ) {}

  render(input: CertificatePdfInput): Promise<Buffer> {
    return this.run({ kind: "certificate", input });
  }

  /** Any job the worker knows (a certificate, a CSRD report), FIFO with the others. */
  run(job: DistributiveOmit<RenderJob, "id">): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ job: { ...job, id: this.nextId++ }, resolve, reject });
      this.dispatch();
    });
  }

  stats(): { size: number; workers: number; busy: number; queued: number } {
    return { size: this.size, workers: this.slots.length, busy: this.slots.filter((s) => s.current !== null).length, queued: this.queue.length };
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    for (const pending of this.queue.splice(0)) pending.reject(new Error("certificate PDF workers closed"));
    await Promise.all(
      slots.map((slot) => {
        if (slot.current) {
          clearTimeout(slot.current.timer);
          slot.current.reject(new Error("certificate PDF workers closed"));
          slot.current = null;
        }
        return slot.worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.current === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const pending = this.queue.shift()!;
      const timer = setTimeout(() => this.fail(slot, new Error(`certificate PDF rendering took over ${this.timeoutMs} ms`)), this.timeoutMs);
      slot.current = { ...pending, timer };
      slot.worker.ref();
      slot.worker.postMessage(pending.job);
    }
  }

  private spawn(): Slot {
    const worker = this.file.endsWith(".ts") ? new Worker(workerBootstrap(this.file), { eval: true }) : new Worker(this.file);
    worker.unref();
    const slot: Slot = { worker, current: null };
    worker.on("message", (reply: RenderReply) => {
      const current = slot.current;
      if (!current || current.job.id !== reply.id) return;
      clearTimeout(current.timer);
      slot.current = null;
      worker.unref();
      if (reply.ok) current.resolve(Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength));
      else current.reject(new Error(reply.message));
      this.dispatch();
    });
    worker.on("error", (error) => this.fail(slot, error));
    worker.on("exit", (code) => this.fail(slot, new Error(`certificate PDF worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  /** Fails the slot's job, drops the worker (a fresh one starts for the next job). */
  private fail(slot: Slot, error: Error): void {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    if (slot.current) {
      clearTimeout(slot.current.timer);
      slot.current.reject(error);
      slot.current = null;
    }
    void slot.worker.terminate();
    this.dispatch();
  }
}

let pool: CertificatePdfPool | null = null;

/**
 * renderCertificatePdf on a worker thread (same arguments, same bytes). The pool is created on first
 * use with FDP_PDF_WORKERS workers.
 */
export function renderCertificatePdfInWorker(input: CertificatePdfInput): Promise<Buffer> {
  pool ??= new CertificatePdfPool(certificatePdfWorkerCount(), certificatePdfWorkerFile(), DEFAULT_TIMEOUT_MS);
  return pool.render(input);
}

/**
 * The CSRD report's PDF (endpoint 13) on the same pool: same bytes as renderCsrdPdf in-process, without
 * holding the API's event loop for the 200–400 ms of layout.
 */
export function renderCsrdPdfInWorker(report: CsrdReport): Promise<Buffer> {
  pool ??= new CertificatePdfPool(certificatePdfWorkerCount(), certificatePdfWorkerFile(), DEFAULT_TIMEOUT_MS);
  return pool.run({ kind: "csrd", report });
}

/**
 * Starts every worker and renders one throwaway certificate on each, so the first real certificate
 * does not pay for the worker's start (module loading, TypeScript transform, font parsing: ~1–2 s).
 * Optional; for servers and benchmarks.
 */
export async function warmCertificatePdfWorkers(): Promise<void> {
  const size = certificatePdfWorkerCount();
  await Promise.all(Array.from({ length: size }, () => renderCertificatePdfInWorker(WARM_UP_INPUT)));
}

/** Pool size, live workers, busy workers and queued jobs (null before the first use). */
export function certificatePdfWorkerStats(): { size: number; workers: number; busy: number; queued: number } | null {
  return pool?.stats() ?? null;
}

const WARM_UP_INPUT: CertificatePdfInput = {
  certificate_number: "FDP-CERT-19700101-WARM0",
  verify_url: "http://localhost/verify/FDP-CERT-19700101-WARM0",
  verify_hash: "0".repeat(64),
  generated_at: "1970-01-01T00:00:00Z",
  expires_at: "1970-01-01T00:00:00Z",
  grade: "A",
  grade_explanation: "Warm-up render.",
  device_id: "warm-up",
  vehicle: { name: "warm-up", vin: null, make: null, model: null, model_year: null, powertrain: null },
  headline: { vehicle_health_score: 0, residual_value_pct: 0, odometer_km: 0, battery_soh_pct: 0 },
  sections: [{ title: "Warm-up", rows: [{ label: "Label", value: "Value", note: "Note" }] }],
  signing: { kid: "warm-up", jws: "AA..AA", pdf_certificate_sha256: "0".repeat(64) },
};

/** Terminates the workers (graceful shutdown, tests); the next render starts a fresh pool. */
export async function closeCertificatePdfWorkers(): Promise<void> {
  const closing = pool;
  pool = null;
  await closing?.close();
}
