import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Resource } from "@modelcontextprotocol/sdk/types.js";

/**
 * The methodology pages (docs/methodology/*.md) as MCP resources, `fdp://methodology/<score>`, so an
 * agent can read how a figure is computed, its inputs, weights, limits and sources before it relies on
 * it. Read from the checkout at request time (like the migrations, from the working directory the
 * server runs in): the pages the repository ships are the ones served, never a copy.
 */

const METHODOLOGY_URI_PREFIX = "fdp://methodology/";
/** The index page, README.md, is served as `overview`. */
const INDEX_STEM = "overview";

function methodologyDirectory(): string {
  return path.join(process.cwd(), "docs", "methodology");
}

export function methodologyUriOf(stem: string): string {
  return `${METHODOLOGY_URI_PREFIX}${stem}`;
}

function stemOf(file: string): string {
  return file === "README.md" ? INDEX_STEM : file.replace(/\.md$/, "");
}

function fileOf(stem: string): string {
  return stem === INDEX_STEM ? "README.md" : `${stem}.md`;
}

/** The page's title: its first `# ` heading. */
function titleOf(markdown: string, stem: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? stem;
}

export async function listMethodologyResources(): Promise<Resource[]> {
  const files = (await readdir(methodologyDirectory())).filter((f) => f.endsWith(".md")).sort();
  return Promise.all(
    files.map(async (file) => {
      const text = await readFile(path.join(methodologyDirectory(), file), "utf8");
      const stem = stemOf(file);
      return {
        uri: methodologyUriOf(stem),
        name: stem,
        title: titleOf(text, stem),
        description:
          stem === INDEX_STEM
            ? "Index of FDP's methodology pages, with each score's version."
            : `How FDP computes it: inputs, weights, limits and sources (docs/methodology/${file}).`,
        mimeType: "text/markdown",
        size: Buffer.byteLength(text, "utf8"),
      };
    }),
  );
}

/** The page at `uri`, or null when no page has that address (only plain stems are looked up: no paths). */
export async function readMethodologyResource(uri: string): Promise<{ uri: string; mimeType: string; text: string } | null> {
  if (!uri.startsWith(METHODOLOGY_URI_PREFIX)) return null;
  const stem = uri.slice(METHODOLOGY_URI_PREFIX.length);
  if (!/^[a-z0-9-]+$/.test(stem)) return null;
  try {
    const text = await readFile(path.join(methodologyDirectory(), fileOf(stem)), "utf8");
    return { uri, mimeType: "text/markdown", text };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}
