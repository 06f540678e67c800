import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README and docs/ are read on a fresh clone: every file they point to is in the repository, and
 * none of them sends a reader outside it (issue 30: the README linked ../shared/ files a clone does not
 * have) or to a command of one operating system only (macOS `open`).
 */
const ROOT = path.resolve(import.meta.dirname, "../../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? markdownFiles(p) : e.name.endsWith(".md") ? [p] : [];
  });
}

const FILES = [path.join(ROOT, "README.md"), ...markdownFiles(path.join(ROOT, "docs"))];

describe("README and docs", () => {
  it.each(FILES.map((f) => [path.relative(ROOT, f), f]))("%s: every relative link resolves inside the repository", (_name, file) => {
    const text = readFileSync(file, "utf8");
    const broken: string[] = [];
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.split("#")[0]!;
      if (target === "" || /^[a-z]+:/i.test(target)) continue;
      const resolved = path.resolve(path.dirname(file), decodeURI(target));
      if (!resolved.startsWith(ROOT + path.sep) || !existsSync(resolved)) broken.push(target);
    }
    expect(broken).toEqual([]);
    expect(text).not.toMatch(/\.\.\/shared\//);
  });

  it("the README uses no macOS-only command", () => {
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8")).not.toMatch(/^\s*open\s/m);
  });
});
