/**
 * The dashboard's designed empty state: a titled, dashed panel saying why there is nothing yet and what
 * to do next. `id` names the heading the section is labelled by (unique on the page).
 */
export function EmptyState({ id, title, className = "mt-6", children }: { id: string; title: string; className?: string; children: React.ReactNode }) {
  return (
    <section className={`${className} rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center`} aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
