/**
 * Worker-thread entry of the certificate PDF pool (render-certificate-pdf-in-worker.ts): renders one
 * certificate (or CSRD report) per message, off the main thread, so layout and font subsetting (~100–400 ms of CPU)
 * never block the API's event loop. In the repository it runs as TypeScript through tsx; the self-host
 * build bundles it into `render-certificate-pdf-worker.mjs` (render-certificate-pdf-in-worker.ts).
 */
import { parentPort } from "node:worker_threads";
// Relative imports: the worker runs under tsx without the app's bundler.
import type { CsrdReport } from "../../reports/csrd";
import { renderCsrdPdf } from "../../reports/pdf/render-csrd-pdf";
import type { CertificatePdfInput } from "./certificate-pdf-input";
import { renderCertificatePdf } from "./render-certificate-pdf";

/** A certificate, or a CSRD report (endpoint 13): the pool renders every PDF of the API off the main thread. */
export type RenderJob = { id: number; kind: "certificate"; input: CertificatePdfInput } | { id: number; kind: "csrd"; report: CsrdReport };

function render(job: RenderJob): Promise<Buffer> {
  if (job.kind === "csrd") return renderCsrdPdf(job.report);
  return renderCertificatePdf(job.input);
}

export type RenderReply = { id: number; ok: true; pdf: Uint8Array } | { id: number; ok: false; message: string };

if (!parentPort) throw new Error("render-certificate-pdf-worker must run as a worker thread");
const port = parentPort;

port.on("message", (job: RenderJob) => {
  render(job).then(
    (pdf) => {
      // Copy into an ArrayBuffer of its own (the Buffer may be a view on a shared pool) and transfer it
      // instead of cloning 50 kB per certificate.
      const bytes = new Uint8Array(pdf);
      const reply: RenderReply = { id: job.id, ok: true, pdf: bytes };
      port.postMessage(reply, [bytes.buffer]);
    },
    (error: unknown) => {
      const reply: RenderReply = { id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) };
      port.postMessage(reply);
    },
  );
});
