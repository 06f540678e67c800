import { certificatePdfInput } from "@/lib/certificates/certificate-pdf";
import { renderCertificatePdf } from "@/lib/certificates/pdf/render-certificate-pdf";
import { signPdf } from "@/lib/certificates/signing/pades";
import { createPdfSigningCertificate } from "@/lib/certificates/signing/pdf-signing-certificate";
import { publicJwkOf } from "@/lib/certificates/signing/signing-keys";
import type { CertifiedContent } from "@/lib/schemas/certificates";
import { generateKeyPair } from "@/lib/crypto/generate-key-pair";
import { env } from "@/lib/env";
import { startBuiltApp } from "../lib/app";
import { FleetSimulator } from "../lib/fleet";
import { measure, percentile, withTimeout } from "../lib/timing";
import type { Benchmark, BenchContext, BenchmarkResult, ComparisonRow, Measurement } from "../lib/types";

/**
 * Certificates: generation throughput through the whole stack (`POST /certificates/generate`, which
 * loads four score inputs, signs, renders and seals the PDF and stores it) side by side with the PDF
 * render + sign alone in the bench process (the floor: what generation cannot go below); and whether
 * rendering starves the API: `GET /fleet?limit=500` latency alone vs while certificates are generated
 * continuously, on the app as configured (PDFs on a worker thread) and on a second instance of the same
 * build with FDP_PDF_WORKERS=0 (PDFs on the request thread), same database. Goal: /fleet p99 under
 * certificate load within 2× of its p99 alone.
 */

const VEHICLES = 100;
const GENERATIONS = Math.max(5, Number(process.env.BENCH_CERT_GENERATIONS ?? 30));
const FLEET_REQUESTS = Math.max(20, Number(process.env.BENCH_CERT_FLEET_REQUESTS ?? 200));
const FLEET_CONCURRENCY = 4;
/** Certificate generations kept in flight while /fleet is measured under load. */
const BACKGROUND_LANES = 2;
const GOAL_P99_RATIO = 2;
const REQUEST_TIMEOUT_MS = 120_000;

