"use client";

import { useActionState, useEffect, useRef } from "react";
import { createWebhookAction, deleteWebhookAction, replayWebhookAction, type CreateWebhookState, type SimpleState } from "@/app/dashboard/keys/actions";
import { EVENT_TYPES, type EventType } from "@/lib/vocabulary/events";
import { OneTimeSecretPanel } from "./one-time-secret-panel";

/** One line per event type: a type added to EVENT_TYPES without its line here does not compile. */
const EVENT_HELP: Record<EventType, string> = {
  "alert.created": "a detector raised an alert",
  "alert.updated": "an alert occurred again, escalated, was resolved, acknowledged or dismissed",
  "certificate.generated": "a health certificate was issued",
  "certificate.revoked": "a certificate was revoked",
  "device.created": "a vehicle was seen for the first time",
};

const button = "rounded-md px-3 py-1.5 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-60";

/**
 * URL, events and a note; the signing secret is shown once. No event starts ticked: the manager picks
 * what the receiving system needs. The secret panel goes once its webhook is deleted (`webhookIds` is the
 * server's list, refreshed by the delete action).
 */
export function CreateWebhookForm({ webhookIds }: { webhookIds: readonly string[] }) {
  const [state, action, pending] = useActionState<CreateWebhookState, FormData>(createWebhookAction, { status: "idle" });
  const formRef = useRef<HTMLFormElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.status === "created") {
      formRef.current?.reset();
      panelRef.current?.focus();
    }
  }, [state]);
  return (
    <div>
      {state.status === "created" && webhookIds.includes(state.id) ? (
        <OneTimeSecretPanel
          panelRef={panelRef}
          titleId="new-webhook-title"
          title={`Webhook to ${state.url} registered: copy its signing secret now`}
          secret={state.secret}
          secretTestId="new-webhook-secret"
          copyLabel="Copy the webhook's signing secret"
        >
          Your receiver verifies each delivery&apos;s <code>webhook-signature</code> with it (any Standard Webhooks library). It is not shown again.
        </OneTimeSecretPanel>
      ) : null}
      <form ref={formRef} action={action} className="space-y-4" aria-describedby={state.status === "error" ? "create-webhook-error" : undefined}>
        {state.status === "error" ? (
          <p id="create-webhook-error" role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {state.message}
          </p>
        ) : null}
        <div>
          <label htmlFor="webhook-url" className="block text-sm font-medium text-slate-800">
            URL
          </label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            maxLength={2048}
            placeholder="https://claims.example.com/fdp-webhooks"
            className="mt-1 block w-full max-w-xl rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-500"
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Events</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-start gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm hover:bg-slate-50">
                <input type="checkbox" name="events" value={type} className="mt-0.5 h-4 w-4 accent-brand-700" />
                <span>
                  <span className="font-mono font-medium text-slate-900">{type}</span>
                  <span className="block text-slate-600">{EVENT_HELP[type]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor="webhook-description" className="block text-sm font-medium text-slate-800">
            Note <span className="font-normal text-slate-600">(optional)</span>
          </label>
          <input
            id="webhook-description"
            name="description"
            type="text"
            maxLength={200}
            placeholder="e.g. Claims system, production"
            className="mt-1 block w-full max-w-md rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-500"
          />
        </div>
        <button type="submit" disabled={pending} className={`${button} bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-900`}>
          {pending ? "Registering…" : "Register webhook"}
        </button>
      </form>
    </div>
  );
}

/** Send the events of a recent period again, and delete (one click: the events stay in the feed, and it can be registered again). */
export function WebhookActions({ webhookId, url }: { webhookId: string; url: string }) {
  const [replayed, replay, replaying] = useActionState<SimpleState, FormData>(replayWebhookAction, { status: "idle" });
  const [deleted, remove, deleting] = useActionState<SimpleState, FormData>(deleteWebhookAction, { status: "idle" });
  const message = [replayed, deleted].find((s): s is Exclude<SimpleState, { status: "idle" }> => s.status !== "idle");
  return (
    <div className="flex flex-col items-end gap-2">
      <form action={replay} className="flex flex-wrap items-center justify-end gap-2" aria-label={`Send events to ${url} again`}>
        <input type="hidden" name="webhookId" value={webhookId} />
        <label className="sr-only" htmlFor={`replay-${webhookId}`}>
          Period to send again
        </label>
        <select id={`replay-${webhookId}`} name="hours" defaultValue="24" className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm">
          <option value="1">last hour</option>
          <option value="24">last 24 hours</option>
          <option value="168">last 7 days</option>
        </select>
        <button type="submit" disabled={replaying} className={`${button} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`}>
          {replaying ? "Queueing…" : "Send again"}
        </button>
      </form>
      <form action={remove}>
        <input type="hidden" name="webhookId" value={webhookId} />
        <button type="submit" disabled={deleting} aria-label={`Delete the webhook to ${url}`} className={`${button} border border-red-300 bg-white text-red-800 hover:bg-red-50`}>
          {deleting ? "Deleting…" : "Delete"}
        </button>
      </form>
      {message ? (
        <p role={message.status === "error" ? "alert" : "status"} className={`text-sm ${message.status === "error" ? "text-red-800" : "text-slate-700"}`}>
          {message.message}
        </p>
      ) : null}
    </div>
  );
}
