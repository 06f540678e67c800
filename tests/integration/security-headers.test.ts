import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEY } from "@/lib/auth/key-format";
import { SERVER_ACTION_BODY_LIMIT_BYTES } from "@/lib/certificates/pdf-check-limits";
import { SIGN_IN_LIMITED_PATH } from "@/lib/dashboard/sign-in-limit";
import { DEMO_USER_EMAIL, DEFAULT_DEMO_PASSWORD } from "@/lib/users/ensure-demo-user";
import { OPERATIONS } from "@/lib/operations/registry";
import { startApp, type AppProcess } from "../helpers/app-process";
import { createPostgresDatabase } from "../helpers/databases";
import { exampleParts, urlFor } from "../helpers/operation-requests";
import { rawRequest, requestText } from "../helpers/raw-http";

/**
 * CONTRACT "Reliability and hardening", on the production build behind server.ts (one boot): the
 * security headers on every answer (every operation of the registry, the service routes, the answers
 * server.ts and the edge guard write themselves, every page), the session cookie's flags, sign-in
 * redirects that never leave the origin and follow PUBLIC_BASE_URL, and the refusals of a cross-origin
 * or oversized server action (403/413 pages instead of Next.js's 500).
 */

const PUBLIC_BASE_URL = "https://fdp.example";
let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
let app: AppProcess;
let certificateNumber: string;
let session: string;
let nextAddress = 0;
/** A client address of its own per request (TRUST_PROXY=1): sign-in attempts never meet the limit. */
const client = () => `198.51.100.${(nextAddress++ % 250) + 1}`;

beforeAll(async () => {
  pg = await createPostgresDatabase("fdp_it_headers", "seeded");
  app = await startApp({
    mode: "start",
    env: {
      DATABASE_URL: pg.url,
      REDIS_URL: undefined,
      FDP_DEMO_USER: "1",
      FDP_DEMO_PASSWORD: undefined,
      TRUST_PROXY: "1",
      PUBLIC_BASE_URL,
      AUTH_URL: undefined,
      RATE_LIMIT_API_PER_MIN: "100000",
      RATE_LIMIT_AUTH_PER_MIN: "100000",
      RATE_LIMIT_PUBLIC_PER_MIN: "100000",
    },
  });
  const generated = await fetch(`${app.url}/api/v1/certificates/generate/sbx-001`, { method: "POST", headers: { authorization: `Bearer ${SANDBOX_KEY}` } });
  expect(generated.status).toBe(200);
  certificateNumber = ((await generated.json()) as { certificate_number: string }).certificate_number;
  session = (await signInThroughNextAuth({})).cookie;
  expect(session).toMatch(/authjs\.session-token=/);
});

afterAll(async () => {
  await app?.stop();
  await pg?.drop();
});

