/** Shown while the keys page renders on the server: its frame (title, key table, forms), so nothing jumps. */
export default function KeysLoading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-40 rounded bg-slate-200" />
      <div className="mt-3 h-4 w-96 max-w-full rounded bg-slate-200" />
      <div className="mt-8 h-6 w-32 rounded bg-slate-200" />
      <div className="mt-3 h-40 rounded-lg bg-slate-200" />
      <div className="mt-10 h-72 rounded-xl bg-slate-200" />
      <div className="mt-10 h-40 rounded-xl bg-slate-200" />
    </div>
  );
}
