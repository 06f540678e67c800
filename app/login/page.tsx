import Link from "next/link";
import { redirect } from "next/navigation";
import { auth } from "@/lib/dashboard/auth";
import { LoginForm } from "./login-form";

export const metadata = { title: "Sign in — FDP" };

/**
 * next-auth sends a browser back here with `?error=<type>` when a post to its own endpoints failed
 * (pages.error in lib/dashboard/auth.ts); the form's own attempts report through the action instead.
 */
function messageFor(error: string | string[] | undefined): string | null {
  if (error === undefined) return null;
  return error === "CredentialsSignin" ? "The email address or the password is wrong." : "Sign-in did not complete. Please try again.";
}

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await auth();
  if (session?.user?.tenantId) redirect("/dashboard");
  const initialError = messageFor((await searchParams).error);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-8 shadow-sm">
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">FDP — Fleet Data Products</p>
        <h1 className="mt-2 text-2xl font-bold tracking-tight">Sign in to the dashboard</h1>
        <LoginForm initialError={initialError} />
        <p className="mt-6 text-sm text-slate-600">
          No account? Ask your organisation&apos;s FDP administrator to add you. The{" "}
          <Link href="/docs" className="text-brand-700 underline">
            API reference
          </Link>{" "}
          needs no sign-in.
        </p>
      </div>
    </main>
  );
}