/** The cookies a Set-Cookie list sets, as one Cookie header. */
function cookieHeader(res: Response, previous = ""): string {
  const split = (pair: string): [string, string] => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
  const jar = new Map(previous ? previous.split("; ").map(split) : []);
  for (const line of res.headers.getSetCookie()) jar.set(...split(line.split(";")[0]!));
  return [...jar.entries()].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** A credentials sign-in through next-auth's own CSRF flow, as a browser's form post to /api/auth would. */
async function signInThroughNextAuth({ callbackUrl, headers = {} }: { callbackUrl?: string; headers?: Record<string, string> }) {
  const ip = client();
  const csrf = await fetch(`${app.url}/api/auth/csrf`, { headers: { "x-forwarded-for": ip, ...headers } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const form = { csrfToken, email: DEMO_USER_EMAIL, password: DEFAULT_DEMO_PASSWORD, ...(callbackUrl ? { callbackUrl } : {}) };
  const res = await fetch(`${app.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip, cookie: cookieHeader(csrf), ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { res, cookie: cookieHeader(res), location: res.headers.get("location") ?? "" };
}

type HeaderSource = { get(name: string): string | null } | Record<string, string>;
const header = (h: HeaderSource, name: string) => ("get" in h && typeof h.get === "function" ? (h as Headers).get(name) : ((h as Record<string, string>)[name] ?? null));

/** The headers of every answer (CONTRACT): nosniff, the referrer policy, a policy that lets nobody frame it; HSTS only when asked for. */
function expectEveryAnswerHeaders(h: HeaderSource, what: string, { https = false } = {}): string {
  expect(header(h, "x-content-type-options"), what).toBe("nosniff");
  expect(header(h, "referrer-policy"), what).toBe("strict-origin-when-cross-origin");
  if (https) expect(header(h, "strict-transport-security"), what).toMatch(/^max-age=\d{8,}/);
  else expect(header(h, "strict-transport-security"), what).toBeNull();
  const csp = header(h, "content-security-policy");
  expect(csp, what).not.toBeNull();
  expect(csp, what).toMatch(/frame-ancestors '(none|self)'/);
  return csp!;
}

/** A page's policy (CONTRACT): framed by nobody, no plugins, no foreign <base>, scripts by this request's nonce only. */
function expectPagePolicy(csp: string, what: string): string {
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'"]) expect(csp, what).toContain(directive);
  const scripts = /script-src ([^;]*)/.exec(csp)?.[1] ?? "";
  expect(scripts, what).not.toContain("'unsafe-inline'");
  expect(scripts, what).not.toContain("'unsafe-eval'");
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(scripts)?.[1];
  expect(nonce, what).toBeDefined();
  expect(scripts, what).toContain("'strict-dynamic'");
  return nonce!;
}

/** Every <script> of the page carries the nonce (else the browser would refuse to run it). */
function expectScriptsCarryNonce(html: string, nonce: string, what: string): void {
  const scripts = html.match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length, what).toBeGreaterThan(0);
  for (const tag of scripts) {
    if (/type="application\/(json|ld\+json)"/.test(tag)) continue; // data, not run
    expect(tag, what).toContain(`nonce="${nonce}"`);
  }
}

describe("headers on every answer", () => {
  it("every operation of the registry, with its example request, with the sandbox key and with none; HSTS only behind a trusted https proxy", async () => {
    expect(OPERATIONS.length).toBeGreaterThan(20);
    for (const op of OPERATIONS) {
      const parts = exampleParts(op);
      const body = op.method === "GET" ? undefined : JSON.stringify(parts.body ?? {});
      for (const key of [SANDBOX_KEY, null]) {
        for (const https of [false, true]) {
          const res = await fetch(`${app.url}${urlFor(op, parts)}`, {
            method: op.method,
            headers: {
              "x-forwarded-for": client(),
              ...(key ? { authorization: `Bearer ${key}` } : {}),
              ...(body ? { "content-type": "application/json" } : {}),
              ...(https ? { "x-forwarded-proto": "https" } : {}),
            },
            body,
          });
          const what = `${op.method} ${op.path} key=${Boolean(key)} https=${https} → ${res.status}`;
          expect(res.status, what).toBeLessThan(500);
          expect(res.headers.get("x-request-id"), what).toMatch(/^req_/);
          const csp = expectEveryAnswerHeaders(res.headers, what, { https });
          expect(csp, what).toContain("default-src 'none'");
          await res.arrayBuffer();
        }
      }
    }
  });

  it("the service routes, next-auth's, and the answers server.ts and Node write themselves (404, 405, 417, malformed HTTP, the 429 page)", async () => {
    const answers: [string, Response][] = [
      ["health", await fetch(`${app.url}/api/health`)],
      ["openapi", await fetch(`${app.url}/api/v1/openapi.json`)],
      ["auth session", await fetch(`${app.url}/api/auth/session`)],
      ["auth unknown action", await fetch(`${app.url}/api/auth/nowhere`)],
      ["mcp without key", await fetch(`${app.url}/api/mcp`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": client() }, body: "{}" })],
      ["api 404", await fetch(`${app.url}/api/v1/nowhere`)],
      ["api 405", await fetch(`${app.url}/api/v1/fleet`, { method: "PUT", headers: { authorization: `Bearer ${SANDBOX_KEY}` } })],
      ["edge guard 400", await fetch(`${app.url}/api/v1/tas/%FF`)],
      ["api trailing slash", await fetch(`${app.url}/api/v1/fleet/`, { redirect: "manual" })],
      ["429 sign-in page", await fetch(`${app.url}${SIGN_IN_LIMITED_PATH}?retry=30`)],
      ["static script", await fetch(`${app.url}/docs/assets/api-reference-init.js`)],
    ];
    for (const [what, res] of answers) {
      expectEveryAnswerHeaders(res.headers, `${what} (${res.status})`);
      await res.arrayBuffer();
    }
    expect(answers.find(([w]) => w === "429 sign-in page")![1].status).toBe(429);
    const raw = [
      ["malformed request line", await rawRequest(app.url, "GET /api/v1/fleet HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")],
      ["Expect other than 100-continue", await rawRequest(app.url, requestText("GET", "/api/health", { Expect: "teapot", Connection: "close" }))],
    ] as const;
    for (const [what, res] of raw) {
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expectEveryAnswerHeaders(res.headers, `${what} (${res.status})`);
    }
  });
});

describe("pages", () => {
  const signedOut = () => ["/", "/login", `/verify/${certificateNumber}`, "/verify/FDP-CERT-20260101-ZZZZZ", "/nowhere-at-all", "/dashboard"];
  const signedIn = () => [
    "/dashboard",
    "/dashboard/alerts",
    "/dashboard/keys",
    "/dashboard/certificates",
    `/dashboard/certificates?view=${certificateNumber}`,
    "/dashboard/reports",
    "/dashboard/vehicles/sbx-001",
    "/dashboard/vehicles/no-such-vehicle",
  ];

  it("every page, signed in and out, found or not: the page policy with a fresh nonce that every script carries", async () => {
    const nonces = new Set<string>();
    const statuses: string[] = [];
    for (const [path, cookie] of [...signedOut().map((p) => [p, ""] as const), ...signedIn().map((p) => [p, session] as const)]) {
      for (const https of [false, true]) {
        const res = await fetch(`${app.url}${path}`, {
          redirect: "manual",
          headers: { "x-forwarded-for": client(), ...(cookie ? { cookie } : {}), ...(https ? { "x-forwarded-proto": "https" } : {}) },
        });
        const what = `${path} signed-in=${Boolean(cookie)} https=${https} → ${res.status}`;
        statuses.push(what);
        expect(res.status, what).toBeLessThan(500);
        const nonce = expectPagePolicy(expectEveryAnswerHeaders(res.headers, what, { https }), what);
        expect(nonces.has(nonce), `${what}: nonce reused`).toBe(false);
        nonces.add(nonce);
        const html = await res.text();
        if (res.status < 300 || res.status === 404) expectScriptsCarryNonce(html, nonce, what);
      }
    }
    // The walk met what it meant to: pages, a 404 page, and the signed-out redirect.
    expect(statuses.some((s) => s.startsWith("/dashboard/keys signed-in=true") && s.endsWith("200"))).toBe(true);
    expect(statuses.some((s) => s.startsWith("/nowhere-at-all") && s.endsWith("404"))).toBe(true);
    expect(statuses.some((s) => s.startsWith("/dashboard signed-in=false") && /30\d$/.test(s))).toBe(true);
  });

  it("the API reference runs only its own script files; the dashboard's files may be framed by its own pages only", async () => {
    const docs = await fetch(`${app.url}/docs`);
    expect(docs.status).toBe(200);
    const csp = expectEveryAnswerHeaders(docs.headers, "/docs");
    for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "script-src 'self';"]) expect(csp).toContain(directive);
    const html = await docs.text();
    // Every script is a file of this origin or a data block: no inline code the policy would block.
    for (const m of html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/g)) {
      const [tag, body] = [m[1]!, m[2]!];
      if (/type="application\/json"/.test(tag)) continue;
      expect(tag).toMatch(/src="\/docs\/assets\//);
      expect(body.trim()).toBe("");
    }
    const pdf = await fetch(`${app.url}/dashboard/certificates/${certificateNumber}/pdf`, { headers: { cookie: session } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(expectEveryAnswerHeaders(pdf.headers, "certificate pdf")).toBe("frame-ancestors 'self'");
  });
});

describe("session cookie and sign-in redirects", () => {
  function sessionCookieLine(res: Response): string {
    const line = res.headers.getSetCookie().find((c) => /authjs\.session-token=/.test(c));
    expect(line).toBeDefined();
    return line!;
  }

  it("the session cookie is HttpOnly and SameSite=Lax; Secure (and __Secure-) only when a trusted proxy says https", async () => {
    const plain = sessionCookieLine((await signInThroughNextAuth({})).res);
    expect(plain).toMatch(/^authjs\.session-token=/);
    expect(plain).toMatch(/;\s*HttpOnly/i);
    expect(plain).toMatch(/;\s*SameSite=Lax/i);
    expect(plain).not.toMatch(/;\s*Secure/i);

    const https = sessionCookieLine((await signInThroughNextAuth({ headers: { "x-forwarded-proto": "https" } })).res);
    expect(https).toMatch(/^__Secure-authjs\.session-token=/);
    expect(https).toMatch(/;\s*Secure/i);
    expect(https).toMatch(/;\s*HttpOnly/i);
    expect(https).toMatch(/;\s*SameSite=Lax/i);
  });

  it("sign-in never redirects to another origin, whatever callbackUrl says; redirects are built from PUBLIC_BASE_URL, not the Host", async () => {
    for (const callbackUrl of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "https://fdp.example.evil.example/", "javascript:alert(1)"]) {
      const { res, location } = await signInThroughNextAuth({ callbackUrl, headers: { host: "0.0.0.0:3200" } });
      expect(res.status, callbackUrl).toBe(302);
      expect(new URL(location).origin, `${callbackUrl} → ${location}`).toBe(PUBLIC_BASE_URL);
    }
    const { location } = await signInThroughNextAuth({ callbackUrl: "/dashboard/alerts", headers: { host: "0.0.0.0:3200" } });
    expect(location).toBe(`${PUBLIC_BASE_URL}/dashboard/alerts`);
  });
});

describe("server actions", () => {
  /** The /login form as the page renders it for a browser without JavaScript: its hidden action fields. */
  async function loginFormFields(): Promise<[string, string][]> {
    const html = await (await fetch(`${app.url}/login`)).text();
    const decode = (s: string) =>
      s
        .replace(/&quot;/g, '"')
        .replace(/&#x27;/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&");
    const fields = [...html.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g)].map((m) => [decode(m[1]!), decode(m[2] ?? "")] as [string, string]);
    expect(fields.some(([name]) => name.startsWith("$ACTION_"))).toBe(true);
    return fields;
  }

  async function postLogin(origin: string | null): Promise<Response> {
    const form = new FormData();
    for (const [name, value] of await loginFormFields()) form.append(name, value);
    form.append("email", DEMO_USER_EMAIL);
    form.append("password", DEFAULT_DEMO_PASSWORD);
    const host = new URL(app.url).host;
    return fetch(`${app.url}/login`, { method: "POST", redirect: "manual", headers: { "x-forwarded-for": client(), ...(origin ? { origin } : {}), host }, body: form });
  }

  it("the sign-in form posted from another origin is refused with a 403 page and signs nobody in; from its own origin it signs in", async () => {
    for (const origin of ["https://evil.example", "null", `http://${new URL(app.url).hostname}:1`]) {
      const refused = await postLogin(origin);
      expect(refused.status, origin).toBe(403);
      expect(refused.headers.get("content-type"), origin).toMatch(/^text\/html/);
      expect(
        refused.headers.getSetCookie().some((c) => /session-token/.test(c)),
        origin,
      ).toBe(false);
      expectEveryAnswerHeaders(refused.headers, `cross-origin action from ${origin}`);
      expect(await refused.text()).toContain("sent from another website");
    }
    // A fetch-style action (Next-Action header) from another origin: the same 403, before Next.js parses it.
    const fetchAction = await fetch(`${app.url}/dashboard/keys`, {
      method: "POST",
      headers: { origin: "https://evil.example", "next-action": "0".repeat(42), cookie: session, "content-type": "text/plain;charset=UTF-8" },
      body: "[]",
    });
    expect(fetchAction.status).toBe(403);

    // Next.js's own check is unchanged behind it: the same post from the page's origin signs in.
    const accepted = await postLogin(app.url);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.getSetCookie().some((c) => /authjs\.session-token=/.test(c))).toBe(true);
    // next-auth's redirect from PUBLIC_BASE_URL, not the bind address.
    expect(accepted.headers.get("location")).toBe(`${PUBLIC_BASE_URL}/dashboard`);
  });

  it("a server action announcing a body over the limit gets a 413 page, not Next.js's 500", async () => {
    const res = await fetch(`${app.url}/verify/${certificateNumber}`, {
      method: "POST",
      headers: { origin: app.url, "next-action": "0".repeat(42), "content-type": "text/plain;charset=UTF-8" },
      body: "x".repeat(SERVER_ACTION_BODY_LIMIT_BYTES + 1),
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("2 MiB");
  });
});
