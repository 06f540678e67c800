import type { NextConfig } from "next";
import { SERVER_ACTION_BODY_LIMIT_BYTES } from "./lib/certificates/pdf-check-limits";

const nextConfig: NextConfig = {
  // PGlite ships a WASM build and postgres/ioredis open sockets: keep them out of the bundle (and
  // @react-pdf/renderer, ESM with its own font and layout engines, for in-process rendering).
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "postgres", "ioredis", "rate-limiter-flexible", "bcryptjs", "@react-pdf/renderer"],
  poweredByHeader: false,
  // scripts/test-all.sh type-checks the project in its static step (scripts/check-types-and-lint.ts, beside
  // the build, sharing its TypeScript program with ESLint) and builds with FDP_BUILD_TYPECHECK=0 so that the
  // build does not check the same files again. Any other build, `npm run build` included, checks them.
  typescript: { ignoreBuildErrors: process.env.FDP_BUILD_TYPECHECK === "0" },
  // The self-host build (docs/self-hosting.md): Next.js traces what the pages need into .next/standalone,
  // scripts/build-standalone.ts adds FDP's server. lib/ is bundled into the pages; the one lib/ file the
  // trace would copy, the PDF worker's TypeScript source, is looked up at run time and replaced by its build.
  output: "standalone",
  outputFileTracingExcludes: { "*": ["./lib/**"] },
  experimental: {
    // The verify page's PDF check takes files up to 2 MiB (lib/certificates/pdf-check-limits.ts);
    // Next.js's default of 1 MB answered a 1–2 MiB file with a 500 error page. Every other server
    // action posts a few form fields, so the higher ceiling changes nothing for them.
    serverActions: { bodySizeLimit: SERVER_ACTION_BODY_LIMIT_BYTES },
  },
};

export default nextConfig;
