/** While the certificate list renders on the server: its frame, so nothing jumps when it arrives. */
export default function CertificatesLoading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse">
      <span className="sr-only">Loading certificates…</span>
      <div className="h-8 w-48 rounded bg-slate-200" />
      <div className="mt-3 h-4 w-96 max-w-full rounded bg-slate-200" />
      <div className="mt-6 h-28 rounded-lg bg-slate-200" />
      <div className="mt-6 h-64 rounded-lg bg-slate-200" />
    </div>
  );
}
