// Signed ingest with the typed client (@fdp/client): both signature forms of FDP's API contract.
//
//   FDP_BASE_URL=… FDP_API_KEY=… FDP_INGEST_SECRET=… node signed-ingest.mjs [VIN]
//
// 1. Header `X-FDP-Signature: t=<unix seconds>,sha256=<hex>` over "<t>.<the exact bytes sent>": the client's
//    signedIngest (the recommended form; a signature is accepted once, so sign each request when you send it).
// 2. Body member `hmac_signature`: HMAC-SHA256 over the RFC 8785 canonical JSON of the body without it.
// 3. One body's signature sent with another body: 401 invalid_signature, nothing stored.
// Prints one JSON line per request; exits 1 unless the first two are accepted and the third refused.
import { createHmac } from "node:crypto";
import { createFdpClient, FdpApiError, orThrow, signedIngest } from "@fdp/client";
import canonicalize from "canonicalize";
import { apiKey, baseUrl, ingestSecret } from "./settings.mjs";

const fdp = createFdpClient({ baseUrl, apiKey });
const vin = process.argv[2] ?? "NODESAMPLE0000001";
const record = (minutesAgo, odometer_km) => ({ vin, timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString(), odometer_km, speed_kmh: 42 });
const outcome = async (form, call) => {
  try {
    return { form, status: 200, answer: await orThrow(call) };
  } catch (e) {
    if (!(e instanceof FdpApiError)) throw e;
    return { form, status: e.status, answer: { error: e.code, message: e.message, request_id: e.requestId } };
  }
};

const results = [];
// 1. The timestamped header.
results.push(await outcome("header, timestamped", fdp.POST("/oem/ingest", await signedIngest({ vehicles: [record(3, 3000.5)] }, ingestSecret))));

// 2. The body member over the canonical JSON of the rest of the body.
const body = { vehicles: [record(2, 3001.25)] };
const hmac_signature = createHmac("sha256", ingestSecret).update(canonicalize(body), "utf8").digest("hex");
results.push(await outcome("body hmac_signature", fdp.POST("/oem/ingest", { body: { ...body, hmac_signature } })));

// 3. A body changed after signing.
const signed = await signedIngest({ vehicles: [record(1, 3002)] }, ingestSecret);
const changed = JSON.stringify({ vehicles: [record(1, 9002)] });
results.push(await outcome("header on a changed body", fdp.POST("/oem/ingest", { ...signed, bodySerializer: () => changed })));

for (const r of results) console.log(JSON.stringify(r));
const ok = results[0].status === 200 && results[1].status === 200 && results[2].status === 401 && results[2].answer.error === "invalid_signature";
process.exit(ok ? 0 : 1);
