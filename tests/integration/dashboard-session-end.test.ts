import { readFileSync } from "node:fs";
import path from "node:path";
import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenants, users } from "@/lib/db/schema";
import { createUser } from "@/lib/users/create-user";
import { ROOT, startApp, type AppProcess } from "../helpers/app-process";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { createTenantWithKey } from "../helpers/fixtures";

/**
 * Issue 28 finding 4, replayed the way it was found: a session cookie copied before a password change
 * (or the user's deletion) was sent to the keys page's server actions of the production build and still
 * revealed the ingest secret and created an all-scope API key. Now the actions answer as signed out
 * (a redirect to /login) and change nothing, while a current session keeps working. The actions taking
 * no form (reveal, rotate) are called here; the others (create and revoke keys) start with the same
 * requireDashboardSession() call (app/dashboard/keys/actions.ts).
 */
let tdb: TestDatabase;
let app: AppProcess;
let tenantId: string;
let ingestSecret: string;
const PASSWORD = "correct-horse-battery";

/** The build's id of a server action, by its file and exported name (Next.js's server-reference manifest). */
function actionId(exportedName: string): string {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, v]) => v.exportedName === exportedName && v.filename?.includes("dashboard/keys/actions"));
  if (!found) throw new Error(`no server action ${exportedName} in the build`);
  return found[0];
}

function cookieHeader(res: Response, previous = ""): string {
  const split = (pair: string): [string, string] => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
  const jar = new Map(previous ? previous.split("; ").map(split) : []);
  for (const line of res.headers.getSetCookie()) jar.set(...split(line.split(";")[0]!));
  return [...jar.entries()].map(([k, v]) => `${k}=${v}`).join("; ");
}

async function signIn(email: string): Promise<string> {
  const csrf = await fetch(`${app.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${app.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookieHeader(csrf) },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD }).toString(),
  });
  const cookie = cookieHeader(res, cookieHeader(csrf));
  expect(cookie).toMatch(/authjs\.session-token=/);
  return cookie;
}

/** Calls a keys-page server action as the browser does (React's reply encoding: a JSON array of its arguments). */
async function callAction(name: string, cookie: string, body: string): Promise<{ status: number; text: string; redirect: string | null }> {
  const res = await fetch(`${app.url}/dashboard/keys`, {
    method: "POST",
    redirect: "manual",
    headers: { "next-action": actionId(name), origin: app.url, cookie, accept: "text/x-component", "content-type": "text/plain;charset=UTF-8" },
    body,
  });
  return { status: res.status, text: await res.text(), redirect: res.headers.get("x-action-redirect") };
}

const storedSecret = async () => (await tdb.handle.db.select({ s: tenants.ingestSecret }).from(tenants).where(eq(tenants.id, tenantId)))[0]!.s;

beforeAll(async () => {
  tdb = await createTestDatabase("postgres");
  const t = await createTenantWithKey(tdb.handle.db, { name: "Session end" });
  tenantId = t.tenantId;
  ingestSecret = t.ingestSecret;
  for (const email of ["stays@acme.example", "changes@acme.example", "leaves@acme.example"]) {
    await createUser({ ctx: { db: tdb.handle.db }, input: { tenantId, email, password: PASSWORD } });
  }
  app = await startApp({ mode: "start", env: { DATABASE_URL: tdb.url, REDIS_URL: undefined, RATE_LIMIT_AUTH_PER_MIN: "1000" } });
});

afterAll(async () => {
  await app?.stop();
  await tdb?.dispose();
});

describe("a copied session cookie after a password change or the user's deletion", () => {
  it("a current session reveals the ingest secret and rotates it through the server actions", async () => {
    const cookie = await signIn("stays@acme.example");
    const reveal = await callAction("revealSecretAction", cookie, "[]");
    expect(reveal.status).toBe(200);
    expect(reveal.text).toContain(ingestSecret);
    const rotated = await callAction("rotateSecretAction", cookie, "[]");
    expect(rotated.status).toBe(200);
    ingestSecret = await storedSecret();
    expect(rotated.text).toContain(ingestSecret);
    expect((await callAction("revealSecretAction", cookie, "[]")).text).toContain(ingestSecret);
  });

  for (const change of ["password change", "deletion"] as const) {
    it(`after the user's ${change}: the replayed cookie neither reveals nor rotates the ingest secret`, async () => {
      const email = change === "deletion" ? "leaves@acme.example" : "changes@acme.example";
      const cookie = await signIn(email);
      if (change === "deletion") await tdb.handle.db.delete(users).where(eq(users.email, email));
      else
        await tdb.handle.db
          .update(users)
          .set({ passwordHash: await bcrypt.hash("another-password-42", 4) })
          .where(eq(users.email, email));
      const reveal = await callAction("revealSecretAction", cookie, "[]");
      expect(reveal.text).not.toContain(ingestSecret);
      expect(reveal.redirect ?? "").toMatch(/\/login/);
      const rotate = await callAction("rotateSecretAction", cookie, "[]");
      expect(rotate.redirect ?? "").toMatch(/\/login/);
      expect(await storedSecret()).toBe(ingestSecret);
    });
  }
});
