"use client";

import { useActionState, useEffect, useRef, useState } from "react";
import { revokeKeyAction, type SimpleState } from "@/app/dashboard/keys/actions";

/**
 * "Revoke" opens an inline confirmation (a real step in the page, reachable by keyboard, focus moved
 * to it; Escape or "Cancel" closes it); only "Revoke key" there posts the server action.
 */
export function RevokeKeyButton({ keyId, keyLabel }: { keyId: string; keyLabel: string }) {
  const [confirming, setConfirming] = useState(false);
  const [state, action, pending] = useActionState<SimpleState, FormData>(revokeKeyAction, { status: "idle" });
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  const close = () => {
    setConfirming(false);
    requestAnimationFrame(() => openRef.current?.focus());
  };

  if (!confirming) {
    return (
      <div>
        <button
          ref={openRef}
          type="button"
          onClick={() => setConfirming(true)}
          aria-label={`Revoke ${keyLabel}`}
          className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500"
        >
          Revoke
        </button>
        {state.status === "error" ? (
          <p role="alert" className="mt-1 text-sm text-red-800">
            {state.message}
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <form
      action={action}
      role="group"
      aria-label={`Confirm revoking ${keyLabel}`}
      onKeyDown={(e) => {
        if (e.key === "Escape") close();
      }}
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm"
    >
      <input type="hidden" name="keyId" value={keyId} />
      <p className="text-red-900">
        Revoke <strong>{keyLabel}</strong>? Every request with it is refused within 5 seconds. This cannot be undone.
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          ref={confirmRef}
          type="submit"
          disabled={pending}
          className="rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-500 focus-visible:ring-offset-2 disabled:opacity-60"
        >
          {pending ? "Revoking…" : "Revoke key"}
        </button>
        <button
          type="button"
          onClick={close}
          className="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
