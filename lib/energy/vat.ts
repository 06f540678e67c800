/**
 * Finnish VAT on electricity (the sale of electrical energy). The rate that applies is the one in force
 * on the delivery day (Finnish Tax Administration: "For supplies of goods, the date of delivery
 * determines the VAT rate"), so a price of a past day carries that day's rate:
 *
 * - 24 % from 1 January 2013 (vatcalc.com, "Jan 2013 – VAT rise to 24%");
 * - 10 % from 1 December 2022 to 30 April 2023, a temporary cut on electricity only (Eurofound EU
 *   PolicyWatch, measure FI-2022-49/2800, "Temporary reduction on value added tax on electricity",
 *   https://static.eurofound.europa.eu/covid19db/cases/FI-2022-49_2800.html: "from 24% to 10% … from
 *   the beginning of December 2022 until the end of April 2023");
 * - 24 % again from 1 May 2023;
 * - 25.5 % from 1 September 2024, the general rate (Finnish Tax Administration, "The general VAT rate
 *   is 25.5% as of 1 September 2024 … increased from 24% to 25.5%",
 *   https://vero.fi/en/businesses-and-corporations/taxes-and-charges/vat/rates-of-vat/new-vat-rate-from-1-september-2024--instructions-for-vat-reporting).
 *
 * Live prices are today's and tomorrow's, at the current rate. The recorded fallback day
 * (lib/energy/recorded.ts, 21 February 2024) carries the 24 % of its own day.
 */
const FI_ELECTRICITY_VAT_PERIODS: readonly { from: string; rate: number }[] = [
  { from: "2013-01-01", rate: 0.24 },
  { from: "2022-12-01", rate: 0.1 },
  { from: "2023-05-01", rate: 0.24 },
  { from: "2024-09-01", rate: 0.255 },
];

/** The rate in force now (the last period): what live prices include. */
export const FI_ELECTRICITY_VAT_RATE = 0.255;

/**
 * The VAT rate on electricity delivered on `day` (YYYY-MM-DD, Helsinki). Days before the first period
 * are refused rather than guessed at: no price that old is served.
 */
export function fiElectricityVatRateOn(day: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`not a YYYY-MM-DD day: ${day}`);
  let rate: number | null = null;
  for (const p of FI_ELECTRICITY_VAT_PERIODS) if (p.from <= day) rate = p.rate;
  if (rate === null) throw new RangeError(`no Finnish electricity VAT rate is tabulated for ${day} (the table starts ${FI_ELECTRICITY_VAT_PERIODS[0]!.from})`);
  return rate;
}

/** Prices are served with three decimals (0.001 c/kWh = 0.01 €/MWh, the exchange's own tick). */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** A VAT-inclusive price (c/kWh) and the same price without VAT, at `rate` (default: today's). */
export function withAndWithoutVat(withVat: number, rate: number = FI_ELECTRICITY_VAT_RATE): { with_vat: number; without_vat: number } {
  return { with_vat: round3(withVat), without_vat: round3(withVat / (1 + rate)) };
}
