import { redirect } from "next/navigation";
import { SANDBOX_TENANT_ID } from "@/lib/auth/key-format";
import type { TenantCtx } from "@/lib/context";
import { getDb } from "@/lib/db/client";
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
 * does not re-render a layout on client-side navigation between its pages.
 */
export async function requireDashboardSession(): Promise<DashboardSession> {
  const session = await auth();
  const user = session?.user;
  if (!user?.id || !user.tenantId || !user.email) redirect("/login");
  const log = requestLogger({ requestId: `dash_${user.id}`, operation: "dashboard" });
  return {
    userId: user.id,
    email: user.email,
    tenantId: user.tenantId,
    ctx: { db: await getDb(), tenantId: user.tenantId, isSandbox: user.tenantId === SANDBOX_TENANT_ID, log },
  };
}
