import type { JWT } from "next-auth/jwt";
import { getDb } from "@/lib/db/client";
import { currentSessionUser } from "@/lib/users/credential-fingerprint";

/**
 * CONTRACT "Reliability and hardening": a dashboard session ends when its user is deleted or its
 * password changes. The session is a JWT in an encrypted cookie, valid on its own until it expires, so
 * a copied cookie outlived both (issue 28: it still revealed the ingest secret and created API keys).
 * next-auth runs the `jwt` callback on every read of the session, and every dashboard page, download
 * route and server action reads it (requireDashboardSession, dashboardRouteCtx), so checking here covers
 * all of them, each time: stricter than the CONTRACT's "at least every 60 s", for one primary-key read
 * per dashboard request. A token signed in before this check existed carries no fingerprint and ends
 * too (its user signs in once more). The tenant is refreshed from the row as well.
 */
export async function stillValidToken(token: JWT): Promise<JWT | null> {
  const userId = typeof token.sub === "string" ? token.sub : "";
  const fingerprint = typeof token.cfp === "string" ? token.cfp : "";
  if (!userId || !fingerprint) return null;
  const user = await currentSessionUser({ ctx: { db: await getDb() }, input: { userId, fingerprint } });
  if (!user) return null;
  return { ...token, tenantId: user.tenantId, email: user.email };
}
