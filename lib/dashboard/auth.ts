import NextAuth, { type DefaultSession } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { rootLogger } from "@/lib/log/logger";
import { normalizeEmail } from "@/lib/users/password-policy";
import { verifyUserPassword } from "@/lib/users/verify-user-password";
import { authSecret } from "./auth-secret";
import { applyPublicAuthUrl, sameOriginRedirect, sessionCookiesSecure } from "./auth-urls";
import { stillValidToken } from "./session-validity";

/**
 * Dashboard sign-in (next-auth v5): e-mail and password against the users of `npm run admin --
 * user:create` (bcrypt, lib/users/verify-user-password.ts). Sessions are JWTs in an encrypted cookie
 * (Credentials allows no other strategy) carrying the user id, e-mail and tenant id: every dashboard
 * page takes its tenant from here and nowhere else (lib/dashboard/session.ts).
 */

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; tenantId: string } & DefaultSession["user"];
  }
  interface User {
    tenantId?: string;
    /** lib/users/credential-fingerprint.ts: the session ends when the password or the user changes. */
    credentialFingerprint?: string;
  }
}

/** A working day: long enough not to nag, short enough that a forgotten browser session ends. */
const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

/** next-auth error types caused by the request, not by FDP (https://errors.authjs.dev). */
const CLIENT_ERROR_TYPES = new Set(["UnknownAction", "MissingCSRF", "InvalidCheck", "UntrustedHost"]);

const log = () => rootLogger().child({ operation: "dashboard-auth" });

// next-auth's links and redirects from PUBLIC_BASE_URL when one is configured (lib/dashboard/auth-urls.ts).
applyPublicAuthUrl();

/** The request's `X-Forwarded-Proto`: from the route's request, else (server actions, pages) from Next.js's headers(). */
async function forwardedProto(req: Request | undefined): Promise<string | null> {
  if (req) return req.headers.get("x-forwarded-proto");
  try {
    const { headers } = await import("next/headers");
    return (await headers()).get("x-forwarded-proto");
  } catch {
    return null; // outside a request (a script): no cookie is set there
  }
}

// Lazy configuration: the secret (maybe a generated file) is read on the first request, not at build.
export const { handlers, auth, signIn, signOut } = NextAuth(async (req) => ({
  secret: authSecret(),
  trustHost: env().AUTH_TRUST_HOST,
  // CONTRACT "Reliability and hardening": cookies (next-auth's own defaults: HttpOnly, SameSite=Lax,
  // Path=/) Secure when the request arrived over https. Secure cookies also take next-auth's
  // `__Secure-` names, which a browser accepts only over https.
  useSecureCookies: sessionCookiesSecure(await forwardedProto(req)),
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/login", error: "/login" },
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const email = typeof credentials?.email === "string" ? credentials.email : "";
        const password = typeof credentials?.password === "string" ? credentials.password : "";
        if (!email || !password || email.length > 1024 || password.length > 1024) return null;
        const user = await verifyUserPassword({ ctx: { db: await getDb() }, input: { email, password } });
        if (!user) return null;
        return { id: user.userId, email: normalizeEmail(email), tenantId: user.tenantId, credentialFingerprint: user.credentialFingerprint };
      },
    }),
  ],
  callbacks: {
    // Sign-in and sign-out never leave this origin, whatever callbackUrl says (lib/dashboard/auth-urls.ts).
    redirect: sameOriginRedirect,
    async jwt({ token, user }) {
      // `user` is present only on sign-in: copy what the session needs into the token once.
      if (user) {
        token.sub = user.id;
        token.email = user.email;
        token.tenantId = user.tenantId;
        token.cfp = user.credentialFingerprint;
        return token;
      }
      // Every later read of the session (each page, route and server action calls auth()) checks that
      // the user still exists with the password it signed in with; null ends the session and clears the
      // cookie (lib/dashboard/session-validity.ts).
      return stillValidToken(token);
    },
    session({ session, token }) {
      session.user.id = String(token.sub ?? "");
      session.user.email = String(token.email ?? "");
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- next-auth types custom claims as unknown; jwt() above stored a string
      session.user.tenantId = String(token.tenantId ?? "");
      return session;
    },
  },
  // A wrong password is an expected event (the page says so), and a malformed request to /api/auth is
  // the client's error (answered 4xx by lib/dashboard/auth-route.ts): neither deserves an error line
  // with a stack. Anything else is logged; no stack ever reaches a response.
  logger: {
    error(error) {
      const type = (error as { type?: string }).type ?? error.name;
      if (type === "CredentialsSignin") return;
      if (CLIENT_ERROR_TYPES.has(type)) {
        log().warn({ type, message: error.message }, "next-auth refused a request");
        return;
      }
      log().error({ err: error }, "next-auth error");
    },
    warn(code) {
      log().warn({ code }, "next-auth warning");
    },
    debug() {},
  },
}));
