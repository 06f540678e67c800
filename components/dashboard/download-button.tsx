"use client";

import { useState } from "react";

/**
 * Downloads a dashboard route (a report or a certificate) with visible progress: the file is fetched
 * with the session cookie, "Preparing …" shows while the server renders it, then the browser saves it
 * under the name the server gave. A refusal is shown beside the button, never saved as a file.
 */
export function DownloadButton({ href, label, busyLabel, fallbackName, testId }: { href: string; label: string; busyLabel: string; fallbackName: string; testId?: string }) {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  async function download() {
    setState({ busy: true, error: null });
    try {
      const answer = await fetch(href, { credentials: "same-origin" });
      if (!answer.ok) {
        setState({ busy: false, error: answer.status === 401 ? "Your session has ended: sign in again." : `The file could not be prepared (${answer.status}).` });
        return;
      }
      const blob = await answer.blob();
      const name = /filename="([^"]+)"/.exec(answer.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setState({ busy: false, error: null });
    } catch {
      setState({ busy: false, error: "The download failed: check the connection and try again." });
    }
  }

  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        type="button"
        // download() catches its own failures and shows them beside the button
        onClick={() => void download()}
        disabled={state.busy}
        aria-busy={state.busy}
        data-testid={testId}
        className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:cursor-wait"
      >
        {state.busy ? <span aria-hidden="true" className="h-3 w-3 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" /> : null}
        {state.busy ? busyLabel : label}
      </button>
      <span role="status" aria-live="polite" className="text-sm text-red-700">
        {state.error}
      </span>
    </span>
  );
}
