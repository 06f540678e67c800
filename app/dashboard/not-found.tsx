import Link from "next/link";

/**
 * The dashboard's 404 page: an unknown page, or a vehicle the signed-in tenant does not have (another
 * tenant's vehicle looks exactly like one that does not exist: nothing says whether it does).
 */
export default function DashboardNotFound() {
  return (
    <section className="mx-auto max-w-xl py-12 text-center" aria-labelledby="not-found-title">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">404</p>
      <h1 id="not-found-title" className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">
        Not found
      </h1>
      <p className="mt-4 text-slate-600">There is nothing at this address in your fleet. The vehicle may have been removed, or the link may be mistyped.</p>
      <p className="mt-8">
        <Link href="/dashboard" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900">
          Back to the fleet
        </Link>
      </p>
    </section>
  );
}
