import { scalarBundle } from "@/lib/docs/scalar-bundle";

export const dynamic = "force-dynamic";

/**
 * Scalar's browser bundle, from node_modules (lib/docs/scalar-bundle.ts). The page asks for it as
 * `?v=<installed version>`: that URL never changes content, so browsers may keep it for a year; any
 * other URL is revalidated.
 */
export function GET(request: Request): Response {
  const { version, source } = scalarBundle();
  const pinned = new URL(request.url).searchParams.get("v") === version;
  return new Response(source, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": pinned ? "public, max-age=31536000, immutable" : "no-cache",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
