import { z } from "zod";
import type { Db } from "@/lib/db/client";
import { rotateSigningKey as rotate, type RotationResult } from "./signing/signing-keys";

/** `signing-key:rotate` takes no input. */
export const rotateSigningKeyInput = z.object({});

/**
 * Operator verb (admin CLI `signing-key:rotate`): the active certificate signing key is retired now
 * (`valid_until`) and a new one signs from now on, on every instance within 5 seconds. Certificates
 * signed before keep verifying under the retired key.
 */
export async function rotateSigningKey({ ctx, now }: { ctx: { db: Db }; input: z.input<typeof rotateSigningKeyInput>; now?: Date }): Promise<RotationResult> {
  return rotate(ctx.db, now);
}
