/** While the reports of the chosen period render on the server: the page's frame and a progress note. */
export default function ReportsLoading() {
  return (
    <div role="status" aria-live="polite">
      <p className="text-sm font-medium text-slate-700">Preparing the reports of the chosen period…</p>
      <div className="animate-pulse">
        <div className="mt-3 h-8 w-40 rounded bg-slate-200" />
        <div className="mt-6 h-24 rounded-lg bg-slate-200" />
        <div className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="h-20 rounded-lg bg-slate-200" />
          ))}
        </div>
        <div className="mt-6 h-64 rounded-lg bg-slate-200" />
      </div>
    </div>
  );
}
