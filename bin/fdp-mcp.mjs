#!/usr/bin/env node
// `npx fdp-mcp`: FDP's MCP server over stdio for desktop AI clients, proxied to a running FDP's /api/mcp.
// Configure with FDP_API_KEY (required) and FDP_BASE_URL (default http://localhost:3000).
// See lib/mcp/stdio-proxy.ts. tsx runs the TypeScript source; stdout carries JSON-RPC only.
import { register } from "tsx/esm/api";

register();
const { main } = await import(new URL("../lib/mcp/stdio-proxy.ts", import.meta.url).href);
await main();
