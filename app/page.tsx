import Link from "next/link";
import { SANDBOX_KEY } from "@/lib/auth/key-format";

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">FDP — Fleet Data Products</p>
      <h1 className="mt-2 text-4xl font-bold tracking-tight">Vehicle telemetry, turned into data products</h1>
      <p className="mt-4 text-lg text-slate-600">
        Fleet snapshots, alerts, scores and certificates for leasing companies and insurers, through a REST API, an MCP server and a dashboard.
      </p>
      <div className="mt-8 flex flex-wrap gap-3">
        <Link href="/docs" className="rounded-md bg-brand-500 px-4 py-2 font-medium text-white hover:bg-brand-700">
          API reference
        </Link>
        <Link href="/dashboard" className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-100">
          Dashboard
        </Link>
      </div>
      <section className="mt-12 rounded-lg border border-slate-200 bg-white p-6">
        <h2 className="text-lg font-semibold">Try it with the sandbox key</h2>
        <p className="mt-2 text-slate-600">A synthetic fleet of Finnish vehicles answers to the public sandbox key.</p>
        <pre className="mt-4 overflow-x-auto rounded bg-slate-900 p-4 text-sm text-slate-100">
          {`curl -H "Authorization: Bearer ${SANDBOX_KEY}" \\\n  http://localhost:3000/api/v1/fleet?limit=5`}
        </pre>
      </section>
    </main>
  );
}
