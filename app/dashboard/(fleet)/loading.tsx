/**
 * Shown while the fleet page renders on the server: the page's frame, so nothing jumps when it arrives.
 * Only in this route group: a loading boundary above a page that may call notFound() (the vehicle page)
 * makes Next.js stream the shell first, and the 404 page would then go out with status 200.
 */
export default function DashboardLoading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-40 rounded bg-slate-200" />
      <div className="mt-3 h-4 w-80 max-w-full rounded bg-slate-200" />
      <div className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="h-20 rounded-lg bg-slate-200" />
        ))}
      </div>
      <div className="mt-6 h-96 rounded-lg bg-slate-200" />
    </div>
  );
}
