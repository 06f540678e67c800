"use client";

import { useActionState } from "react";
import { useFormStatus } from "react-dom";
import type { GenerateCertificateState } from "@/app/dashboard/certificates/actions";

function SubmitButton() {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      disabled={pending}
      aria-busy={pending}
      className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:cursor-wait disabled:opacity-70"
    >
      {pending ? "Generating…" : "Generate certificate"}
    </button>
  );
}

/** Chooses one of the tenant's vehicles and calls the server action (which opens the new certificate). */
export function GenerateCertificateForm({
  vehicles,
  selected,
  action,
}: {
  vehicles: { device_id: string; name: string }[];
  /** A vehicle chosen in advance (one of `vehicles`). */
  selected?: string;
  action: (previous: GenerateCertificateState, form: FormData) => Promise<GenerateCertificateState>;
}) {
  const [state, formAction] = useActionState(action, { error: null });
  return (
    <form action={formAction} className="flex flex-wrap items-end gap-3" aria-describedby={state.error ? "generate-error" : undefined}>
      <div className="w-full min-w-0 sm:w-auto sm:max-w-sm sm:flex-1">
        <label htmlFor="certificate-vehicle" className="block text-sm font-medium text-slate-800">
          Vehicle
        </label>
        <select
          id="certificate-vehicle"
          name="device_id"
          required
          defaultValue={selected ?? ""}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <option value="" disabled>
            Choose a vehicle…
          </option>
          {vehicles.map((v) => (
            <option key={v.device_id} value={v.device_id}>
              {v.name} ({v.device_id})
            </option>
          ))}
        </select>
      </div>
      <SubmitButton />
      {state.error ? (
        <p id="generate-error" role="alert" className="w-full text-sm font-medium text-red-700">
          {state.error}
        </p>
      ) : null}
    </form>
  );
}
