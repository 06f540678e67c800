"use client";

import { useEffect, useState } from "react";

/** Copies a value with the Clipboard API; the visible label turns into "Copied" (announced) for 2 s. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <>
      <button
        type="button"
        aria-label={label}
        onClick={() => {
          navigator.clipboard.writeText(value).then(
            () => setState("copied"),
            () => setState("failed"),
          );
        }}
        className="shrink-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        {state === "copied" ? "Copied ✓" : "Copy"}
      </button>
      <span role="status" aria-live="polite" className="sr-only">
        {state === "copied" ? "Copied to the clipboard." : state === "failed" ? "Copying failed: select the text and copy it by hand." : ""}
      </span>
    </>
  );
}
