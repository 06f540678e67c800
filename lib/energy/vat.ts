/**
 * Finnish VAT on electricity: the general rate, 25.5 % for energy supplied on or after 1 September 2024
 * (24 % before). Source: Finnish Tax Administration, "The general VAT rate is 25.5% as of 1 September
 * 2024", https://vero.fi/en/businesses-and-corporations/taxes-and-charges/vat/rates-of-vat/new-vat-rate-from-1-september-2024--instructions-for-vat-reporting
 * Only this rate is applied: the service serves current prices. The recorded fallback day (21 Feb 2024,
 * when the rate was 24 %) is stored without VAT and served with this rate too, so that every answer says
 * the same thing (data/spot-prices/README.md).
 */
export const FI_ELECTRICITY_VAT_RATE = 0.255;

/** Prices are served with three decimals (0.001 c/kWh = 0.01 €/MWh, the exchange's own tick). */
export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** A VAT-inclusive price (c/kWh) and the same price without VAT. */
export function withAndWithoutVat(withVat: number): { with_vat: number; without_vat: number } {
  return { with_vat: round3(withVat), without_vat: round3(withVat / (1 + FI_ELECTRICITY_VAT_RATE)) };
}
