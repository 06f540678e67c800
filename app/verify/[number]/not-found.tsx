import Link from "next/link";

export default function CertificateNotFound() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <p className="text-sm font-medium uppercase tracking-wide text-slate-500">FDP · Certificate verification</p>
      <h1 className="mt-2 text-3xl font-bold">Unknown certificate</h1>
      <p className="mt-4 text-slate-600">
        FDP has issued no certificate with this number. Check the number printed on the certificate (it looks like
        <code className="mx-1 rounded bg-slate-100 px-1">FDP-CERT-20261124-7KQ2M</code>) or scan its QR code. A document whose number FDP does not know is not an FDP certificate.
      </p>
      <p className="mt-6">
        <Link href="/" className="text-brand-700 underline">
          FDP home
        </Link>
      </p>
    </main>
  );
}
