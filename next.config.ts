import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships a WASM build and postgres/ioredis open sockets: keep them out of the bundle (and
  // @react-pdf/renderer, ESM with its own font and layout engines, for in-process rendering).
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "postgres", "ioredis", "rate-limiter-flexible", "bcryptjs", "@react-pdf/renderer"],
  poweredByHeader: false,
};

export default nextConfig;
