import Link from "next/link";
import { openApiDocument } from "@/lib/openapi/document";

export const metadata = { title: "API reference — FDP" };
export const dynamic = "force-dynamic";

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string; minimum?: number; maximum?: number; default?: unknown; enum?: unknown[] };
}
interface Operation {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  responses?: Record<string, { description?: string }>;
}
interface Doc {
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths?: Record<string, Record<string, Operation>>;
}

function describeSchema(s: Parameter["schema"]): string {
  if (!s) return "";
  const parts = [s.type ?? ""];
  if (s.enum) parts.push(`one of ${s.enum.join(", ")}`);
  if (s.minimum !== undefined || s.maximum !== undefined) parts.push(`${s.minimum ?? ""}–${s.maximum ?? ""}`);
  if (s.default !== undefined) parts.push(`default ${String(s.default)}`);
  return parts.filter(Boolean).join(", ");
}

/** A readable view of the same OpenAPI document served at /api/v1/openapi.json. */
export default function DocsPage() {
  const doc = openApiDocument() as Doc;
  return (
    <main className="mx-auto max-w-4xl px-6 py-12">
      <h1 className="text-3xl font-bold">{doc.info.title}</h1>
      <p className="mt-1 text-sm text-slate-500">
        Version {doc.info.version} · base URL <code>{doc.servers?.[0]?.url}</code> ·{" "}
        <Link className="text-brand-700 underline" href="/api/v1/openapi.json">
          openapi.json
        </Link>
      </p>
      <p className="mt-4 text-slate-700">{doc.info.description}</p>
      {Object.entries(doc.paths ?? {}).map(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => (
          <section key={`${method} ${path}`} className="mt-8 rounded-lg border border-slate-200 bg-white p-5">
            <h2 className="font-mono text-lg">
              <span className="mr-2 rounded bg-brand-50 px-2 py-0.5 text-sm font-semibold uppercase text-brand-700">{method}</span>
              {path}
            </h2>
            <p className="mt-2 text-slate-700">{op.summary}</p>
            {op.description ? <p className="mt-1 text-sm text-slate-500">{op.description}</p> : null}
            {op.parameters?.length ? (
              <table className="mt-4 w-full text-left text-sm">
                <thead className="text-slate-500">
                  <tr>
                    <th className="py-1">Parameter</th>
                    <th>In</th>
                    <th>Type and bounds</th>
                  </tr>
                </thead>
                <tbody>
                  {op.parameters.map((p) => (
                    <tr key={p.name} className="border-t border-slate-100">
                      <td className="py-1 font-mono">{p.name}</td>
                      <td>{p.in}</td>
                      <td>{describeSchema(p.schema)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <ul className="mt-4 text-sm text-slate-600">
              {Object.entries(op.responses ?? {}).map(([status, r]) => (
                <li key={status}>
                  <span className="font-mono font-semibold">{status}</span> {r.description}
                </li>
              ))}
            </ul>
          </section>
        )),
      )}
    </main>
  );
}
