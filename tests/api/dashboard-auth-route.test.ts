import { afterAll, beforeAll, describe, expect, it } from "vitest";
import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { users } from "@/lib/db/schema";
import { createUser } from "@/lib/users/create-user";
import { createTenantWithKey } from "../helpers/fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startRouteServer, type RouteServer } from "../helpers/route-server";

/**
 * next-auth's endpoints under /api/auth (lib/dashboard/auth-route.ts) over HTTP: a full credentials
 * sign-in through next-auth's own CSRF flow yields a session carrying the user's tenant; its answers
 * carry X-Request-Id; its refusals are the CONTRACT's JSON envelope; and its credentials endpoint
 * counts against the sign-in limit like the /login form (RATE_LIMIT_AUTH_PER_MIN).
 */
let tdb: TestDatabase;
let app: RouteServer;
let tenantId: string;
const LIMIT = 6;
const PASSWORD = "correct-horse-battery";

beforeAll(async () => {
  tdb = await createTestDatabase();
  tenantId = (await createTenantWithKey(tdb.handle.db)).tenantId;
  await createUser({ ctx: { db: tdb.handle.db }, input: { tenantId, email: "Ops@Acme.example", password: PASSWORD } });
  app = await startRouteServer({
    db: tdb.handle,
    env: { RATE_LIMIT_AUTH_PER_MIN: String(LIMIT), REDIS_URL: undefined, DATABASE_URL: tdb.url, AUTH_SECRET: "test-secret-of-at-least-thirty-two-chars", TRUST_PROXY: "1" },
  });
});

afterAll(async () => {
  await app?.close();
  await tdb?.dispose();
});

/** The cookies a Set-Cookie list sets, as one Cookie header. */
function cookieHeader(res: Response, previous = ""): string {
  const split = (pair: string): [string, string] => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
  const jar = new Map(previous ? previous.split("; ").map(split) : []);
  for (const line of res.headers.getSetCookie()) jar.set(...split(line.split(";")[0]!));
  return [...jar.entries()].map(([k, v]) => `${k}=${v}`).join("; ");
}

async function csrf(ip: string): Promise<{ token: string; cookie: string }> {
  const res = await app.fetch("/api/auth/csrf", { key: null, headers: { "x-forwarded-for": ip } });
  expect(res.status).toBe(200);
  return { token: ((await res.json()) as { csrfToken: string }).csrfToken, cookie: cookieHeader(res) };
}

function postCredentials(ip: string, form: Record<string, string>, cookie = ""): Promise<Response> {
  return app.fetch("/api/auth/callback/credentials", {
    key: null,
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(form).toString(),
  });
}

