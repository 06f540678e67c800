import { z } from "zod";
import { REPORTING_ROLES } from "@/lib/vocabulary/reporting-role";

/** Entitlements known to the service today; others may be stored ahead of the feature that reads them. */
export const KNOWN_ENTITLEMENTS = ["residual_factors"] as const;

const ENTITLEMENT_PATTERN = /^[a-z][a-z0-9_]*$/;

/** A list of entitlement identifiers, de-duplicated, order of first appearance kept. */
export const entitlementsSchema = z
  .array(
    z.string().max(64, { message: "An entitlement is at most 64 characters." }).regex(ENTITLEMENT_PATTERN, {
      message: "An entitlement is a lower-case identifier: a letter, then letters, digits or underscores (e.g. residual_factors).",
    }),
  )
  .max(50, { message: "At most 50 entitlements." })
  .transform((list) => [...new Set(list)]);

/** Requests per minute per API key; null (in updates) restores the service default. */
export const rateLimitPerMinSchema = z
  .number({ message: "The rate limit is a number of requests per minute." })
  .int({ message: "The rate limit must be a whole number of requests per minute." })
  .min(1, { message: "The rate limit must be at least 1 request per minute." })
  .max(100_000, { message: "The rate limit must be at most 100000 requests per minute." });

/** The CSRD reporting role (lib/vocabulary/reporting-role.ts), shared by tenant:create and tenant:update. */
export const reportingRoleSchema = z.enum(REPORTING_ROLES, {
  message: `The reporting role is one of: ${REPORTING_ROLES.join(", ")} (operator: the fleet is Scope 1 and 2; lessor: leased-out days are Scope 3 category 13).`,
});
