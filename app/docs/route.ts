import { apiReferenceHtml } from "@/lib/docs/api-reference-page";
import { scalarBundle } from "@/lib/docs/scalar-bundle";
import { env } from "@/lib/env";

// PUBLIC_BASE_URL is read when the page is served, not when the app is built.
export const dynamic = "force-dynamic";

/** The API reference (lib/docs/api-reference-page.ts): public documentation, no sign-in. */
export function GET(): Response {
  const html = apiReferenceHtml({ publicBaseUrl: env().PUBLIC_BASE_URL, scalarVersion: scalarBundle().version });
  return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" } });
}
