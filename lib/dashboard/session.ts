import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { TenantCtx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { requestIdFrom } from "@/lib/http/request-id";
import { requestLogger } from "@/lib/log/logger";
import { auth } from "./auth";

interface DashboardSession {
  userId: string;
  email: string;
  tenantId: string;
  /** What the lib/ verbs take: `listFleet({ ctx, input })`, the same verbs the API binds. */
  ctx: TenantCtx;
}

/**
 * Every dashboard page and server action starts here: the signed-in user, or a redirect to /login.
 * The tenant comes from the session cookie only (set at sign-in from the user's row), never from a
 * URL, form field or query parameter. Called by each page, not only by the layout, because Next.js
 * does not re-render a layout on client-side navigation between its pages. Memoised per request
 * (React `cache`), so the layout and the page decode the session cookie once.
 */
export const requireDashboardSession = cache(async (): Promise<DashboardSession> => {
  const session = await auth();
  const user = session?.user;
  if (!user?.id || !user.tenantId || !user.email) redirect("/login");
  return {
    userId: user.id,
    email: user.email,
    tenantId: user.tenantId,
    ctx: await sessionTenantCtx({ userId: user.id, tenantId: user.tenantId }, (await headers()).get("x-request-id"), "dashboard"),
  };
});

/**
 * The verbs' TenantCtx for a signed-in user: the tenant from the session, a logger with the same
 * request id rules as the API (a caller's well-formed X-Request-Id, else a new one). Pages, server
 * actions and the dashboard's download routes (route-session.ts) all build it here.
 */
export async function sessionTenantCtx(user: { userId: string; tenantId: string }, requestIdHeader: string | null, operation: string): Promise<TenantCtx> {
  const log = requestLogger({ requestId: requestIdFrom(requestIdHeader), operation }).child({ user_id: user.userId });
  return { db: await getDb(), tenantId: user.tenantId, isSandbox: user.tenantId === SANDBOX_TENANT_ID, log };
}
