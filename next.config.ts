import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships a WASM build and postgres/ioredis open sockets: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "postgres", "ioredis", "rate-limiter-flexible", "bcryptjs"],
  poweredByHeader: false,
};

export default nextConfig;
