// What the Node samples share: the settings, from the environment.
//   FDP_BASE_URL       the deployment's origin (default http://localhost:3000)
//   FDP_API_KEY        an API key (default: the public sandbox key)
//   FDP_INGEST_SECRET  the tenant's ingest secret (default: the sandbox's, public on purpose)
export const baseUrl = process.env.FDP_BASE_URL ?? "http://localhost:3000";
export const apiKey = process.env.FDP_API_KEY ?? "fdp_sandbox_3f6c0a1e9b7d4c25";
export const ingestSecret = process.env.FDP_INGEST_SECRET ?? "sandbox-ingest-secret-not-for-production";
