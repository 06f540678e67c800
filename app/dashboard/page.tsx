import Link from "next/link";

export const metadata = { title: "Dashboard — FDP" };

/** Placeholder: the dashboard (sign-in, fleet map, keys) is its own issue. */
export default function DashboardPage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-bold">Dashboard</h1>
      <p className="mt-4 text-slate-600">
        The fleet manager dashboard is on its way. Until then, keys are issued with the admin CLI
        (<code>npm run admin -- key:create</code>) and the API is described in the <Link className="text-brand-700 underline" href="/docs">API reference</Link>.
      </p>
    </main>
  );
}