async function call(url: string, key: string, method: "GET" | "POST"): Promise<string> {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${new URL(url).pathname} answered ${res.status}: ${text.slice(0, 300)}`);
  return text;
}

const p99 = (m: Measurement) => percentile(m.latenciesMs, 99);

/** /fleet alone, then /fleet while BACKGROUND_LANES lanes keep generating certificates. */
async function fleetUnderLoad(appUrl: string, key: string, deviceIds: string[]): Promise<{ alone: Measurement; loaded: Measurement; generatedMeanwhile: number }> {
  const fleet = () =>
    measure({ batches: FLEET_REQUESTS, concurrency: FLEET_CONCURRENCY, unitsPerBatch: 1, job: async () => void (await call(`${appUrl}/api/v1/fleet?limit=500`, key, "GET")) });
  await fleet(); // warm-up: JIT, connection pool, plan cache
  const alone = await fleet();
  let stop = false;
  let generated = 0;
  const background = Array.from({ length: BACKGROUND_LANES }, async (_, lane) => {
    for (let i = lane; !stop; i += BACKGROUND_LANES) {
      await call(`${appUrl}/api/v1/certificates/generate/${deviceIds[i % deviceIds.length]}`, key, "POST");
      generated += 1;
    }
  });
  // Let the background reach its steady state before the clock starts.
  await new Promise((r) => setTimeout(r, 1500));
  const loaded = await fleet();
  stop = true;
  await Promise.all(background);
  return { alone, loaded, generatedMeanwhile: generated };
}

export const certificates: Benchmark = {
  id: "certificates",
  title: "Certificates (POST /certificates/generate vs render + sign alone; GET /fleet while certificates render vs alone)",
  async run(ctx: BenchContext): Promise<BenchmarkResult> {
    const tenant = await ctx.newTenant("Bench certificates");
    const startMs = Math.floor(Date.now() / 60_000) * 60_000 - 2 * 86_400_000;
    const sim = new FleetSimulator({ seed: 909, vehicles: VEHICLES, recordsPerVehicle: 20, vinTag: "CERT01", startMs, stepMs: 30 * 60_000 });
    const ingest = await fetch(`${ctx.appUrl}/api/v1/oem/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
      body: JSON.stringify({ vehicles: sim.nextBatch() }),
    });
    if (ingest.status !== 200) throw new Error(`seed ingest answered ${ingest.status}: ${(await ingest.text()).slice(0, 300)}`);
    const raw = ctx.rawClient();
    const ids = (await raw<{ device_id: string }[]>`select device_id from devices where tenant_id = ${tenant.tenantId} order by device_id`).map((r) => r.device_id);
    if (ids.length !== VEHICLES) throw new Error(`expected ${VEHICLES} devices, found ${ids.length}`);

    // ── Generation through the stack, one at a time (the first three warm the worker and the loaders).
    let content: CertifiedContent | undefined;
    for (let i = 0; i < 3; i += 1) content = JSON.parse(await call(`${ctx.appUrl}/api/v1/certificates/generate/${ids[i]}`, tenant.key, "POST")) as CertifiedContent;
    const generation = await withTimeout("certificate generation", 10 * 60_000, () =>
      measure({
        batches: GENERATIONS,
        concurrency: 1,
        unitsPerBatch: 1,
        job: async (i) => void (await call(`${ctx.appUrl}/api/v1/certificates/generate/${ids[i % ids.length]}`, tenant.key, "POST")),
      }),
    );

    // ── The floor: render + PDF signature of the same certificate in this process (no HTTP, no database).
    const { kid } = publicJwkOf(generateKeyPair("ed25519").privateKey);
    const pdfSigner = createPdfSigningCertificate(kid, new Date(), env().FDP_PDF_SIGNING_RSA_BITS);
    const input = certificatePdfInput(content!, {
      verify_url: "http://localhost:3000/verify/x",
      verify_hash: "0".repeat(64),
      signing: { kid, jws: "x..x", pdf_certificate_sha256: "0".repeat(64) },
    });
    const renderOnce = async () => void (await signPdf(await renderCertificatePdf(input), pdfSigner, { signingTime: new Date(), reason: "benchmark" }));
    for (let i = 0; i < 3; i += 1) await renderOnce();
    const render = await measure({ batches: GENERATIONS, concurrency: 1, unitsPerBatch: 1, job: renderOnce });

    // ── /fleet alone vs under certificate load: the app as configured (worker), then in-process rendering.
    const workers = await fleetUnderLoad(ctx.appUrl, tenant.key, ids);
    ctx.log(
      `worker rendering: /fleet p99 ${p99(workers.alone).toFixed(1)} ms alone, ${p99(workers.loaded).toFixed(1)} ms under load (${workers.generatedMeanwhile} certificates meanwhile)`,
    );
    const inProcessApp = await startBuiltApp(ctx.databaseUrl, ctx.log, { FDP_PDF_WORKERS: "0" });
    let inProcess: Awaited<ReturnType<typeof fleetUnderLoad>>;
    try {
      inProcess = await fleetUnderLoad(inProcessApp.url, tenant.key, ids);
    } finally {
      await inProcessApp.stop();
    }
    ctx.log(
      `in-process rendering: /fleet p99 ${p99(inProcess.alone).toFixed(1)} ms alone, ${p99(inProcess.loaded).toFixed(1)} ms under load (${inProcess.generatedMeanwhile} certificates meanwhile)`,
    );

    const verdict = (r: { alone: Measurement; loaded: Measurement }) => {
      const ratio = p99(r.loaded) / p99(r.alone);
      return { pass: ratio <= GOAL_P99_RATIO, reason: `p99 ×${ratio.toFixed(2)}` };
    };
    const rows: ComparisonRow[] = [
      { label: `generate certificate (HTTP) vs render + sign alone, ${GENERATIONS} sequential`, fdp: generation, baseline: render },
      { label: "GET /fleet under certificate load vs alone (PDF worker)", fdp: workers.loaded, baseline: workers.alone, goal: verdict(workers) },
      { label: "GET /fleet under certificate load vs alone (FDP_PDF_WORKERS=0)", fdp: inProcess.loaded, baseline: inProcess.alone, goal: verdict(inProcess) },
    ];
    return {
      id: "certificates",
      title: this.title,
      unit: "req",
      sides: { fdp: "FDP (loaded)", baseline: "baseline (alone)" },
      goal: `Goal: GET /fleet p99 while certificates render within ${GOAL_P99_RATIO}× of its p99 alone (${FLEET_CONCURRENCY} concurrent /fleet clients, ${BACKGROUND_LANES} generations in flight). Generation: ${generation.perSecond.toFixed(1)} certificates/s, p50 ${generation.p50Ms.toFixed(0)} ms, p99 ${p99(generation).toFixed(0)} ms; render + sign alone p50 ${render.p50Ms.toFixed(0)} ms.`,
      rows,
      details: {
        generation: { perSecond: generation.perSecond, p50Ms: generation.p50Ms, p99Ms: p99(generation) },
        renderAlone: { perSecond: render.perSecond, p50Ms: render.p50Ms, p99Ms: p99(render) },
        fleetP99Ms: {
          worker: { alone: p99(workers.alone), loaded: p99(workers.loaded), generatedMeanwhile: workers.generatedMeanwhile },
          inProcess: { alone: p99(inProcess.alone), loaded: p99(inProcess.loaded), generatedMeanwhile: inProcess.generatedMeanwhile },
        },
        vehicles: VEHICLES,
        fleetRequests: FLEET_REQUESTS,
      },
    };
  },
};
