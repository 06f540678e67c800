import { describe, expect, it } from "vitest";
import { createDatabaseGate, databaseUnavailableAnswer, pageNeedsDatabase } from "@/lib/http/database-gate";

/** A probe whose answers the test releases one by one, counting how often the gate asked. */
function controlledProbe() {
  const waiting: Array<(up: boolean) => void> = [];
  let calls = 0;
  return {
    probe: () => {
      calls++;
      return new Promise<boolean>((resolve) => waiting.push(resolve));
    },
    answer(up: boolean) {
      waiting.shift()!(up);
    },
    get calls() {
      return calls;
    },
  };
}

describe("database gate", () => {
  it("asks the database once for all page requests arriving during a probe, and caches the answer for the TTL", async () => {
    let clock = 0;
    const p = controlledProbe();
    const gate = createDatabaseGate({ probe: p.probe, ttlMs: 1_000, now: () => clock });
    const first = [gate.available(), gate.available(), gate.available()];
    expect(p.calls).toBe(1);
    p.answer(true);
    expect(await Promise.all(first)).toEqual([true, true, true]);
    clock = 999;
    expect(await gate.available()).toBe(true);
    expect(p.calls).toBe(1);
    clock = 1_000; // stale: asked again
    const next = gate.available();
    expect(p.calls).toBe(2);
    p.answer(false);
    expect(await next).toBe(false);
    expect(await gate.available()).toBe(false); // the down answer is cached too
    expect(p.calls).toBe(2);
  });

  it("takes a probe that throws for a database that is down, and recovers on the next probe", async () => {
    let clock = 0;
    let fail = true;
    const gate = createDatabaseGate({ probe: async () => (fail ? Promise.reject(new Error("ECONNREFUSED")) : true), ttlMs: 10, now: () => clock });
    expect(await gate.available()).toBe(false);
    fail = false;
    clock = 10;
    expect(await gate.available()).toBe(true);
  });

  it("gates the pages that read the database, and nothing else", () => {
    for (const page of ["/dashboard", "/dashboard/keys", "/login", "/verify/FDP-2026-000001"]) expect(pageNeedsDatabase(page), page).toBe(true);
    for (const other of ["/", "/docs", "/api/v1/fleet", "/api/health", "/_next/static/chunks/x.js", "/dashboards", "/loginx"]) expect(pageNeedsDatabase(other), other).toBe(false);
  });

  it("answers a script-free 503 page with Retry-After that says nothing saved is lost", () => {
    const answer = databaseUnavailableAnswer();
    expect(answer.status).toBe(503);
    expect(Number(answer.headers["Retry-After"])).toBeGreaterThan(0);
    expect(answer.headers["Cache-Control"]).toBe("no-store");
    expect(answer.html).toContain("<h1>FDP is briefly unavailable</h1>");
    expect(answer.html).toContain("Nothing you saved is lost");
    expect(answer.html).not.toMatch(/<script/i);
  });
});
