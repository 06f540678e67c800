/**
 * The small self-contained HTML pages the server writes itself, where Next.js cannot choose the
 * status (the 429 pages of the sign-in and verification limits, the 403/413 refusals of a server
 * action, the 503 page while the database is unreachable). No script; inline styles only, which
 * NON_PAGE_CSP (lib/http/security-headers.ts) allows for these pages and nothing else.
 */

interface ServerPage {
  /** The <title> (followed by "— FDP") and the heading. */
  title: string;
  /** The line above the heading: which part of FDP answers. */
  eyebrow: string;
  /** Paragraphs of plain text (escaped here). */
  paragraphs: string[];
  /** Where the reader goes next, if anywhere. */
  link?: { href: string; label: string };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function serverPageHtml(page: ServerPage): string {
  const paragraphs = page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n");
  const link = page.link ? `\n<p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.label)}</a></p>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)} — FDP</title>
<style>body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0}main{max-width:40rem;margin:4rem auto;padding:0 1.5rem}
h1{font-size:1.75rem;margin:.5rem 0}p{color:#334155;line-height:1.6}.eyebrow{color:#1550b0;font-weight:600;text-transform:uppercase;font-size:.85rem;letter-spacing:.04em}a{color:#1550b0}</style></head>
<body><main><p class="eyebrow">${escapeHtml(page.eyebrow)}</p><h1>${escapeHtml(page.title)}</h1>
${paragraphs}${link}
</main></body></html>`;
}

/** `n second(s)`. */
export const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`;
