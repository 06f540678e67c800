"use server";

import { revalidatePath } from "next/cache";
import { SCOPES } from "@/lib/auth/key-format";
import type { AuditedCtx } from "@/lib/audit/audited-ctx";
import { issueApiKey } from "@/lib/dashboard/key-management/issue-api-key";
import { revealIngestSecret } from "@/lib/dashboard/key-management/reveal-ingest-secret";
import { revokeTenantApiKey } from "@/lib/dashboard/key-management/revoke-tenant-api-key";
import { rotateTenantIngestSecret } from "@/lib/dashboard/key-management/rotate-tenant-ingest-secret";
import { setRequireSignedIngest } from "@/lib/dashboard/key-management/set-require-signed-ingest";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { registerWebhook, removeWebhook, replayWebhookSince } from "@/lib/dashboard/webhook-management/manage-webhooks";
import { DomainError } from "@/lib/errors";

/*
 * The keys page's mutations. Each re-reads the session (a server action is a public POST endpoint:
 * Next.js checks its Origin, the session cookie says who and which tenant) and never takes a tenant
 * from the form. Keys and secrets travel back in the action's answer only, for a one-time display;
 * nothing here logs them.
 */

const KEYS_PATH = "/dashboard/keys";

async function auditedCtx(): Promise<AuditedCtx> {
  const { ctx, userId, email } = await requireDashboardSession();
  return { ...ctx, actor: { userId, email } };
}

/** A domain refusal in words for the page; anything else is a real failure and goes to the error page. */
function refusal(err: unknown): string {
  if (err instanceof DomainError) return err.details?.[0]?.message && err.code === "invalid_request" ? err.details.map((d) => d.message).join(" ") : err.message;
  throw err;
}

export type CreateKeyState = { status: "idle" } | { status: "created"; key: string; keyId: string; name: string | null } | { status: "error"; message: string };

export async function createKeyAction(_previous: CreateKeyState, form: FormData): Promise<CreateKeyState> {
  const ctx = await auditedCtx();
  const name = String(form.get("name") ?? "").trim();
  const scopes = form.getAll("scopes").map(String);
  if (scopes.length === 0) return { status: "error", message: `Choose at least one scope (${SCOPES.join(", ")}).` };
  try {
    const { key, keyId } = await issueApiKey({ ctx, input: { name: name || undefined, scopes } });
    ctx.log.info({ key_id: keyId }, "api key created from the dashboard");
    revalidatePath(KEYS_PATH);
    return { status: "created", key, keyId, name: name || null };
  } catch (err) {
    return { status: "error", message: refusal(err) };
  }
}

export type SimpleState = { status: "idle" } | { status: "done"; message: string } | { status: "error"; message: string };

export async function revokeKeyAction(_previous: SimpleState, form: FormData): Promise<SimpleState> {
  const ctx = await auditedCtx();
  const keyId = String(form.get("keyId") ?? "");
  try {
    await revokeTenantApiKey({ ctx, input: { keyId } });
    ctx.log.info({ key_id: keyId }, "api key revoked from the dashboard");
    revalidatePath(KEYS_PATH);
    return { status: "done", message: "The key is revoked: the API refuses it within 5 seconds." };
  } catch (err) {
    return { status: "error", message: refusal(err) };
  }
}

export type SecretState = { status: "idle" } | { status: "shown"; secret: string; rotated: boolean } | { status: "error"; message: string };

export async function revealSecretAction(): Promise<SecretState> {
  const ctx = await auditedCtx();
  try {
    const { ingestSecret } = await revealIngestSecret({ ctx });
    revalidatePath(KEYS_PATH);
    return { status: "shown", secret: ingestSecret, rotated: false };
  } catch (err) {
    return { status: "error", message: refusal(err) };
  }
}

export async function rotateSecretAction(): Promise<SecretState> {
  const ctx = await auditedCtx();
  try {
    const { ingestSecret } = await rotateTenantIngestSecret({ ctx });
    ctx.log.info("ingest secret rotated from the dashboard");
    revalidatePath(KEYS_PATH);
    return { status: "shown", secret: ingestSecret, rotated: true };
  } catch (err) {
    return { status: "error", message: refusal(err) };
  }
}

export async function setSignedIngestAction(_previous: SimpleState, form: FormData): Promise<SimpleState> {
  const ctx = await auditedCtx();
  const required = form.get("required") === "true";
  try {
    await setRequireSignedIngest({ ctx, input: { required } });
    revalidatePath(KEYS_PATH);
    return {
      status: "done",
      message: required ? "Signed ingest is now required (in effect within 5 seconds)." : "Unsigned ingest is accepted again (in effect within 5 seconds).",
    };
  } catch (err) {
    return { status: "error", message: refusal(err) };
  }
}

export type CreateWebhookState = { status: "idle" } | { status: "created"; id: string; url: string; secret: string } | { status: "error"; message: string };

export async function createWebhookAction(_previous: CreateWebhookState, form: FormData): Promise<CreateWebhookState> {
  const ctx = await auditedCtx();
  const url = String(form.get("url") ?? "").trim();
  const events = form.getAll("events").map(String);
  const description = String(form.get("description") ?? "").trim();
  if (events.length === 0) return { status: "error", message: "Choose at least one event to send." };
  try {
    const created = await registerWebhook({ ctx, input: { url, events, description: description || undefined } });
    revalidatePath(KEYS_PATH);
    return { status: "created", id: created.id, url: created.url, secret: created.secret };
  } catch (err) {
    return { status: "error", message: refusal(err) };
  }
}

export async function deleteWebhookAction(_previous: SimpleState, form: FormData): Promise<SimpleState> {
  const ctx = await auditedCtx();
  try {
    await removeWebhook({ ctx, input: { webhook_id: String(form.get("webhookId") ?? "") } });
    revalidatePath(KEYS_PATH);
    return { status: "done", message: "The webhook is deleted: nothing more is sent to it." };
  } catch (err) {
    return { status: "error", message: refusal(err) };
  }
}

/** The replay periods the page offers, in hours. */
const REPLAY_HOURS = new Set([1, 24, 168]);

export async function replayWebhookAction(_previous: SimpleState, form: FormData): Promise<SimpleState> {
  const ctx = await auditedCtx();
  const hours = Number(form.get("hours"));
  if (!REPLAY_HOURS.has(hours)) return { status: "error", message: "Choose how far back to send the events again." };
  try {
    const since = new Date(Date.now() - hours * 3_600_000).toISOString();
    const { events } = await replayWebhookSince({ ctx, input: { webhook_id: String(form.get("webhookId") ?? ""), since } });
    revalidatePath(KEYS_PATH);
    return { status: "done", message: events === 0 ? "No events in that period: nothing to send." : `${events} event${events === 1 ? "" : "s"} queued to be sent again.` };
  } catch (err) {
    return { status: "error", message: refusal(err) };
  }
}
