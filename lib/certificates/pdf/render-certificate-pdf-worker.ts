/**
 * Worker-thread entry of the certificate PDF pool (render-certificate-pdf-in-worker.ts): renders one
 * certificate per message, off the main thread, so layout and font subsetting (~100–400 ms of CPU)
 * never block the API's event loop. Loaded as TypeScript through `--import tsx`.
 */
import { parentPort } from "node:worker_threads";
import type { CertificatePdfInput } from "./certificate-pdf-input";
import { renderCertificatePdf } from "./render-certificate-pdf";

export interface RenderJob {
  id: number;
  input: CertificatePdfInput;
  sealKid?: string;
}

export type RenderReply = { id: number; ok: true; pdf: Uint8Array } | { id: number; ok: false; message: string };

if (!parentPort) throw new Error("render-certificate-pdf-worker must run as a worker thread");
const port = parentPort;

port.on("message", (job: RenderJob) => {
  renderCertificatePdf(job.input, job.sealKid === undefined ? {} : { sealKid: job.sealKid }).then(
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
