import type { Metadata } from "next";
import { GeistSans } from "geist/font/sans";
import { connection } from "next/server";
import "./globals.css";

export const metadata: Metadata = {
  title: "FDP — Fleet Data Products",
  description: "Vehicle telemetry turned into data products for leasing companies and insurers.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request: its scripts carry the nonce of that request's
  // Content-Security-Policy (proxy.ts), which a page prerendered at build time could not.
  await connection();
  return (
    <html lang="en" className={GeistSans.variable}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
