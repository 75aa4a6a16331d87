/**
 * The price list of the public /price page (spec sections 2 and 9). This file is the one place
 * prices live: change an amount here and the page follows. Amounts are net, in `PRICING.currency`;
 * the page shows each with VAT added.
 */
export const PRICING = {
  currency: 'RUB',
  vatRate: 0.2,
  /** A session is a 5-minute interview interval (spec section 9). */
  sessionMinutes: 5,
  packages: [
    { id: 'basic', sessions: 3000, price: 450_000 },
    { id: 'smart', sessions: 5000, price: 700_000 },
    { id: 'pro', sessions: 10_000, price: 1_300_000 },
    { id: 'enterprise', sessions: 20_000, price: 2_400_000 },
  ],
  additionalPackage: { sessions: 100, price: 18_000 },
  extraServices: [
    { id: 'recruiting', price: 60_000 },
    { id: 'questionnaire', price: 25_000 },
    { id: 'presentation', price: 40_000 },
    { id: 'customBenchmark', price: 90_000 },
  ],
} as const;

export type PackageId = (typeof PRICING.packages)[number]['id'];
export type ExtraServiceId = (typeof PRICING.extraServices)[number]['id'];

/** Gross amount, VAT included, rounded to whole currency units. */
export function withVat(net: number, vatRate: number = PRICING.vatRate): number {
  return Math.round(net * (1 + vatRate));
}
