import { getCertificatePdf } from "@/lib/certificates/get-certificate-pdf";
import { dashboardRouteCtx, plainAnswer } from "@/lib/dashboard/route-session";
import { NotFoundError } from "@/lib/errors";
import { CERTIFICATE_NUMBER_PATTERN } from "@/lib/schemas/certificates";

export const dynamic = "force-dynamic";

/**
 * The certificate's stored PDF for the signed-in user's tenant, through the API's own verb: inline for
 * the viewer on /dashboard/certificates, an attachment with `?download=1`. Signed out: 401; unknown or
 * another tenant's number: 404 (the two look the same).
 */
export async function GET(request: Request, { params }: { params: Promise<{ number: string }> }): Promise<Response> {
  const ctx = await dashboardRouteCtx(request, "dashboard.certificatePdf");
  if (!ctx) return plainAnswer(401, "Sign in to the dashboard to open this certificate.");
  const { number } = await params;
  if (!CERTIFICATE_NUMBER_PATTERN.test(number)) return plainAnswer(404, "No such certificate.");
  try {
    const answer = await getCertificatePdf({ ctx, input: { certificate_number: number } });
    const download = new URL(request.url).searchParams.get("download") === "1";
    if (!download) answer.headers.set("Content-Disposition", `inline; filename="${number}.pdf"`);
    // The viewer frames this route on the dashboard's own origin only.
    answer.headers.set("X-Frame-Options", "SAMEORIGIN");
    return answer;
  } catch (err) {
    if (err instanceof NotFoundError) return plainAnswer(404, "No such certificate.");
    throw err;
  }
}
