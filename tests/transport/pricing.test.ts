import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * The pricing calculators over HTTP: the worked examples of tests/unit/pricing/ as answered by the
 * endpoints (rounded to the cent), any valid key accepted whatever its scopes, the per-key rate limit,
 * and 400s naming the field for out-of-range numbers.
 */
let tdb: TestDatabase;
let app: RouteServer;
let key: string;
let mcpOnly: string;
let limited: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const db = tdb.handle.db;
  key = (await createTenantWithKey(db)).key;
  mcpOnly = (await createTenantWithKey(db, { scopes: ["mcp"] })).key;
  limited = (await createTenantWithKey(db, { rateLimitPerMin: 2 })).key;
  app = await startRouteServer({ db: tdb.handle, env: { RATE_LIMIT_API_PER_MIN: "10000", RATE_LIMIT_AUTH_PER_MIN: "10000", REDIS_URL: undefined, DATABASE_URL: tdb.url } });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

const post = (path: string, body: unknown, k: string | null = key) =>
  app.fetch(`/api/v1/pricing/${path}`, { key: k, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

interface ErrorBody {
  error: string;
  details?: { field: string; message: string }[];
}

describe("POST /pricing/gordon-loeb", () => {
  it("class I worked example: z* = 123,606.80, ENBIS 152,786.40; proposed 100,000: ROI 1.5", async () => {
    const res = await post("gordon-loeb", {
      vulnerability: 0.5,
      potential_loss_eur: 1_000_000,
      breach_function: { class: "I", alpha: 0.00001, beta: 1 },
      proposed_investment_eur: 100_000,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      method: "gordon-loeb-2027.01",
      expected_loss_eur: 500_000,
      max_optimal_investment_eur: 183_939.72,
      optimum: { investment_eur: 123_606.8, vulnerability_after: 0.223607, loss_reduction_eur: 276_393.2, enbis_eur: 152_786.4, share_of_expected_loss: 0.247214 },
      proposed: { investment_eur: 100_000, within_bound: true, vulnerability_after: 0.25, loss_reduction_eur: 250_000, enbis_eur: 150_000, roi: 1.5 },
    });
    expect(body.interpretation).toContain("EUR 123,606.80");
    expect((body.sources as string[])[0]).toContain("Gordon and M. P. Loeb (2002)");
  });

  it("class II, no proposal: optimum only", async () => {
    const body = (await (await post("gordon-loeb", { vulnerability: 0.5, potential_loss_eur: 1_000_000, breach_function: { class: "II", alpha: 0.00001 } })).json()) as {
      optimum: { investment_eur: number; vulnerability_after: number };
      proposed: unknown;
    };
    expect(body.optimum.investment_eur).toBeCloseTo((Math.log(5 * Math.LN2) / Math.LN2) * 1e5, 2);
    expect(body.optimum.vulnerability_after).toBe(0.14427); // 1/(10 ln 2) = 0.1442695…, to 6 decimals
    expect(body.proposed).toBeNull();
  });

  it("accepts any valid key, whatever its scopes; 401 without one; limited per key (429)", async () => {
    const ok = { vulnerability: 0.1, potential_loss_eur: 10 };
    expect((await post("gordon-loeb", ok, mcpOnly)).status).toBe(200);
    expect((await post("gordon-loeb", ok, null)).status).toBe(401);
    expect((await post("gordon-loeb", ok, limited)).status).toBe(200);
    expect((await post("commission", { contributed_capital_eur: 1, total_distributions_eur: 1, preferred_return_pct: 8, holding_period_years: 1 }, limited)).status).toBe(200);
    const third = await post("gordon-loeb", ok, limited);
    expect(third.status).toBe(429);
    expect(third.headers.get("ratelimit-limit")).toBe("2");
  });

  it("400 naming the field for out-of-range and wrongly typed numbers", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ vulnerability: 1.5, potential_loss_eur: 1 }, "vulnerability"],
      [{ vulnerability: -0.1, potential_loss_eur: 1 }, "vulnerability"],
      [{ vulnerability: 0.5, potential_loss_eur: 0 }, "potential_loss_eur"],
      [{ vulnerability: 0.5, potential_loss_eur: 1e13 }, "potential_loss_eur"],
      [{ vulnerability: 0.5, potential_loss_eur: "1000" }, "potential_loss_eur"],
      [{ vulnerability: 0.5, potential_loss_eur: 1, proposed_investment_eur: -1 }, "proposed_investment_eur"],
      [{ vulnerability: 0.5, potential_loss_eur: 1, breach_function: { class: "I", alpha: 0, beta: 1 } }, "breach_function.alpha"],
      [{ vulnerability: 0.5, potential_loss_eur: 1, breach_function: { class: "I", alpha: 1 } }, "breach_function.beta"],
      [{ vulnerability: 0.5, potential_loss_eur: 1, breach_function: { class: "III", alpha: 1 } }, "breach_function.class"],
    ];
    for (const [body, field] of cases) {
      const res = await post("gordon-loeb", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as ErrorBody;
      expect(err.error).toBe("invalid_request");
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
  });
});

