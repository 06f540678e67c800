/** Shown while the alerts load: the page's frame at its final size, so nothing shifts. */
export default function Loading() {
  return (
    <div aria-busy="true" aria-live="polite">
      <p className="sr-only">Loading alerts…</p>
      <div className="h-9 w-40 animate-pulse rounded bg-slate-200" />
      <div className="mt-6 h-24 animate-pulse rounded-lg bg-slate-200" />
      {[0, 1, 2, 3].map((i) => (
        <div key={i} className="mt-3 h-24 animate-pulse rounded-lg bg-slate-100" />
      ))}
    </div>
  );
}
