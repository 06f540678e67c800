import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { webhookHeaders } from "@/lib/webhooks/webhook-signature";
import { measure, measurementOf, nowMs, withTimeout } from "../lib/timing";
import type { Benchmark, BenchContext, BenchmarkResult, Measurement } from "../lib/types";

/**
 * Webhook delivery (docs/webhooks.md): events committed by the app's own ingest (each new vehicle's
 * `device.created`) go through the outbox and the delivery worker to one endpoint on loopback, side by
 * side with a bare node:http sender that POSTs the same number of signed payloads to the same receiver,
 * one at a time and on a new connection each (what the worker does for one endpoint). FDP's latency is
 * from the ingest request's answer (its commit) to the receipt; the sender's from the send to the receipt.
 * The app runs with WEBHOOK_ALLOW_LOOPBACK=1 (bench/run.ts).
 */

const EVENTS = Math.max(10, Number(process.env.BENCH_WEBHOOK_EVENTS ?? 300));
const BATCH = 100;
const TIMEOUT_MS = 180_000;

interface Receiver {
  url: string;
  /** Receipt time (nowMs) by the payload's device_id. */
  receivedAt: Map<string, number>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receivedAt = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = nowMs();
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { data?: { device_id?: string } };
      receivedAt.set(String(body.data?.device_id), at);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    receivedAt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const summary = (units: number, wallMs: number, latencies: number[]): Measurement => measurementOf({ units, batches: units, concurrency: 1, wallMs, latenciesMs: latencies });

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  await withTimeout(what, TIMEOUT_MS, async () => {
    while (!check()) await new Promise((r) => setTimeout(r, 5));
  });
}

/** FDP: ingest EVENTS new vehicles in batches; each one's device.created reaches the receiver through the worker. */
async function throughFdp(ctx: BenchContext, receiver: Receiver): Promise<Measurement> {
  const tenant = await ctx.newTenant("Bench webhooks");
  const headers = { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" };
  const created = await fetch(`${ctx.appUrl}/api/v1/webhooks`, { method: "POST", headers, body: JSON.stringify({ url: receiver.url, events: ["device.created"] }) });
  if (created.status !== 201) throw new Error(`webhook registration answered ${created.status}: ${await created.text()}`);
  const committedAt = new Map<string, number>();
  const start = nowMs();
  for (let i = 0; i < EVENTS; i += BATCH) {
    const vins = Array.from({ length: Math.min(BATCH, EVENTS - i) }, (_, k) => `BENCHHOOK${String(i + k).padStart(8, "0")}`);
    const res = await fetch(`${ctx.appUrl}/api/v1/oem/ingest`, {
      method: "POST",
      headers,
      body: JSON.stringify({ vehicles: vins.map((vin) => ({ vin, timestamp: new Date(Date.now() - 60_000).toISOString(), speed_kmh: 0 })) }),
    });
    if (res.status !== 200) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
    const at = nowMs();
    for (const vin of vins) committedAt.set(`oem-${vin}`, at);
  }
  await waitUntil(() => [...committedAt.keys()].every((id) => receiver.receivedAt.has(id)), "FDP's deliveries");
  const receipts = [...committedAt].map(([id, at]) => ({ latency: receiver.receivedAt.get(id)! - at, at: receiver.receivedAt.get(id)! }));
  return summary(
    EVENTS,
    Math.max(...receipts.map((r) => r.at)) - start,
    receipts.map((r) => r.latency),
  );
}

/** The floor: the same number of signed payloads from a bare node:http sender, one at a time, a new connection each. */
async function throughBareSender(receiver: Receiver): Promise<Measurement> {
  const secret = "whsec_" + Buffer.alloc(32, 7).toString("base64");
  const url = new URL(receiver.url);
  return measure({
    batches: EVENTS,
    concurrency: 1,
    unitsPerBatch: 1,
    job: (i) =>
      new Promise<void>((resolve, reject) => {
        const body = JSON.stringify({ type: "device.created", timestamp: new Date().toISOString(), data: { device_id: `bare-${i}` } });
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: "POST",
            agent: false,
            headers: { ...webhookHeaders(secret, `evt_bare${i}`, new Date(), body), "content-type": "application/json" },
          },
          (res) => {
            res.resume();
            res.on("end", () => (res.statusCode === 204 ? resolve() : reject(new Error(`receiver answered ${res.statusCode}`))));
          },
        );
        req.on("error", reject);
        req.end(body);
      }),
  });
}

export const webhookDelivery: Benchmark = {
  id: "webhooks",
  title: `Webhook delivery: ${EVENTS} device.created events to one endpoint, commit to receipt, vs a bare node:http sender`,
  async run(ctx: BenchContext): Promise<BenchmarkResult> {
    const receiver = await startReceiver();
    try {
      const bare = await throughBareSender(receiver);
      const fdp = await throughFdp(ctx, receiver);
      ctx.log(`FDP ${fdp.perSecond.toFixed(0)} events/s (p50 ${fdp.p50Ms.toFixed(0)} ms, p95 ${fdp.p95Ms.toFixed(0)} ms); bare sender ${bare.perSecond.toFixed(0)}/s`);
      return {
        id: "webhooks",
        title: this.title,
        unit: "events",
        sides: { fdp: "FDP outbox + worker", baseline: "bare node:http sender" },
        rows: [{ label: `${EVENTS} events, one endpoint`, fdp, baseline: bare }],
        details: {
          events: EVENTS,
          ingestBatch: BATCH,
          note: "FDP's latency runs from the ingest answer (its commit) to the receipt; the worker keeps one delivery per endpoint in flight.",
        },
      };
    } finally {
      await receiver.close();
    }
  },
};
