"use client";

import type { ReactNode, Ref } from "react";
import { CopyButton } from "./copy-button";

/**
 * A secret shown once, right after it was made (a new API key, a webhook's signing secret): a heading,
 * why it is not shown again, the secret and its Copy button. Focused by the form that made it, so a
 * keyboard or screen-reader user lands on it.
 */
export function OneTimeSecretPanel({
  panelRef,
  titleId,
  title,
  children,
  secret,
  secretTestId,
  copyLabel,
}: {
  panelRef: Ref<HTMLDivElement>;
  titleId: string;
  title: ReactNode;
  /** Why it is shown once, and what to do with it. */
  children: ReactNode;
  secret: string;
  secretTestId: string;
  copyLabel: string;
}) {
  return (
    <div
      ref={panelRef}
      tabIndex={-1}
      className="mb-6 rounded-lg border border-emerald-300 bg-emerald-50 p-4 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      aria-labelledby={titleId}
    >
      <h3 id={titleId} className="font-semibold text-emerald-900">
        {title}
      </h3>
      <p className="mt-1 text-sm text-emerald-900">{children}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code data-testid={secretTestId} className="min-w-0 flex-1 select-all break-all rounded border border-emerald-200 bg-white px-3 py-2 font-mono text-sm text-slate-900">
          {secret}
        </code>
        <CopyButton value={secret} label={copyLabel} />
      </div>
    </div>
  );
}
