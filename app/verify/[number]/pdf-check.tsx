"use client";

import { useRef, useState, useTransition } from "react";
import type { PdfCheck } from "@/lib/certificates/check-certificate-pdf";
import { MAX_CHECKED_PDF_BYTES, PDF_TOO_LARGE_STATEMENT } from "@/lib/certificates/pdf-check-limits";

/** Drop (or choose) a PDF: the server checks its PDF signature (PAdES) and compares it with the PDF FDP issued. */
export function PdfCheckForm({ check }: { check: (form: FormData) => Promise<PdfCheck> }) {
  const [result, setResult] = useState<PdfCheck | null>(null);
  const [over, setOver] = useState(false);
  const [pending, startTransition] = useTransition();
  const input = useRef<HTMLInputElement>(null);

  const submit = (file: File | undefined) => {
    if (!file) return;
    // The server applies the same rule; answering here spares the upload of a file it would refuse.
    if (file.size > MAX_CHECKED_PDF_BYTES) {
      setResult({ authentic: false, statement: PDF_TOO_LARGE_STATEMENT });
      return;
    }
    const form = new FormData();
    form.set("pdf", file);
    setResult(null);
    startTransition(async () => {
      try {
        setResult(await check(form));
      } catch {
        // The request failed (the connection, the server, or a body the server refused): say so in the
        // page instead of letting the error replace it.
        setResult({ authentic: false, statement: "The file could not be checked. Please try again." });
      }
    });
  };

  return (
    <div>
      <label
        htmlFor="pdf-file"
        data-testid="pdf-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          submit(e.dataTransfer.files[0]);
        }}
        className={`flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed px-6 py-8 text-center ${
          over ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-white"
        }`}
      >
        <span className="font-medium">Drop the certificate PDF here, or click to choose it</span>
        <span className="mt-1 text-sm text-slate-500">The file is checked on FDP&apos;s server and not stored.</span>
      </label>
      <input id="pdf-file" ref={input} type="file" accept="application/pdf,.pdf" className="sr-only" onChange={(e) => submit(e.target.files?.[0] ?? undefined)} />
      <p aria-live="polite" data-testid="pdf-check-result" className="mt-3 min-h-6">
        {pending ? (
          <span className="text-slate-500">Checking…</span>
        ) : result ? (
          <span className={result.authentic ? "font-semibold text-green-700" : "font-semibold text-red-700"}>{result.statement}</span>
        ) : null}
      </p>
    </div>
  );
}
