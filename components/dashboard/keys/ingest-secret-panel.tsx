"use client";

import { useActionState, useState } from "react";
import { revealSecretAction, rotateSecretAction, setSignedIngestAction, type SecretState, type SimpleState } from "@/app/dashboard/keys/actions";
import { CopyButton } from "./copy-button";

const button =
  "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-60";

/**
 * The ingest secret (the HMAC-SHA256 key of signed ingest): shown only after "Reveal" (recorded in the
 * audit log) and only for this page view; "Rotate" (with a confirmation) replaces it at once. The
 * switch makes signatures mandatory. The sandbox's secret is public: no rotation, no switch.
 */
export function IngestSecretPanel({ requireSignedIngest, managedBySandbox, sandboxMessage }: { requireSignedIngest: boolean; managedBySandbox: boolean; sandboxMessage: string }) {
  const [secret, setSecret] = useState<SecretState>({ status: "idle" });
  const [pending, setPending] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  const [switchState, switchAction, switchPending] = useActionState<SimpleState, FormData>(setSignedIngestAction, { status: "idle" });

  // The buttons start this and move on (`void run(…)`): the action answers its refusals as a SecretState;
  // only a failure to reach the server rejects, and that is left to the browser's unhandled-rejection report.
  const run = async (fn: () => Promise<SecretState>) => {
    setPending(true);
    try {
      setSecret(await fn());
    } finally {
      setPending(false);
      setConfirmRotate(false);
    }
  };

  return (
    <div className="space-y-5">
      <div>
        {secret.status === "shown" ? (
          <div className="rounded-lg border border-amber-300 bg-amber-50 p-4">
            <p className="text-sm font-medium text-amber-900">
              {secret.rotated ? "New ingest secret: the old one no longer verifies. Update your OEM integration now." : "Ingest secret (shown for this page view only):"}
            </p>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <code data-testid="ingest-secret" className="min-w-0 flex-1 select-all break-all rounded border border-amber-200 bg-white px-3 py-2 font-mono text-sm text-slate-900">
                {secret.secret}
              </code>
              <CopyButton value={secret.secret} label="Copy the ingest secret" />
            </div>
          </div>
        ) : (
          <p className="font-mono text-sm tracking-widest text-slate-500">
            <span aria-hidden="true">••••••••••••••••••••</span>
            <span className="sr-only">The ingest secret is hidden.</span>
          </p>
        )}
        {secret.status === "error" ? (
          <p role="alert" className="mt-2 text-sm text-red-800">
            {secret.message}
          </p>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-2">
          {secret.status !== "shown" ? (
            <button type="button" className={button} disabled={pending} onClick={() => void run(revealSecretAction)}>
              Reveal secret
            </button>
          ) : null}
          {managedBySandbox ? null : confirmRotate ? (
            <div
              role="group"
              aria-label="Confirm rotating the ingest secret"
              className="w-full rounded-md border border-red-200 bg-red-50 p-3 text-sm"
              onKeyDown={(e) => e.key === "Escape" && setConfirmRotate(false)}
            >
              <p className="text-red-900">Rotate the secret? Signed payloads made with the current secret are refused from now on.</p>
              <div className="mt-2 flex gap-2">
                <button
                  type="button"
                  autoFocus
                  disabled={pending}
                  onClick={() => void run(rotateSecretAction)}
                  className="rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2"
                >
                  {pending ? "Rotating…" : "Rotate secret"}
                </button>
                <button type="button" className={button} onClick={() => setConfirmRotate(false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : (
            <button type="button" className={button} onClick={() => setConfirmRotate(true)}>
              Rotate…
            </button>
          )}
        </div>
      </div>

      <form action={switchAction} className="rounded-lg border border-slate-200 bg-slate-50 p-4">
        <input type="hidden" name="required" value={requireSignedIngest ? "false" : "true"} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <p id="signed-ingest-label" className="text-sm font-medium text-slate-900">
              Require signed ingest
            </p>
            <p id="signed-ingest-help" className="text-sm text-slate-600">
              {requireSignedIngest
                ? "On: unsigned payloads are refused with 401 invalid_signature."
                : "Off: unsigned payloads are accepted; a signature that is present must verify."}
            </p>
          </div>
          <button
            type="submit"
            role="switch"
            aria-checked={requireSignedIngest}
            aria-labelledby="signed-ingest-label"
            aria-describedby="signed-ingest-help"
            disabled={managedBySandbox || switchPending}
            className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60 ${requireSignedIngest ? "bg-brand-700" : "bg-slate-400"}`}
          >
            <span className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${requireSignedIngest ? "translate-x-6" : "translate-x-1"}`} />
          </button>
        </div>
        {switchState.status !== "idle" ? (
          <p role={switchState.status === "error" ? "alert" : "status"} className={`mt-2 text-sm ${switchState.status === "error" ? "text-red-800" : "text-emerald-800"}`}>
            {switchState.message}
          </p>
        ) : null}
      </form>
      {managedBySandbox ? <p className="text-sm text-slate-600">{sandboxMessage}</p> : null}
    </div>
  );
}
