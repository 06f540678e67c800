import Link from "next/link";
import { notFound } from "next/navigation";
import { StatusBadge } from "@/components/dashboard/badges";
import { getVehicleSummary } from "@/lib/dashboard/get-vehicle-summary";
import { requireDashboardSession } from "@/lib/dashboard/session";

export const metadata = { title: "Vehicle — FDP Dashboard" };

/** A vehicle of the signed-in user's tenant; any other id (unknown, or another tenant's) is the 404 page. */
export default async function VehiclePage({ params }: { params: Promise<{ device_id: string }> }) {
  const { ctx } = await requireDashboardSession();
  const { device_id } = await params;
  const vehicle = await getVehicleSummary({ ctx, input: { device_id } });
  if (!vehicle) notFound();
  const description = [vehicle.year, vehicle.make, vehicle.model].filter(Boolean).join(" ");
  return (
    <>
      <p className="text-sm">
        <Link href="/dashboard" className="text-brand-700 underline">Fleet</Link>
        <span aria-hidden="true" className="mx-2 text-slate-400">/</span>
        <span className="font-mono text-slate-600">{vehicle.deviceId}</span>
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{vehicle.name}</h1>
        {vehicle.status ? <StatusBadge status={vehicle.status} /> : <span className="text-sm text-slate-600">no data received yet</span>}
        <Link
          href={`/dashboard/certificates?device=${encodeURIComponent(vehicle.deviceId)}`}
          className="ml-auto rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
        >
          Generate certificate
        </Link>
      </div>
      <dl className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Fact label="Vehicle" value={description || "not declared"} />
        <Fact label="Powertrain" value={vehicle.powertrain ?? "unknown"} />
        <Fact label="State of charge" value={vehicle.socPct === null ? "not reported" : `${Math.round(vehicle.socPct)} %`} />
        <Fact label="Last update" value={vehicle.updatedAt ? vehicle.updatedAt.toISOString().replace("T", " ").slice(0, 16) + " UTC" : "never"} />
      </dl>
    </>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 font-semibold">{value}</dd>
    </div>
  );
}
