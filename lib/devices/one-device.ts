import { NotFoundError } from "@/lib/errors";

/** The device's loaded inputs, or a NotFoundError: unknown devices and other tenants' look the same. */
export function oneDevice<T>(loaded: Map<string, T>, deviceId: string): T {
  const found = loaded.get(deviceId);
  if (found === undefined) throw new NotFoundError(`No device ${deviceId}.`);
  return found;
}
