import { API_REFERENCE_INIT_SCRIPT } from "@/lib/docs/api-reference-page";

/** The script that mounts Scalar on /docs (lib/docs/api-reference-page.ts); tiny, so never cached stale. */
export function GET(): Response {
  return new Response(API_REFERENCE_INIT_SCRIPT, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" },
  });
}
