import { randomInt } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * `FDP-CERT-<yyyymmdd>-<5 of [A-Z0-9]>` (CONTRACT), the date in UTC. The suffix is drawn with a
 * CSPRNG: the verify page is public, so numbers must not be guessable from one another (36^5 ≈ 60
 * million per day, and the page is rate limited per client IP).
 */
export function newCertificateNumber(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, "");
  let suffix = "";
  for (let i = 0; i < 5; i += 1) suffix += ALPHABET[randomInt(ALPHABET.length)];
  return `FDP-CERT-${day}-${suffix}`;
}
