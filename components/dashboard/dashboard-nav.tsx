"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The dashboard's sections (CONTRACT "Dashboard" page addresses) and the API reference. */
const DASHBOARD_SECTIONS = [
  { href: "/dashboard", label: "Fleet" },
  { href: "/dashboard/alerts", label: "Alerts" },
  { href: "/dashboard/keys", label: "Keys" },
  { href: "/dashboard/certificates", label: "Certificates" },
  { href: "/dashboard/reports", label: "Reports" },
  { href: "/docs", label: "API reference" },
] as const;

function isCurrent(pathname: string, href: string): boolean {
  if (href === "/dashboard") return pathname === "/dashboard" || pathname.startsWith("/dashboard/vehicles");
  return pathname === href || pathname.startsWith(`${href}/`);
}

/** Horizontal on wide screens; on a phone the list scrolls sideways rather than wrapping into a wall of links. */
export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="flex min-w-max gap-1">
        {DASHBOARD_SECTIONS.map(({ href, label }) => {
          const current = isCurrent(pathname, href);
          return (
            <li key={href}>
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                className={`block rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
                  current ? "bg-brand-50 text-brand-900" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900"
                }`}
              >
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
