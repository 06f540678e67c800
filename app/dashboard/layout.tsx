import Link from "next/link";
import { DashboardNav } from "@/components/dashboard/dashboard-nav";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { signOutAction } from "../login/actions";

/** The dashboard's shell: signed out, every page under /dashboard redirects to /login (here and in each page). */
export default async function DashboardLayout({ children }: { children: React.ReactNode }) {
  const { email } = await requireDashboardSession();
  return (
    <div className="min-h-screen">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-6 gap-y-3 px-4 py-3 sm:px-6">
          <Link href="/dashboard" className="text-lg font-bold tracking-tight text-slate-900">
            FDP <span className="font-medium text-slate-600">Dashboard</span>
          </Link>
          {/* Below the brand and the account on a phone, between them on a wide screen. */}
          <div className="order-last w-full lg:order-none lg:w-auto lg:flex-1">
            <DashboardNav />
          </div>
          <SignOut email={email} />
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {children}
      </main>
    </div>
  );
}

function SignOut({ email }: { email: string }) {
  return (
    <form action={signOutAction} className="flex items-center gap-3">
      <span className="max-w-[12rem] truncate text-sm text-slate-600" title={email}>
        <span className="sr-only">Signed in as </span>
        {email}
      </span>
      <button
        type="submit"
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        Sign out
      </button>
    </form>
  );
}
