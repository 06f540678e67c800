import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { TenantCtx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
import { requestIdFrom } from "@/lib/http/request-id";
import { requestLogger } from "@/lib/log/logger";
import { auth } from "./auth";

export interface DashboardSession {
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
  // The same request id rules as the API: a caller's well-formed X-Request-Id, else a new one.
  const log = requestLogger({ requestId: requestIdFrom((await headers()).get("x-request-id")), operation: "dashboard" }).child({ user_id: user.id });
  return {
    userId: user.id,
    email: user.email,
    tenantId: user.tenantId,
    ctx: { db: await getDb(), tenantId: user.tenantId, isSandbox: user.tenantId === SANDBOX_TENANT_ID, log },
  };
});
