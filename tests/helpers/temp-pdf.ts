import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** `use(file)` with `pdf` written to a file in a fresh temporary folder (poppler's and qpdf's tools read files), the folder removed after. */
export function withPdfFile<T>(pdf: Uint8Array, use: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), "fdp-pdf-"));
  try {
    const file = path.join(dir, "document.pdf");
    writeFileSync(file, pdf);
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
