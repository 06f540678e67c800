"use client";

import { useActionState, useEffect, useRef } from "react";
import { createKeyAction, type CreateKeyState } from "@/app/dashboard/keys/actions";
import type { Scope } from "@/lib/auth/key-format";
import { OneTimeSecretPanel } from "./one-time-secret-panel";

/** One line per scope: a scope added to SCOPES without its line here does not compile. */
const SCOPE_HELP: Record<Scope, string> = {
  "fleet:read": "fleet list and vehicle state",
  "scores:read": "health, TAS, risk and green-fleet scores",
  "predictions:read": "battery, mileage, residual value",
  "certificates:write": "generate and read certificates",
  "reports:read": "emissions and CSRD reports",
  "ingest:write": "send telemetry (OEM ingest)",
  mcp: "the MCP endpoint for AI agents",
  "webhooks:write": "register webhooks that push changes",
  "events:read": "read the changes feed",
};

/**
 * Name + scopes; the new key is shown once. No scope starts ticked: the manager picks what the key needs
 * (a key with every scope is one click per scope, on purpose). The one-time panel goes as soon as its key
 * is revoked (`activeKeyIds` comes from the server's list, refreshed by the revoke action): a secret that
 * no longer opens anything must not sit on the page with a Copy button.
 */
export function CreateKeyForm({ scopes, activeKeyIds }: { scopes: readonly Scope[]; activeKeyIds: readonly string[] }) {
  const [state, action, pending] = useActionState<CreateKeyState, FormData>(createKeyAction, { status: "idle" });
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
      {state.status === "created" && !activeKeyIds.includes(state.keyId) ? (
        <p role="status" className="mb-6 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700" data-testid="new-api-key-revoked">
          The key{state.name ? ` “${state.name}”` : ""} you just created is revoked: its secret is no longer shown.
        </p>
      ) : null}
      {state.status === "created" && activeKeyIds.includes(state.keyId) ? (
        <OneTimeSecretPanel
          panelRef={panelRef}
          titleId="new-key-title"
          title={`New key${state.name ? ` “${state.name}”` : ""}: copy it now`}
          secret={state.key}
          secretTestId="new-api-key"
          copyLabel="Copy the new API key"
        >
          FDP keeps only a hash of it. Once you leave or reload this page, it cannot be shown again.
        </OneTimeSecretPanel>
      ) : null}
      <form ref={formRef} action={action} className="space-y-4" aria-describedby={state.status === "error" ? "create-key-error" : undefined}>
        {state.status === "error" ? (
          <p id="create-key-error" role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {state.message}
          </p>
        ) : null}
        <div>
          <label htmlFor="key-name" className="block text-sm font-medium text-slate-800">
            Name
          </label>
          <input
            id="key-name"
            name="name"
            type="text"
            maxLength={100}
            placeholder="e.g. Telematics ingest (production)"
            className="mt-1 block w-full max-w-md rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-brand-700 focus:outline-none focus:ring-2 focus:ring-brand-500"
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">Scopes</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {scopes.map((scope) => (
              <label key={scope} className="flex items-start gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm hover:bg-slate-50">
                <input type="checkbox" name="scopes" value={scope} className="mt-0.5 h-4 w-4 accent-brand-700" />
                <span>
                  <span className="font-mono font-medium text-slate-900">{scope}</span>
                  <span className="block text-slate-600">{SCOPE_HELP[scope]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-60"
        >
          {pending ? "Creating…" : "Create key"}
        </button>
      </form>
    </div>
  );
}