describe("/api/auth", () => {
  it("signs in with next-auth's CSRF flow; the session carries the user id, e-mail and tenant", async () => {
    const ip = "203.0.113.1";
    const { token, cookie } = await csrf(ip);
    const signIn = await postCredentials(ip, { csrfToken: token, email: "ops@acme.example", password: PASSWORD }, cookie);
    expect(signIn.status).toBe(302);
    expect(signIn.headers.get("x-request-id")).toMatch(/^req_/);
    const withSession = cookieHeader(signIn, cookie);
    expect(withSession).toMatch(/authjs\.session-token=/);

    const session = await app.fetch("/api/auth/session", { key: null, headers: { cookie: withSession } });
    expect(session.status).toBe(200);
    const body = (await session.json()) as { user: { id: string; email: string; tenantId: string } };
    expect(body.user).toMatchObject({ email: "ops@acme.example", tenantId });
    expect(body.user.id).toMatch(/^usr_/);
  });

  it("a wrong password gets no session", async () => {
    const ip = "203.0.113.2";
    const { token, cookie } = await csrf(ip);
    const res = await postCredentials(ip, { csrfToken: token, email: "ops@acme.example", password: "wrong-password" }, cookie);
    expect(res.status).toBeLessThan(400); // next-auth redirects to the sign-in page with an error code
    expect(res.headers.get("location")).toMatch(/error=CredentialsSignin/);
    expect(cookieHeader(res, cookie)).not.toMatch(/authjs\.session-token=/);
  });

  it("refusals are the JSON envelope with the request id, never next-auth's HTML or a stack", async () => {
    const unknown = await app.fetch("/api/auth/no-such-action", { key: null });
    expect(unknown.status).toBe(400);
    const body = (await unknown.json()) as { error: string; message: string; request_id: string };
    expect(body.error).toBe("invalid_request");
    expect(body.request_id).toBe(unknown.headers.get("x-request-id"));
    expect(body.message).not.toMatch(/\.js:\d+/);

    // No CSRF token: next-auth refuses the credentials post.
    const noCsrf = await postCredentials("203.0.113.3", { email: "ops@acme.example", password: PASSWORD });
    expect(noCsrf.headers.get("x-request-id")).toMatch(/^req_/);
    expect(noCsrf.headers.getSetCookie().join(";")).not.toMatch(/authjs\.session-token=/);
  });

  describe("a session ends when its user is deleted or its password changes (a replayed cookie included)", () => {
    async function signedInCookie(email: string, password: string, ip: string): Promise<string> {
      const { token, cookie } = await csrf(ip);
      const res = await postCredentials(ip, { csrfToken: token, email, password }, cookie);
      expect(res.status).toBe(302);
      const withSession = cookieHeader(res, cookie);
      expect(withSession).toMatch(/authjs\.session-token=/);
      return withSession;
    }
    const sessionOf = async (cookie: string) => {
      const res = await app.fetch("/api/auth/session", { key: null, headers: { cookie } });
      expect(res.status).toBe(200);
      return { body: (await res.json()) as { user?: { id: string; tenantId: string } } | null, setCookie: res.headers.getSetCookie().join("\n") };
    };
    const userRow = async (email: string) => (await tdb.handle.db.select().from(users).where(eq(users.email, email)))[0]!;

    it("a normal session keeps working, read after read", async () => {
      await createUser({ ctx: { db: tdb.handle.db }, input: { tenantId, email: "steady@acme.example", password: PASSWORD } });
      const cookie = await signedInCookie("steady@acme.example", PASSWORD, "203.0.113.20");
      for (let i = 0; i < 3; i++) expect((await sessionOf(cookie)).body?.user).toMatchObject({ tenantId });
    });

    it("after a password change the old cookie is no session (and is cleared); signing in with the new password works", async () => {
      await createUser({ ctx: { db: tdb.handle.db }, input: { tenantId, email: "changes@acme.example", password: PASSWORD } });
      const cookie = await signedInCookie("changes@acme.example", PASSWORD, "203.0.113.21");
      expect((await sessionOf(cookie)).body?.user).toMatchObject({ tenantId });
      // What any password change does: a new bcrypt hash in the row (even of the same password: new salt).
      await tdb.handle.db
        .update(users)
        .set({ passwordHash: await bcrypt.hash("a-new-password-123", 4) })
        .where(eq(users.email, "changes@acme.example"));
      const replay = await sessionOf(cookie);
      expect(replay.body?.user).toBeUndefined();
      expect(replay.setCookie).toMatch(/authjs\.session-token=;/);
      expect((await sessionOf(await signedInCookie("changes@acme.example", "a-new-password-123", "203.0.113.21"))).body?.user).toMatchObject({ tenantId });
    });

    it("after the user's deletion the old cookie is no session", async () => {
      await createUser({ ctx: { db: tdb.handle.db }, input: { tenantId, email: "leaves@acme.example", password: PASSWORD } });
      const cookie = await signedInCookie("leaves@acme.example", PASSWORD, "203.0.113.22");
      const { id } = await userRow("leaves@acme.example");
      expect((await sessionOf(cookie)).body?.user).toMatchObject({ id, tenantId });
      await tdb.handle.db.delete(users).where(eq(users.id, id));
      expect((await sessionOf(cookie)).body?.user).toBeUndefined();
    });
  });

  it(`the credentials endpoint counts against the sign-in limit per client IP: attempt ${LIMIT + 1} is 429`, async () => {
    const ip = "203.0.113.4";
    for (let i = 0; i < LIMIT; i++) {
      const res = await postCredentials(ip, { email: "ops@acme.example", password: `guess-${i}` });
      expect(res.status, `attempt ${i + 1}`).not.toBe(429);
    }
    const over = await postCredentials(ip, { email: "ops@acme.example", password: PASSWORD });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(over.headers.get("ratelimit-limit")).toBe(String(LIMIT));
    expect(((await over.json()) as { error: string }).error).toBe("rate_limited");
    // Another address is not affected.
    expect((await postCredentials("203.0.113.5", { email: "ops@acme.example", password: "x" })).status).not.toBe(429);
  });

  it("a guesser prepending a fresh X-Forwarded-For value to every attempt is still counted under the address its proxy appended", async () => {
    const ip = "203.0.113.6";
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await postCredentials(`198.51.100.${i + 1}, ${ip}`, { email: "ops@acme.example", password: `guess-${i}` });
      statuses.push(res.status);
    }
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
    expect(statuses.slice(0, LIMIT)).not.toContain(429);
  });
});
