import Link from "next/link";
import { redirect } from "next/navigation";
import { auth } from "@/lib/dashboard/auth";
import { LoginForm } from "./login-form";

export const metadata = { title: "Sign in — FDP" };

export default async function LoginPage() {
  const session = await auth();
  if (session?.user?.tenantId) redirect("/dashboard");
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">FDP — Fleet Data Products</p>
        <h1 className="mt-2 text-2xl font-bold tracking-tight">Sign in to the dashboard</h1>
        <LoginForm />
        <p className="mt-6 text-sm text-slate-600">
          No account? Users are created by your operator (<code className="rounded bg-slate-100 px-1">npm run admin -- user:create</code>). The{" "}
          <Link href="/docs" className="text-brand-700 underline">
            API reference
          </Link>{" "}
          needs no sign-in.
        </p>
      </div>
    </main>
  );
}