describe("POST /pricing/commission", () => {
  it("the hand-worked 100 M / 180 M example, tier by tier", async () => {
    const res = await post("commission", { contributed_capital_eur: 100e6, total_distributions_eur: 180e6, preferred_return_pct: 8, holding_period_years: 5 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      method: "carry-waterfall-2027.01",
      inputs: { compounding: "annual", carry_pct: 20, catch_up_pct: 100, gp_commitment_pct: 0, committed_capital_eur: null },
      profit_eur: 80e6,
      preferred_return_due_eur: 46_932_807.68,
      tiers: [
        { tier: "return_of_capital", total_eur: 100e6, to_lps_eur: 100e6, to_gp_eur: 0 },
        { tier: "preferred_return", total_eur: 46_932_807.68, to_lps_eur: 46_932_807.68, to_gp_eur: 0 },
        { tier: "gp_catch_up", total_eur: 11_733_201.92, to_lps_eur: 0, to_gp_eur: 11_733_201.92 },
        { tier: "carried_interest_split", total_eur: 21_333_990.4, to_lps_eur: 17_067_192.32, to_gp_eur: 4_266_798.08 },
      ],
      totals: { to_lps_eur: 164e6, to_gp_eur: 16e6, gp_carry_eur: 16e6, gp_commitment_distributions_eur: 0 },
      effective_carry_pct: 20,
      hurdle_met: true,
      catch_up_complete: true,
    });
  });

  it("no profit: notes say so, effective carry null", async () => {
    const body = (await (await post("commission", { contributed_capital_eur: 100e6, total_distributions_eur: 90e6, preferred_return_pct: 8, holding_period_years: 5 })).json()) as {
      effective_carry_pct: number | null;
      notes: string[];
      totals: { gp_carry_eur: number };
    };
    expect(body.effective_carry_pct).toBeNull();
    expect(body.totals.gp_carry_eur).toBe(0);
    expect(body.notes.join(" ")).toContain("No profit");
  });

  it("400 naming the field: out-of-range rates, committed below contributed, unknown compounding", async () => {
    const ok = { contributed_capital_eur: 100e6, total_distributions_eur: 180e6, preferred_return_pct: 8, holding_period_years: 5 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, carry_pct: 101 }, "carry_pct"],
      [{ ...ok, catch_up_pct: -5 }, "catch_up_pct"],
      [{ ...ok, preferred_return_pct: 120 }, "preferred_return_pct"],
      [{ ...ok, holding_period_years: 101 }, "holding_period_years"],
      [{ ...ok, contributed_capital_eur: 0 }, "contributed_capital_eur"],
      [{ ...ok, total_distributions_eur: null }, "total_distributions_eur"],
      [{ ...ok, compounding: "monthly" }, "compounding"],
      [{ ...ok, gp_commitment_pct: 100 }, "gp_commitment_pct"],
      [{ ...ok, committed_capital_eur: 50e6 }, "committed_capital_eur"],
    ];
    for (const [body, field] of cases) {
      const res = await post("commission", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as ErrorBody;
      expect(err.details?.map((d) => d.field)).toContain(field);
    }
  });
});
