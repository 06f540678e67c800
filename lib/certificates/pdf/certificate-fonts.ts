import { existsSync } from "node:fs";
import path from "node:path";
import { Font } from "@react-pdf/renderer";

/**
 * The certificate's fonts: Geist (sans) and Geist Mono, read from the `geist` package's TTF files on
 * disk — never fetched over the network, so a PDF renders offline and identically everywhere.
 *
 * The files are found from the working directory upwards (the app, scripts, tests and worker threads
 * all run from the repository or a worktree whose node_modules holds `geist`), not via
 * `import.meta.url`, which a bundler may rewrite. `geist` exports no package.json, so module resolution
 * cannot locate it either.
 */
const FONT_DIR_IN_PACKAGE = path.join("node_modules", "geist", "dist", "fonts");

function geistFontDirectory(start: string = process.cwd()): string {
  for (let dir = path.resolve(/*turbopackIgnore: true*/ start); ; dir = path.dirname(dir)) {
    const candidate = path.join(/*turbopackIgnore: true*/ dir, FONT_DIR_IN_PACKAGE);
    if (existsSync(path.join(/*turbopackIgnore: true*/ candidate, "geist-sans", "Geist-Regular.ttf"))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`certificate PDF: Geist fonts not found under ${FONT_DIR_IN_PACKAGE} from ${start} upwards`);
}

export const SANS = "Geist";
export const MONO = "GeistMono";

let registered = false;

/** Registers the families once per process (react-pdf's font store is global). */
export function registerCertificateFonts(): void {
  if (registered) return;
  const dir = geistFontDirectory();
  const sans = (file: string) => path.join(dir, "geist-sans", file);
  Font.register({
    family: SANS,
    fonts: [
      { src: sans("Geist-Regular.ttf"), fontWeight: 400 },
      { src: sans("Geist-Medium.ttf"), fontWeight: 500 },
      { src: sans("Geist-SemiBold.ttf"), fontWeight: 600 },
      { src: sans("Geist-Bold.ttf"), fontWeight: 700 },
    ],
  });
  Font.register({ family: MONO, src: path.join(dir, "geist-mono", "GeistMono-Regular.ttf") });
  // Hyphenating identifiers (VINs, hashes, URLs) would make them uncopyable: break only at spaces, and
  // let the long unbroken strings wrap by character where the layout gives them their own line.
  Font.registerHyphenationCallback((word) => [word]);
  registered = true;
}
