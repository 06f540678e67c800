import type { TenantCtx } from "@/lib/context";
import { auth } from "./auth";
import { sessionTenantCtx } from "./session";

/**
 * For the dashboard's route handlers (PDF and CSV downloads under /dashboard): the session's tenant
 * context, or null when signed out, so the handler answers 401 rather than a redirect to an HTML page
 * that a download would save as a file. Same rules as requireDashboardSession: the tenant comes from
 * the session cookie only.
 */
export async function dashboardRouteCtx(request: Request, operation: string): Promise<TenantCtx | null> {
  const user = (await auth())?.user;
  if (!user?.id || !user.tenantId) return null;
  return sessionTenantCtx({ userId: user.id, tenantId: user.tenantId }, request.headers.get("x-request-id"), operation);
}

/** A plain-text refusal (these routes are not API operations: no JSON envelope is promised). */
export function plainAnswer(status: 401 | 404 | 400, message: string): Response {
  return new Response(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
