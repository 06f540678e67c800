"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { generateCertificate } from "@/lib/certificates/generate-certificate";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { NotFoundError } from "@/lib/errors";

export type GenerateCertificateState = { error: string | null };

/**
 * "Generate certificate": the API's own verb (endpoint 11) for the session's tenant. A server action,
 * so Next.js refuses cross-site posts (Origin must match Host); the device id is only looked up in the
 * session's tenant, so another tenant's vehicle is "not found".
 */
export async function generateCertificateAction(_previous: GenerateCertificateState, form: FormData): Promise<GenerateCertificateState> {
  const { ctx } = await requireDashboardSession();
  const deviceId = String(form.get("device_id") ?? "")
    .trim()
    .slice(0, 200);
  if (!deviceId) return { error: "Choose a vehicle." };
  let number: string;
  try {
    number = (await generateCertificate({ ctx, input: { device_id: deviceId } })).certificate_number;
  } catch (err) {
    if (err instanceof NotFoundError) return { error: "That vehicle is not in your fleet." };
    ctx.log.error({ err, device_id: deviceId }, "certificate generation failed");
    return { error: "The certificate could not be generated. Try again in a moment." };
  }
  revalidatePath("/dashboard/certificates");
  // Straight to the new certificate in the viewer (outside the try: redirect() throws).
  redirect(`/dashboard/certificates?view=${encodeURIComponent(number)}&generated=1`);
}
